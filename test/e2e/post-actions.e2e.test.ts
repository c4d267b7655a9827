// Acting on posts in a real browser: the r key opens the rejection's confirmation (never
// rejects by itself), the reason typed there is shown on the post and sent in the webhook
// event; a post is cancelled for one account from its page; the caption's character count
// follows typing; the posts list's "Select all" ticks the page. Checked through the API.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { client } from '../helpers/app.ts';
import { browserMissing, useBrowserApp } from '../helpers/browser.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { outbox, seedListeningCompany } from '../helpers/webhook-events.ts';
import { violations } from '../helpers/axe.ts';
import { createUser } from '../../src/modules/users/index.ts';
import { releaseItems } from '../../src/modules/items/items.state.ts';

const missing = browserMissing();
const STEP = 15_000;

describe('post actions in a browser', { skip: missing ?? false, timeout: 180_000 }, () => {
  const app = useBrowserApp();

  test('reject with a reason by keyboard, then cancel one account of another post', async () => {
    const { t, url, browser } = app();
    const co = await seedListeningCompany(t);
    const call = client(t, co.key);
    const [a, b] = (await makeAccounts(call, 2)) as [string, string];
    const image = await readyUpload(t, call, 'image.png');
    const queued = (
      await call('POST', '/v2/posts', {
        media: [image],
        accountIds: [a, b],
        skipApproval: true,
        caption: 'Queued for two',
      })
    ).body;
    t.clock.advance(1000);
    const pending = (
      await call('POST', '/v2/posts', { media: [image], accountIds: [a], caption: 'Review me' })
    ).body;
    const { password } = await createUser(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      email: 'reviewer@e2e.example',
      role: 'editor',
    });

    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    await page.goto(`${url}/dashboard/approvals`);
    await page.getByLabel('Email').fill('reviewer@e2e.example');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard\/approvals$/);
    await page.waitForLoadState('load');

    // j then r: the confirmation, with the reason field focused; nothing rejected yet.
    await page.keyboard.press('j');
    await page.locator('.card.current').waitFor();
    await page.keyboard.press('r');
    await page.getByRole('heading', { name: 'Reject this post for 1 account?' }).waitFor();
    const reason = page.getByLabel(/^Reason/);
    await reason.waitFor();
    assert.equal(
      await page.evaluate('document.activeElement && document.activeElement.id'),
      'reject-reason',
    );
    assert.equal(
      (await call('GET', `/v2/posts/${pending.postId}`)).body.status,
      'pending_approval',
    );
    await reason.fill('Logo is cut off in the first second');
    await page.getByText('35 of 500 characters').waitFor();
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '1 rejected' }).waitFor();
    assert.equal((await call('GET', `/v2/posts/${pending.postId}`)).body.status, 'cancelled');

    await page.goto(`${url}/dashboard/posts/${pending.postId}`);
    await page.getByText('Logo is cut off in the first second').waitFor();
    await page.getByText(/Rejected by reviewer@e2e\.example/).waitFor();
    const rejected = (await outbox(t, co.companyId)).find((e) => e.type === 'post.item.rejected');
    assert.deepEqual(
      (rejected?.data as { rejection: { reason: string } }).rejection.reason,
      'Logo is cut off in the first second',
    );

    // The caption's count follows typing.
    await page.goto(`${url}/dashboard/posts/${queued.postId}`);
    // Its accounts are all on platformA: the format is not asked of it.
    await page.getByText('Change the caption, hashtags, sound, notes or tags').click();
    const caption = page.getByLabel('Caption', { exact: true });
    await caption.fill('Short');
    await page.getByText('5 of 2,200 characters').waitFor();

    // Cancel for one account: asked first, then what was cancelled.
    await page
      .getByRole('button', { name: /^Cancel… for @/ })
      .first()
      .click();
    await page.getByRole('heading', { name: /^Cancel “Queued for two” for @/ }).waitFor();
    assert.equal((await call('GET', `/v2/posts/${queued.postId}`)).body.status, 'queued');
    await page.getByRole('button', { name: /^Cancel for @/ }).click();
    await page.getByText('Cancelled for 1 account.').waitFor();
    const after = (await call('GET', `/v2/posts/${queued.postId}`)).body;
    const statuses = after.accounts.map((x: { status: string }) => x.status).sort();
    assert.deepEqual(statuses, ['cancelled', 'queued']);

    // Select all on the list's page ticks every post.
    await page.goto(`${url}/dashboard/posts`);
    await page.getByLabel('Select all on this page').check();
    await page.getByText('2 selected').waitFor();
    assert.equal(await page.locator('input[form="bulk"][name="post"]:checked').count(), 2);
    await context.close();
  });

  test('the post, list, confirmation and activity pages pass axe at both widths', async () => {
    const { t, url, browser } = app();
    const co = await seedListeningCompany(t);
    const call = client(t, co.key);
    const [a, b, c] = (await makeAccounts(call, 3)) as [string, string, string];
    const image = await readyUpload(t, call, 'image.png');
    const tag = (await call('POST', '/v2/content-tags', { name: 'Launch', color: 'amber' })).body;
    const out = (
      await call('POST', '/v2/posts', {
        media: [image],
        accountIds: [a, b],
        skipApproval: true,
        caption: 'Partly out',
        contentGroupIds: [tag.contentGroupId],
      })
    ).body;
    const item = await t.ctx.db
      .selectFrom('queue_items')
      .select('id')
      .where('post_id', '=', out.postId)
      .where('account_id', '=', b)
      .executeTakeFirstOrThrow();
    const at = t.clock.now().toISOString();
    await t.ctx.db.transaction().execute((tx) => releaseItems(tx, [item.id], at));
    const waiting = (
      await call('POST', '/v2/posts', { media: [image], accountIds: [a, c], caption: 'Waiting' })
    ).body;
    const { password } = await createUser(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      email: 'axe@e2e.example',
      role: 'admin',
    });
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
      const page = await context.newPage();
      page.setDefaultTimeout(STEP);
      await page.goto(`${url}/dashboard/posts`);
      await page.getByLabel('Email').fill('axe@e2e.example');
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${url}/dashboard/posts`);
      await page.waitForLoadState('load');
      const check = async (what: string) => {
        const serious = (await violations(page)).filter((v) => /\((serious|critical)\)/.test(v));
        assert.deepEqual(serious, [], `${what} at ${width} px`);
      };
      await check('posts list');
      await page.goto(`${url}/dashboard/posts/${waiting.postId}`);
      await page.getByText(/Change the caption/).click();
      await page.getByText(/Choose accounts/).click();
      await check('post page with its forms open');
      await page.getByRole('button', { name: 'Reject all waiting…' }).click();
      await page.getByLabel(/^Reason/).waitFor();
      await check('reject confirmation');
      await page.goto(`${url}/dashboard/posts/${out.postId}`);
      await check('post past editing');
      // The id field holds the whole id at either width, its last character included.
      const idFits = await page.evaluate<boolean>(
        "(() => { const i = document.querySelector('#post-id'); return i.value.length === 30 && i.scrollWidth <= i.clientWidth; })()",
      );
      assert.ok(idFits, `the post id is cut off at ${width} px`);
      await page.getByRole('button', { name: 'Cancel for every account…' }).click();
      await page.getByRole('heading', { name: /^Cancel “Partly out”/ }).waitFor();
      await check('cancel confirmation');
      await page.getByRole('button', { name: /^Cancel for / }).click();
      await page.getByText('Cancelled for 1 account.').waitFor();
      await check('cancel result');
      await page.goto(`${url}/dashboard/activity`);
      await check('activity');
      await context.close();
      // The second width cancels nothing more: queue the post's first account again.
      await call('POST', `/v2/posts/${out.postId}/queue`, { accountIds: [a], skipApproval: true });
    }
  });
});
