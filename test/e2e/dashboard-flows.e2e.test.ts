// Four dashboard flows in a real browser, each checked through the API afterwards: an admin
// creates a narrowly scoped API key and uses its secret; an editor creates a colored tag that
// a post then carries and the posts list filters by; an admin creates a webhook endpoint, sees
// its signing secret once and disables it; a worker signs in with its token and reports its
// released task posted, on a phone-sized screen that never scrolls sideways.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { client, seedCompany } from '../helpers/app.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { makeAccounts, makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { createUser } from '../../src/modules/users/index.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';

const missing = browserMissing();
/** No single browser step waits longer than this. */
const STEP = 15_000;

describe('dashboard flows in a browser', { skip: missing ?? false, timeout: 180_000 }, () => {
  const app = useBrowserApp();

  /** A fresh browser context, signed in as a new user of the company, on `path`. */
  async function signedIn(
    companyId: string,
    role: 'admin' | 'editor',
    path: string,
  ): Promise<Page> {
    const { t, url, browser } = app();
    const email = `${role}-${Math.random().toString(36).slice(2, 8)}@e2e.example`;
    const { password } = await createUser(t.ctx.db, t.ctx.clock, { companyId, email, role });
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.setDefaultNavigationTimeout(STEP);
    await page.goto(`${url}${path}`);
    assert.match(page.url(), /\/dashboard\/sign-in/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}${path}`);
    await page.waitForLoadState('load');
    return page;
  }

  test('an admin creates a usage-only key and the API honours its scope', async () => {
    const { t, url } = app();
    const co = await seedCompany(t);
    const page = await signedIn(co.companyId, 'admin', '/dashboard/keys');

    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Name', { exact: true }).fill('Usage dashboard');
    await form.getByRole('checkbox', { name: /^usage:read\b/ }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Key “Usage dashboard” created' }).waitFor();
    const secret = await page.getByLabel('Secret').inputValue();
    assert.match(secret, /^sl_/);
    await page.getByText('Scopes: usage:read').waitFor();

    const get = (path: string) =>
      fetch(`${url}${path}`, {
        headers: { authorization: `Bearer ${secret}` },
        signal: AbortSignal.timeout(STEP),
      });
    const usage = await get('/v2/usage');
    assert.equal(usage.status, 200, await usage.clone().text());
    const tags = await get('/v2/content-tags');
    assert.equal(tags.status, 403);
    assert.match(await tags.text(), /insufficient_scope/);

    // The list shows the key without its secret.
    await page.getByRole('link', { name: 'Done, back to keys' }).click();
    const row = page.getByRole('row', { name: /Usage dashboard/ });
    await row.waitFor();
    assert.match(await row.innerText(), /usage:read/);
    assert.ok(!(await page.content()).includes(secret), 'the secret is shown once only');
    await page.context().close();
  });

  test('an editor creates a rose tag; a post carries it and the posts list filters by it', async () => {
    const { t, url } = app();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const page = await signedIn(co.companyId, 'editor', '/dashboard/tags');

    const form = page.getByRole('form', { name: 'New tag' });
    await form.getByLabel('Name', { exact: true }).fill('Spring launch');
    await form.getByLabel('Color').selectOption('rose');
    await form.getByRole('button', { name: 'Create tag' }).click();
    await page.getByRole('status').filter({ hasText: 'Tag “Spring launch” created.' }).waitFor();
    await page.getByRole('rowheader', { name: 'Spring launch (rose)' }).waitFor();

    const listed = await call('GET', '/v2/content-tags');
    assert.equal(listed.status, 200);
    const tag = listed.body.data.find((x: { name: string }) => x.name === 'Spring launch');
    assert.ok(tag, JSON.stringify(listed.body));
    assert.equal(tag.color, 'rose');

    const [account] = (await makeAccounts(call, 1)) as [string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const tagged = await call('POST', '/v2/posts', {
      media: [video],
      accountIds: [account],
      caption: 'Tagged for spring',
      contentGroupIds: [`tag:${tag.tagId}`],
    });
    assert.equal(tagged.status, 201, JSON.stringify(tagged.body));
    t.clock.advance(1000);
    const plain = await call('POST', '/v2/posts', {
      media: [video],
      accountIds: [account],
      caption: 'No tag here',
    });
    assert.equal(plain.status, 201, JSON.stringify(plain.body));

    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Posts' })
      .click();
    await page.waitForURL(`${url}/dashboard/posts`);
    await page.getByRole('link', { name: 'No tag here' }).waitFor();
    const filters = page.getByRole('search', { name: 'Filter posts' });
    await filters.getByLabel('Tag').selectOption({ label: 'Spring launch' });
    await filters.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((u) => u.searchParams.get('tag') === `tag:${tag.tagId}`);
    await page.getByRole('link', { name: 'Clear filters' }).waitFor();
    // The caption is visually hidden but names the table for assistive technology.
    const table = page.getByRole('table', { name: 'Posts, newest first' });
    const rows = table.locator('tbody').getByRole('row');
    assert.equal(await rows.count(), 1);
    assert.equal(await rows.first().getAttribute('data-post'), tagged.body.postId);
    await page.getByRole('link', { name: 'Tagged for spring' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'No tag here' }).count(), 0);
    await page.context().close();
  });

  test('an admin creates a webhook endpoint, sees its secret once and disables it', async () => {
    const { t, url } = app();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const page = await signedIn(co.companyId, 'admin', '/dashboard/webhooks');
    const hookUrl = 'https://hooks.example.com/slotline';

    const form = page.getByRole('form', { name: 'New endpoint' });
    await form.getByLabel('URL').fill(hookUrl);
    await form.getByLabel(/^Description/).fill('Order system');
    await form.getByRole('checkbox', { name: /^post\.item\.posted\b/ }).check();
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByRole('heading', { name: `Endpoint ${hookUrl} created` }).waitFor();
    const secret = await page.getByLabel('Signing secret').inputValue();
    assert.match(secret, /^whsec_/);
    const [hook] = (await call('GET', '/v2/webhooks')).body.data;
    assert.equal(hook.url, hookUrl);
    assert.deepEqual(hook.events, ['post.item.posted']);

    await page.getByRole('link', { name: 'Done, open the endpoint' }).click();
    await page.waitForURL(`${url}/dashboard/webhooks/${hook.webhookId}`);
    await page.getByRole('heading', { name: `Webhook ${hookUrl}` }).waitFor();
    assert.ok(!(await page.content()).includes(secret), 'the secret is shown once only');
    await page.getByRole('button', { name: 'Disable endpoint' }).click();
    await page.getByRole('status').filter({ hasText: 'Endpoint disabled' }).waitFor();
    await page.getByRole('button', { name: 'Enable endpoint' }).waitFor();
    const after = (await call('GET', `/v2/webhooks/${hook.webhookId}`)).body;
    assert.equal(after.status, 'disabled');
    await page.context().close();
  });

  test('a worker reports its released task posted from a phone; the API shows the URL', async () => {
    const { t, url, browser } = app();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    t.clock.set('2031-05-06T10:00:00.000Z');
    const [account] = (await makeActiveAccounts(t, call, 1)) as [string];
    const upload = await readyUpload(t, call, 'image.png');
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ana', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [account]);
    const post = await call('POST', '/v2/posts', {
      media: [upload],
      accountIds: [account],
      skipApproval: true,
      caption: 'Sunset over the bay, with a caption long enough to wrap on a small phone',
      hashtags: ['#sea', '#sun'],
    });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    t.clock.set('2031-05-06T11:00:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
    const username = (await call('GET', `/v2/accounts/${account}`)).body.username as string;

    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.setDefaultNavigationTimeout(STEP);
    const noSideScroll = async (where: string) => {
      // A string, evaluated in the page: this project's types have no DOM.
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(width <= 360, `${where}: the page is ${width}px wide on a 360px screen`);
    };

    await page.goto(`${url}/dashboard/worker/tasks`);
    await page.waitForURL(`${url}/dashboard/worker/sign-in`);
    await noSideScroll('sign-in');
    await page.getByLabel('Worker token').fill(worker.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}/dashboard/worker/tasks`);
    await page.getByRole('heading', { name: 'Your tasks' }).waitFor();
    await noSideScroll('tasks');

    await page.getByRole('link', { name: new RegExp(`@${username}`) }).click();
    await page.waitForURL(/\/dashboard\/worker\/tasks\/[^/?]+$/);
    await page.getByRole('heading', { name: new RegExp(`@${username}`) }).waitFor();
    await page.waitForLoadState('load');
    await noSideScroll('task');

    const postUrl = 'https://platform-a.example/p/e2e-123';
    await page.getByLabel('Link to the published post').fill(postUrl);
    await page.getByRole('button', { name: 'Posted' }).click();
    await page.waitForURL(`${url}/dashboard/worker/tasks`);
    await page.getByRole('status').filter({ hasText: 'Reported as posted' }).waitFor();
    await page.getByText('Nothing to post right now.').waitFor();
    await noSideScroll('tasks after the report');

    const view = await call('GET', `/v2/posts/${post.body.postId}`);
    assert.equal(view.status, 200);
    const item = view.body.accounts.find((a: { accountId: string }) => a.accountId === account);
    assert.equal(item.status, 'posted');
    assert.equal(item.postUrl, postUrl);
    await context.close();
  });
});
