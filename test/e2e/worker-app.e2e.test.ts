// The workers' app in a real browser at phone width (390 x 844): a worker signs in with a
// one-time link, sets a new account up (warm-up, then active), posts a released task with
// its URL and a screenshot file, enters the post's figures and the account's; the API shows
// each report. Every page on the way is checked with axe-core (WCAG 2 A and AA rules) and
// must not scroll sideways; a form never sends twice while its answer is on the way.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Request } from 'playwright-core';
import { client, seedCompany } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp, waitInPage } from '../helpers/browser.ts';
import { makeAccounts, makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import {
  assignAccounts,
  createWorker,
  createWorkerSignInLink,
} from '../../src/modules/workers/index.ts';

const missing = browserMissing();
const STEP = 15_000;
const SCREENSHOT = fileURLToPath(new URL('../fixtures/media/image.png', import.meta.url));
const PHONE = { width: 390, height: 844 };

describe('workers app in a browser', { skip: missing ?? false, timeout: 240_000 }, () => {
  const app = useBrowserApp();

  test('link sign-in, set-up, posting with a screenshot, figures: every page accessible', async () => {
    const { t, url, browser } = app();
    t.clock.set('2031-09-02T10:00:00.000Z');
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [fresh] = (await makeAccounts(call, 1)) as [string];
    const [ready] = (await makeActiveAccounts(t, call, 1)) as [string];
    const upload = await readyUpload(t, call, 'image.png');
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ana', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [fresh, ready]);
    const post = await call('POST', '/v2/posts', {
      media: [upload],
      accountIds: [ready],
      skipApproval: true,
      caption: 'Sunset over the bay, with a caption long enough to wrap on a small phone screen',
      hashtags: ['sea', '#sun'],
    });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    t.clock.set('2031-09-02T11:00:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
    const name = async (id: string) =>
      (await call('GET', `/v2/accounts/${id}`)).body.username as string;
    const [freshName, readyName] = [await name(fresh), await name(ready)];
    const link = await createWorkerSignInLink(
      t.ctx.db,
      t.ctx.clock,
      worker.workerId,
      t.config.publicUrl,
    );

    // The axe script is added by the test, so the pages' own policy is bypassed for it alone.
    const context = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      bypassCSP: true,
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.setDefaultNavigationTimeout(STEP);
    const checked: string[] = [];
    const check = async (label: string) => {
      await page.waitForLoadState('load');
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(width <= PHONE.width, `${label} scrolls sideways on a phone (${width} px)`);
      assert.deepEqual(await violations(page), [], label);
      checked.push(label);
    };
    const status = (text: string | RegExp) =>
      page.getByRole('status').filter({ hasText: text }).waitFor();

    // 1. The link opens a page with one button; the button signs the phone in.
    await page.goto(link.url);
    await page.getByRole('heading', { name: 'Sign in on this phone' }).waitFor();
    await check('link');
    await page.getByRole('button', { name: 'Sign in on this phone' }).click();
    await page.waitForURL(`${url}/dashboard/worker/tasks`);
    await status('Signed in as Ana.');
    await check('tasks');
    await page.goto(link.url);
    await page.getByRole('heading', { name: 'This sign-in link cannot be used' }).waitFor();
    await check('spent link');

    // 2. The new account: its profile to copy, the warm-up with its terms, then active.
    await page.goto(`${url}/dashboard/worker/tasks`);
    await page.getByRole('link', { name: new RegExp(`@${freshName}.*Not set up yet`) }).click();
    await page.getByRole('heading', { name: 'Set up the profile' }).waitFor();
    await check('account set-up');
    await page.getByRole('button', { name: 'Copy username' }).click();
    await status('Username copied.');
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), freshName);
    // A reason the browser would insist on is left blank, to see the server's answer.
    await page.getByText('Lost access to this account?').click();
    await page.evaluate(
      "document.querySelectorAll('form').forEach((f) => { f.noValidate = true; })",
    );
    await page.getByRole('button', { name: 'Report disconnected' }).click();
    await page.getByText('Say why the account is disconnected').waitFor();
    await check('account with an error');
    await page.getByRole('button', { name: 'Profile is set up: start the warm-up' }).click();
    await status(`@${freshName} is warming up.`);
    await page.getByRole('heading', { name: 'Warm-up' }).waitFor();
    await page.getByRole('button', { name: 'Copy “cooking”' }).click();
    await status('“cooking” copied.');
    await check('account warming up');
    await page.getByRole('button', { name: 'Warm-up done: ready to post' }).click();
    await status(`@${freshName} is ready to post.`);
    assert.equal((await call('GET', `/v2/accounts/${fresh}`)).body.status, 'active');

    // 3. The released task: the photo itself, the text to copy, the report with a file.
    await page
      .getByRole('navigation', { name: 'Worker app' })
      .getByRole('link', { name: 'Tasks' })
      .click();
    await page.getByRole('link', { name: new RegExp(`@${readyName}.*New`) }).click();
    await page.waitForURL(/\/dashboard\/worker\/tasks\/[^/?]+$/);
    await waitInPage(page, "document.querySelector('.wslides img')?.naturalWidth > 0");
    await check('task');
    await page.getByRole('button', { name: 'Copy hashtags' }).click();
    await status('Hashtags copied.');
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), '#sea #sun');
    const postUrl = 'https://platform-a.example/p/e2e-123';
    await page.getByLabel('Link to the published post').fill(postUrl);
    await page.getByLabel('Screenshot of the post (optional)').setInputFiles(SCREENSHOT);
    await page.getByRole('button', { name: 'Posted' }).click();
    await page.waitForURL(`${url}/dashboard/worker/tasks`);
    await status('Reported as posted. Thank you.');
    await page.getByText('Nothing to post right now.').waitFor();
    await check('tasks after the report');
    const view = await call('GET', `/v2/posts/${post.body.postId}/deliveries`);
    assert.equal(view.body.deliveries[0].status, 'posted');
    assert.equal(view.body.deliveries[0].postUrl, postUrl);
    assert.ok(view.body.deliveries[0].proofScreenshotUrl, 'the screenshot went with the report');

    // 4. The post's figures: the form is sent once, however often it is pressed.
    await page.getByRole('link', { name: new RegExp(`@${readyName}.*Posted`) }).click();
    await waitInPage(page, "document.querySelector('img.wproof')?.naturalWidth > 0");
    await check('posted task');
    for (const [label, value] of [
      ['Views', '12,500'],
      ['Likes', '830'],
      ['Comments', '41'],
      ['Shares', '12'],
      ['Saves', '7'],
    ] as const) {
      await page.getByLabel(label, { exact: true }).fill(value);
    }
    const sent: Request[] = [];
    let letThrough = () => {};
    const held = new Promise<void>((resolve) => (letThrough = resolve));
    await page.route('**/figures', async (route) => {
      sent.push(route.request());
      await held;
      await route.continue();
    });
    // Pressed in the page, then pressed again (a second tap, Enter) while the answer is on
    // its way; the page's state is read from the same script, as the held answer keeps the
    // navigation pending.
    const state = await page.evaluate<[boolean, string]>(`new Promise((resolve) => {
      const form = document.querySelector('form.wfigures');
      const button = form.querySelector('button[type=submit]');
      button.click();
      setTimeout(() => {
        const seen = [button.disabled, button.textContent];
        form.requestSubmit();
        button.click();
        resolve(seen);
      }, 50);
    })`);
    assert.deepEqual(state, [true, 'Sending…']);
    letThrough();
    await status('Figures saved: 12,500 views.');
    assert.equal(sent.length, 1, 'one request for one form');
    await page.unroute('**/figures');
    await check('posted task with figures');
    const analytics = await call('GET', `/v2/posts/${post.body.postId}/analytics`);
    assert.equal(analytics.body.summary.views, 12500);

    // 5. The account's figures.
    await page
      .getByRole('navigation', { name: 'Worker app' })
      .getByRole('link', { name: 'Accounts' })
      .click();
    await page.getByRole('heading', { name: 'Your accounts' }).waitFor();
    await check('accounts');
    await page.getByRole('link', { name: new RegExp(`@${readyName}`) }).click();
    await page.getByRole('heading', { name: 'Account figures' }).waitFor();
    const figures: [string, string][] = [
      ['Followers', '15300'],
      ['Posts', '48'],
      ['Engagement rate (%)', '4.25'],
      ['Views', '250000'],
      ['Likes', '18000'],
      ['Comments', '900'],
      ['Posts these figures cover', '12'],
    ];
    for (const [label, value] of figures) {
      await page.getByLabel(label, { exact: true }).fill(value);
    }
    await page.getByRole('button', { name: 'Save account figures' }).click();
    await status('Account figures saved.');
    await check('account with figures');
    const stats = await call('GET', `/v2/accounts/${ready}/analytics`);
    assert.equal(stats.body.followers, 15300);
    assert.equal(stats.body.engagement, 4.25);

    // The same app at desktop width: a centred column, still clean.
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(`${url}/dashboard/worker/tasks`);
    assert.deepEqual(await violations(page), [], 'tasks at desktop width');
    assert.equal(checked.length, 12);
    await context.close();

    // The same pages under their own Content-Security-Policy: media from the signed URLs,
    // the manifest and its icons load, and nothing is refused.
    const strict = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const refused: string[] = [];
    await strict.exposeBinding('__reportViolation', (_source, text: string) => refused.push(text));
    await strict.addInitScript(
      `document.addEventListener('securitypolicyviolation', (e) => window.__reportViolation(
        e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' in ' + e.documentURI));`,
    );
    strict.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
    });
    const phone = await strict.newPage();
    phone.setDefaultTimeout(STEP);
    const again = await createWorkerSignInLink(
      t.ctx.db,
      t.ctx.clock,
      worker.workerId,
      t.config.publicUrl,
    );
    await phone.goto(again.url);
    await phone.getByRole('button', { name: 'Sign in on this phone' }).click();
    await phone.waitForURL(`${url}/dashboard/worker/tasks`);
    const manifest = await phone.evaluate<number>(
      "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.status)",
    );
    assert.equal(manifest, 200);
    await phone.getByRole('link', { name: new RegExp(`@${readyName}.*Posted`) }).click();
    await waitInPage(phone, "document.querySelector('img.wproof')?.naturalWidth > 0");
    await phone.goto(`${url}/dashboard/worker/accounts/${fresh}`);
    await phone.waitForLoadState('load');
    assert.deepEqual(refused, [], 'no request refused by the policy');
    await strict.close();
  });
});
