// The calendar in a real browser: a keyboard user tabs to an item and follows it to its post;
// the week and month views switch back and forth; the browser's timezone moves an item to
// another day; axe-core finds nothing serious at desktop and phone width, where the month
// becomes a list of days that never scrolls sideways.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { client, seedCompany } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { createUser } from '../../src/modules/users/index.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';

const missing = browserMissing();
/** No single browser step waits longer than this. */
const STEP = 15_000;

describe('the calendar in a browser', { skip: missing ?? false, timeout: 180_000 }, () => {
  const app = useBrowserApp();
  let seeded: { companyId: string; postId: string; username: string } | undefined;

  /** One company with an account, its worker and a post planned for Monday 11:00 UTC. */
  async function world() {
    if (seeded) return seeded;
    const { t } = app();
    t.clock.set('2031-05-05T10:00:00.000Z');
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [account] = (await makeActiveAccounts(t, call, 1)) as [string];
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ana', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [account]);
    const upload = await readyUpload(t, call, 'image.png');
    const post = await call('POST', '/v2/posts', {
      media: [upload],
      accountIds: [account],
      skipApproval: true,
      caption: 'Harbour at first light',
    });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    const username = (await call('GET', `/v2/accounts/${account}`)).body.username as string;
    seeded = { companyId: co.companyId, postId: post.body.postId as string, username };
    return seeded;
  }

  async function signedIn(options: BrowserContextOptions, path: string): Promise<Page> {
    const { t, url, browser } = app();
    const { companyId } = await world();
    const email = `cal-${Math.random().toString(36).slice(2, 8)}@e2e.example`;
    const { password } = await createUser(t.ctx.db, t.ctx.clock, {
      companyId,
      email,
      role: 'editor',
    });
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.setDefaultNavigationTimeout(STEP);
    await page.goto(`${url}${path}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${url}${path}`);
    await page.waitForLoadState('load');
    return page;
  }

  /** The local date of the day (grid cell) holding the post's item. */
  async function dayOfItem(page: Page, postId: string): Promise<string> {
    const cell = page.locator('li.cal-day', { has: page.locator(`a[href$="/posts/${postId}"]`) });
    const href = (await cell.locator('h3 a').getAttribute('href')) ?? '';
    return /date=(\d{4}-\d{2}-\d{2})/.exec(href)?.[1] ?? '';
  }

  async function noSerious(page: Page, where: string): Promise<void> {
    const found = (await violations(page)).filter((v) => /\((serious|critical)\)/.test(v));
    assert.deepEqual(found, [], `${where}: axe-core found serious problems`);
  }

  test('a keyboard user tabs to an item and follows it to the post', async () => {
    const { url } = app();
    const { postId, username } = await world();
    const page = await signedIn({ timezoneId: 'UTC' }, '/dashboard/calendar');
    const item = page.locator(`li.cal-item > a[href$="/posts/${postId}"]`);
    const name = (await item.innerText()).replace(/\s+/g, ' ');
    assert.match(name, /11:00 Planned Harbour at first light/);
    assert.ok(name.includes(`@${username}`), 'the account is in the link text');

    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press('Tab');
      // A string, evaluated in the page: this project's types have no DOM.
      reached = await page.evaluate<boolean>(
        `document.activeElement?.matches('li.cal-item > a[href$="/posts/${postId}"]') ?? false`,
      );
    }
    assert.ok(reached, 'the item is reached with the Tab key');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${url}/dashboard/posts/${postId}`);
    await page.context().close();
  });

  test('week and month switch back and forth and keep the item', async () => {
    const { url } = app();
    const { postId } = await world();
    // axe-core's script is added by the test, past the page's Content-Security-Policy.
    const page = await signedIn({ timezoneId: 'UTC', bypassCSP: true }, '/dashboard/calendar');
    const views = page.getByRole('navigation', { name: 'Calendar view' });
    assert.equal(
      await views.getByRole('link', { name: 'Week' }).getAttribute('aria-current'),
      'page',
    );
    await page.locator('ol.cal-week').waitFor();
    assert.equal(await dayOfItem(page, postId), '2031-05-05');
    await noSerious(page, 'week at desktop width');

    await views.getByRole('link', { name: 'Month' }).click();
    await page.waitForURL(/view=month/);
    await page.locator('ol.cal-month').waitFor();
    await page.getByRole('heading', { name: 'May 2031' }).waitFor();
    assert.equal(
      await views.getByRole('link', { name: 'Month' }).getAttribute('aria-current'),
      'page',
    );
    assert.equal(await dayOfItem(page, postId), '2031-05-05');
    await noSerious(page, 'month at desktop width');

    await page.getByRole('link', { name: 'Next month' }).click();
    await page.getByRole('heading', { name: 'June 2031' }).waitFor();
    assert.equal(await page.locator(`a[href$="/posts/${postId}"]`).count(), 0);
    await page.getByRole('link', { name: 'This month' }).click();
    await page.getByRole('heading', { name: 'May 2031' }).waitFor();

    await views.getByRole('link', { name: 'Week' }).click();
    await page.locator('ol.cal-week').waitFor();
    assert.equal(await dayOfItem(page, postId), '2031-05-05');
    assert.ok(!page.url().includes('view='), `back on the week: ${page.url()}`);
    assert.ok(page.url().startsWith(`${url}/dashboard/calendar`));
    await page.context().close();
  });

  test("the browser's timezone moves the item to the next day; phones get a list", async () => {
    const { postId } = await world();
    const page = await signedIn(
      {
        timezoneId: 'Pacific/Kiritimati',
        viewport: { width: 390, height: 844 },
        isMobile: true,
        bypassCSP: true,
      },
      '/dashboard/calendar?view=month',
    );
    // The first page sets the timezone cookie; the next one is laid out in it.
    await page.reload();
    await page.locator('ol.cal-month').waitFor();
    assert.equal(await dayOfItem(page, postId), '2031-05-06', 'Tuesday at UTC+14');
    const item = page.locator(`li.cal-item > a[href$="/posts/${postId}"]`);
    assert.match(await item.innerText(), /01:00/);
    assert.match(await page.locator('.cal-zone').innerText(), /Pacific\/Kiritimati/);
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(width <= 390, `the month is ${width}px wide on a 390px screen`);
    // A list of days: the quiet ones are left out, the item's day is shown.
    assert.equal(await page.locator('.cal-weekdays').isVisible(), false);
    assert.equal(await page.locator('li.cal-day').nth(14).isVisible(), false);
    assert.ok(await item.isVisible());
    await noSerious(page, 'month at phone width');
    await page.goto(page.url().replace('view=month', 'view=day&date=2031-05-06'));
    await item.waitFor();
    await noSerious(page, 'day at phone width');
    await page.context().close();
  });
});
