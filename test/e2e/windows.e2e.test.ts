// Choosing and moving windows in a real browser, each checked against the API: a post
// composed for a chosen day's window (desktop) and for one account's own window (phone) is
// planned there; on the calendar a planned post dragged onto a free window moves there, one
// dropped on a taken window is refused in words and stays; at phone width the post's Move
// link does the same without a mouse. axe-core finds nothing serious on the move page.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { violations } from '../helpers/axe.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { createUser } from '../../src/modules/users/index.ts';

const missing = browserMissing();
const STEP = 15_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const FIXTURES = new URL('../fixtures/media', import.meta.url).pathname;

describe(
  'choosing and moving windows in a browser',
  { skip: missing ?? false, timeout: 240_000 },
  () => {
    const app = useBrowserApp();

    /** A company with one active account posting at 08:00 and 14:00 UTC; Monday 10:00 UTC. */
    async function world(t: TestApp) {
      t.clock.set('2031-05-05T10:00:00.000Z');
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const [account] = (await makeActiveAccounts(t, call, 1)) as [string];
      const schedule = await call('PATCH', `/v2/accounts/${account}/schedule`, {
        schedule: { windows: ['08:00', '14:00'] },
      });
      assert.equal(schedule.status, 200, JSON.stringify(schedule.body));
      const username = (await call('GET', `/v2/accounts/${account}`)).body.username as string;
      return { co, call, account, username };
    }

    async function signedIn(
      t: TestApp,
      companyId: string,
      path: string,
      viewport: typeof DESKTOP,
      // axe-core is injected as a script, which the pages' policy refuses.
      bypassCSP = false,
    ): Promise<{ page: Page; refused: string[] }> {
      const { url, browser } = app();
      const email = `win-${Math.random().toString(36).slice(2, 8)}@e2e.example`;
      const { password } = await createUser(t.ctx.db, t.ctx.clock, {
        companyId,
        email,
        role: 'editor',
      });
      const context = await browser.newContext({ viewport, timezoneId: 'UTC', bypassCSP });
      const page = await context.newPage();
      page.setDefaultTimeout(STEP);
      page.setDefaultNavigationTimeout(STEP);
      const refused: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
      });
      page.on('pageerror', (e) => refused.push(e.message));
      await page.goto(`${url}${path}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${url}${path}`);
      await page.waitForLoadState('load');
      return { page, refused };
    }

    async function composeVideo(page: Page, username: string) {
      await page.locator('#video-file:enabled').waitFor();
      await page.getByLabel('Choose a video file').setInputFiles(`${FIXTURES}/h264-noaudio.mp4`);
      await page.getByText('Checked and ready.').waitFor({ timeout: 30_000 });
      await page.getByLabel('Caption', { exact: true }).fill('Fresh bread at dawn');
      await page.getByRole('checkbox', { name: new RegExp(`@${username}`) }).check();
      await page.getByLabel('Skip approval: queue it straight away').check();
    }

    async function slotOf(call: ReturnType<typeof client>, page: Page) {
      const postId = decodeURIComponent(page.url().split('/').pop() as string);
      const post = await call('GET', `/v2/posts/${postId}`);
      return post.body.accounts[0].scheduledSlotStart as string | undefined;
    }

    test('a post composed for a chosen day lands in that day’s first window (desktop)', async () => {
      const { t, url } = app();
      const { co, call, username } = await world(t);
      const { page, refused } = await signedIn(t, co.companyId, '/dashboard/compose', DESKTOP);
      await composeVideo(page, username);
      // The preview follows the account: its next free window is today's 14:00.
      await page.locator('[data-planned="2031-05-05T14:00:00.000Z"]').waitFor();
      await page.getByRole('radio', { name: 'On a day' }).check();
      await page.locator('#when-day').selectOption('2031-05-07');
      await page.locator('[data-planned="2031-05-07T08:00:00.000Z"]').waitFor();
      await page.getByRole('button', { name: 'Create post' }).click();
      await page.waitForURL(new RegExp(`^${url}/dashboard/posts/pst_`));
      assert.equal(await slotOf(call, page), '2031-05-07T08:00:00.000Z');
      assert.deepEqual(refused, []);
      await page.context().close();
    });

    test('a post composed for one account’s own window lands there (phone)', async () => {
      const { t, url } = app();
      const { co, call, username } = await world(t);
      const { page, refused } = await signedIn(t, co.companyId, '/dashboard/compose', PHONE);
      await composeVideo(page, username);
      const pick = page.getByLabel(`Window for @${username}`);
      await pick.locator('option[value="2031-05-06T14:00:00.000Z"]').waitFor({ state: 'attached' });
      await pick.selectOption('2031-05-06T14:00:00.000Z');
      await page.locator('[data-planned="2031-05-06T14:00:00.000Z"]').waitFor();
      const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(wide <= PHONE.width, `the composer fits the phone: ${wide}px`);
      await page.getByRole('button', { name: 'Create post' }).click();
      await page.waitForURL(new RegExp(`^${url}/dashboard/posts/pst_`));
      assert.equal(await slotOf(call, page), '2031-05-06T14:00:00.000Z');
      assert.deepEqual(refused, []);
      await page.context().close();
    });

    /** Two planned posts: "Spring menu" today at 14:00, "Behind the counter" tomorrow at 08:00. */
    async function twoPlanned(t: TestApp) {
      const w = await world(t);
      const video = await readyUpload(t, w.call, 'h264-noaudio.mp4');
      const ids: string[] = [];
      for (const caption of ['Spring menu', 'Behind the counter']) {
        const r = await w.call('POST', '/v2/posts', {
          media: [video],
          accountIds: [w.account],
          caption,
          skipApproval: true,
        });
        assert.equal(r.status, 201, JSON.stringify(r.body));
        ids.push(r.body.postId as string);
      }
      const slot = async (postId: string) =>
        (await w.call('GET', `/v2/posts/${postId}`)).body.accounts[0].scheduledSlotStart as string;
      assert.equal(await slot(ids[1] as string), '2031-05-06T08:00:00.000Z');
      return { ...w, first: ids[0] as string, second: ids[1] as string, slot };
    }

    /** Drags the post's calendar item and drops it on a window of the day `date`. */
    async function dragTo(page: Page, postId: string, date: string, slotText: string) {
      const item = page.locator('li.cal-item[draggable="true"]', {
        has: page.locator(`a[href$="/posts/${postId}"]`),
      });
      await item.hover();
      await page.mouse.down();
      const cell = page.locator(`li.cal-day[data-date="${date}"]`);
      const box = await cell.boundingBox();
      assert.ok(box);
      await page.mouse.move(box.x + box.width / 2, box.y + 10, { steps: 5 });
      const slot = cell.locator('.cal-slot', { hasText: slotText });
      await slot.waitFor();
      await slot.hover();
      await page.mouse.up();
    }

    test('on the calendar a dragged post moves to a free window, and a taken one is refused', async () => {
      const { t } = app();
      const { co, first, second, slot } = await twoPlanned(t);
      const { page, refused } = await signedIn(
        t,
        co.companyId,
        '/dashboard/calendar?date=2031-05-05',
        DESKTOP,
      );
      // Onto Monday's 14:00, which "Spring menu" holds: refused in words, nothing moves.
      await dragTo(page, second, '2031-05-05', '14:00');
      await page.locator('#cal-move-status', { hasText: 'already taken by' }).waitFor();
      assert.equal(await slot(second), '2031-05-06T08:00:00.000Z');
      // Onto Thursday's 14:00, free: it moves there, and the calendar shows it on Thursday.
      await Promise.all([
        page.waitForEvent('load'),
        dragTo(page, second, '2031-05-08', '14:00 free'),
      ]);
      assert.equal(await slot(second), '2031-05-08T14:00:00.000Z');
      assert.equal(await slot(first), '2031-05-05T14:00:00.000Z');
      await page
        .locator('li.cal-day[data-date="2031-05-08"]')
        .locator(`a[href$="/posts/${second}"]`)
        .waitFor();
      await page.getByText(/moved to Thu 8 May, 14:00/).waitFor();
      assert.deepEqual(refused, []);
      await page.context().close();
    });

    test('at phone width the Move link moves a post without a mouse', async () => {
      const { t, url } = app();
      const { co, second, slot, username } = await twoPlanned(t);
      const { page, refused } = await signedIn(
        t,
        co.companyId,
        '/dashboard/calendar?date=2031-05-05',
        PHONE,
        true,
      );
      const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(wide <= PHONE.width, `the calendar fits the phone: ${wide}px`);
      await page
        .getByRole('link', { name: `Move the 08:00 post of @${username} to another window` })
        .click();
      await page.waitForURL(new RegExp(`^${url}/dashboard/items/`));
      await page.getByRole('heading', { name: 'Move to another window' }).waitFor();
      const serious = (await violations(page)).filter((v) => /\((serious|critical)\)/.test(v));
      assert.deepEqual(serious, [], 'axe-core on the move page');
      await page.locator('button[value="2031-05-07T14:00:00.000Z"]').click();
      await page.waitForURL(new RegExp(`^${url}/dashboard/calendar`));
      assert.equal(await slot(second), '2031-05-07T14:00:00.000Z');
      assert.deepEqual(refused, []);
      await page.context().close();
    });
  },
);
