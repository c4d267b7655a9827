// Editing and cancelling posts, and deleting tags off posts, on both databases
// (SPEC 4.2 PATCH/DELETE, 3 rules 3-5, 4.3; DECISIONS 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { updateCompany } from '../../../src/modules/companies/index.ts';
import { sql } from 'kysely';
import { refreshPostStatus } from '../../../src/modules/items/items.state.ts';
import { lockPost } from '../../../src/modules/posts/posts.repository.ts';

async function setup(t: TestApp) {
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const accounts = await makeAccounts(call, 3);
  const video = await readyUpload(t, call, 'h264-aac-faststart.mp4');
  // Responses are compared whole, thumbnailUrl included: let the thumbnail exist first.
  await t.media.idle();
  const post = async (body: object = {}) => {
    const r = await call('POST', '/v2/posts', { media: [video], accountIds: accounts, ...body });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body as { postId: string; accounts: { accountId: string }[] };
  };
  return { co, call, accounts, video, post };
}

/** Stands in for the release engine: moves one account's item and refreshes the post. */
async function moveItem(
  t: TestApp,
  postId: string,
  accountId: string,
  status: 'posting' | 'posted' | 'failed',
): Promise<void> {
  const at = t.clock.now().toISOString();
  await t.ctx.db
    .updateTable('queue_items')
    .set({
      status,
      released_at: at,
      updated_at: at,
      ...(status === 'posted' ? { posted_at: at, post_url: 'https://example.com/p/1' } : {}),
      ...(status === 'failed' ? { failure_reason: 'worker reported a failure' } : {}),
    })
    .where('post_id', '=', postId)
    .where('account_id', '=', accountId)
    .execute();
  await refreshPostStatus(t.ctx.db, postId, at);
}

async function tag(call: CallFn, name: string): Promise<{ tagId: string; contentGroupId: string }> {
  const r = await call('POST', '/v2/content-tags', { name });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

/** Waits (bounded) until a session of the test database waits on a lock. */
async function waitForLockWait(t: TestApp): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const waiting = await sql<{ n: string }>`
      select count(*) as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(t.ctx.db);
    if (Number(waiting.rows[0]?.n) > 0) return;
    await new Promise((r) => setImmediate(r));
  }
}

const statusesOf = (body: { accounts: { accountId: string; status: string }[] }) =>
  Object.fromEntries(body.accounts.map((a) => [a.accountId, a.status]));

describeEachDialect('posts edit and cancel', (get) => {
  test('PATCH sets every field, null clears sound and notes, and the change is stored', async () => {
    const t = get();
    const { co, call, post } = await setup(t);
    const p = await post({ caption: 'before', sound: { mode: 'trending' }, notes: 'n' });
    const patch = await call('PATCH', `/v2/posts/${p.postId}`, {
      caption: 'after',
      hashtags: ['a', 'b'],
      sound: { mode: 'specific', url: 'https://example.com/s.mp3' },
      notes: 'new notes',
      platformBPostFormat: 'reel',
    });
    assert.equal(patch.status, 200, JSON.stringify(patch.body));
    assert.equal(patch.body.caption, 'after');
    assert.deepEqual(patch.body.hashtags, ['a', 'b']);
    assert.deepEqual(patch.body.sound, { mode: 'specific', url: 'https://example.com/s.mp3' });
    assert.equal(patch.body.notes, 'new notes');
    assert.deepEqual((await call('GET', `/v2/posts/${p.postId}`)).body, patch.body);

    const cleared = await call('PATCH', `/v2/posts/${p.postId}`, { sound: null, notes: null });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.sound, null);
    assert.equal(cleared.body.notes, null);
    assert.equal(cleared.body.caption, 'after', 'fields left out stay');
    // An empty body changes nothing.
    const same = await call('PATCH', `/v2/posts/${p.postId}`, {});
    assert.equal(same.status, 200);
    assert.deepEqual(same.body, cleared.body);
    // caption may be emptied; hashtags replaced by none.
    const emptied = await call('PATCH', `/v2/posts/${p.postId}`, { caption: '', hashtags: [] });
    assert.equal(emptied.body.caption, '');
    assert.deepEqual(emptied.body.hashtags, []);

    // platformBPostFormat "post" needs the company capability.
    assertApiError(
      await call('PATCH', `/v2/posts/${p.postId}`, { platformBPostFormat: 'post' }),
      409,
      'platformB_feed_posts_disabled',
    );
    await updateCompany(t.ctx.db, t.ctx.clock, t.config.plans, co.companyId, {
      platformBFeedPosts: true,
    });
    const feed = await call('PATCH', `/v2/posts/${p.postId}`, { platformBPostFormat: 'post' });
    assert.equal(feed.status, 200);
    assert.equal(feed.body.platformBPostFormat, 'post');
  });

  test('PATCH body bounds', async () => {
    const t = get();
    const { call, post } = await setup(t);
    const p = await post();
    const expect400 = async (body: object, pointer: string) =>
      assertApiError(await call('PATCH', `/v2/posts/${p.postId}`, body), 400, 'invalid_request', {
        startsWith: `${pointer} `,
      });
    await expect400({ caption: 'c'.repeat(2201) }, '/caption');
    await expect400({ caption: null }, '/caption');
    await expect400({ notes: 'n'.repeat(2001) }, '/notes');
    await expect400({ hashtags: Array.from({ length: 31 }, (_, i) => `h${i}`) }, '/hashtags');
    await expect400({ hashtags: null }, '/hashtags');
    await expect400({ contentGroupIds: ['bad'] }, '/contentGroupIds/0');
    await expect400(
      { contentGroupIds: Array.from({ length: 11 }, (_, i) => `tag:t${i}`) },
      '/contentGroupIds',
    );
    await expect400({ platformBPostFormat: 'story' }, '/platformBPostFormat');
    await expect400({ sound: { mode: 'specific', volume: 1 } }, '/sound/volume');
    await expect400({ priority: 3 }, '/priority');
    const ok = await call('PATCH', `/v2/posts/${p.postId}`, {
      caption: 'c'.repeat(2200),
      notes: 'n'.repeat(2000),
    });
    assert.equal(ok.status, 200);
  });

  test('metadata is editable until an item reaches posting; content groups always', async () => {
    const t = get();
    const { call, accounts, post } = await setup(t);
    const [a, b] = accounts as [string, string];
    const t1 = await tag(call, 'Edit one');
    const t2 = await tag(call, 'Edit two');
    const p = await post({ contentGroupIds: [t1.contentGroupId] });
    await moveItem(t, p.postId, a, 'posting');
    assert.equal((await call('GET', `/v2/posts/${p.postId}`)).body.status, 'posting');
    for (const body of [
      { caption: 'late' },
      { hashtags: [] },
      { sound: null },
      { notes: null },
      { platformBPostFormat: 'reel' },
      { caption: 'late', contentGroupIds: [] },
    ]) {
      assertApiError(await call('PATCH', `/v2/posts/${p.postId}`, body), 409, 'post_not_editable', {
        includes: p.postId,
      });
    }
    // The refused call with contentGroupIds changed nothing either.
    assert.deepEqual((await call('GET', `/v2/posts/${p.postId}`)).body.contentGroupIds, [
      t1.contentGroupId,
    ]);
    const tagged = await call('PATCH', `/v2/posts/${p.postId}`, {
      contentGroupIds: [t2.contentGroupId, t1.contentGroupId],
    });
    assert.equal(tagged.status, 200, JSON.stringify(tagged.body));
    assert.deepEqual(tagged.body.contentGroupIds, [t1.contentGroupId, t2.contentGroupId]);

    // After publishing too.
    await moveItem(t, p.postId, a, 'posted');
    await moveItem(t, p.postId, b, 'posted');
    const after = await call('PATCH', `/v2/posts/${p.postId}`, { contentGroupIds: [] });
    assert.equal(after.status, 200);
    assert.deepEqual(after.body.contentGroupIds, []);
    assertApiError(
      await call('PATCH', `/v2/posts/${p.postId}`, { caption: 'x' }),
      409,
      'post_not_editable',
    );
    // An item that failed after release still blocks edits (DECISIONS 2).
    const q = await post();
    await moveItem(t, q.postId, a, 'failed');
    assertApiError(
      await call('PATCH', `/v2/posts/${q.postId}`, { caption: 'x' }),
      409,
      'post_not_editable',
    );
  });

  test('contentGroupIds: replaced, unknown and template groups refused, provenance kept', async () => {
    const t = get();
    const { co, call, post } = await setup(t);
    const t1 = await tag(call, 'Group one');
    const t2 = await tag(call, 'Group two');
    const p = await post({ contentGroupIds: [t1.contentGroupId] });
    await t.ctx.db
      .insertInto('post_content_groups')
      .values({
        post_id: p.postId,
        company_id: co.companyId,
        group_id: 'template:tpl_x',
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    const url = `/v2/posts/${p.postId}`;
    assert.deepEqual((await call('GET', url)).body.contentGroupIds, [
      'template:tpl_x',
      t1.contentGroupId,
    ]);
    const replaced = await call('PATCH', url, { contentGroupIds: [t2.contentGroupId] });
    assert.deepEqual(replaced.body.contentGroupIds, ['template:tpl_x', t2.contentGroupId]);
    const cleared = await call('PATCH', url, { contentGroupIds: [] });
    assert.deepEqual(cleared.body.contentGroupIds, ['template:tpl_x']);
    // The provenance may be sent back as read; it cannot be added or removed.
    const echoed = await call('PATCH', url, {
      contentGroupIds: ['template:tpl_x', t1.contentGroupId, t1.contentGroupId],
    });
    assert.equal(echoed.status, 200, JSON.stringify(echoed.body));
    assert.deepEqual(echoed.body.contentGroupIds, ['template:tpl_x', t1.contentGroupId]);
    assertApiError(
      await call('PATCH', url, { contentGroupIds: ['template:tpl_other'] }),
      400,
      'invalid_request',
      { startsWith: '/contentGroupIds/0' },
    );
    assertApiError(
      await call('PATCH', url, { contentGroupIds: [t2.contentGroupId, 'tag:tag_nope'] }),
      400,
      'tag_not_found',
      { startsWith: '/contentGroupIds/1' },
    );
    // Another company's tag is unknown here.
    const other = client(t, (await seedCompany(t)).key);
    const foreign = await tag(other, 'Foreign');
    assertApiError(
      await call('PATCH', url, { contentGroupIds: [foreign.contentGroupId] }),
      400,
      'tag_not_found',
    );
    assert.deepEqual((await call('GET', url)).body.contentGroupIds, [
      'template:tpl_x',
      t1.contentGroupId,
    ]);
  });

  test('archived tags: kept where they are, not assignable anew, restorable', async () => {
    const t = get();
    const { call, post } = await setup(t);
    const old = await tag(call, 'Archived');
    const live = await tag(call, 'Live');
    const p = await post({ contentGroupIds: [old.contentGroupId] });
    const q = await post();
    assert.equal(
      (await call('PATCH', `/v2/content-tags/${old.tagId}`, { archived: true })).status,
      200,
    );
    // Existing attribution stays, in reads and lists.
    assert.deepEqual((await call('GET', `/v2/posts/${p.postId}`)).body.contentGroupIds, [
      old.contentGroupId,
    ]);
    const listed = await call('GET', `/v2/posts?contentGroupId=${old.contentGroupId}`);
    assert.deepEqual(
      listed.body.data.map((x: { postId: string }) => x.postId),
      [p.postId],
    );
    // Kept while other tags change around it.
    const kept = await call('PATCH', `/v2/posts/${p.postId}`, {
      contentGroupIds: [old.contentGroupId, live.contentGroupId],
    });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.deepEqual(kept.body.contentGroupIds, [old.contentGroupId, live.contentGroupId]);
    // Not assignable to a post that lacks it.
    assertApiError(
      await call('PATCH', `/v2/posts/${q.postId}`, { contentGroupIds: [old.contentGroupId] }),
      400,
      'invalid_request',
      { includes: 'archived' },
    );
    // Once removed it cannot come back while archived; restoring allows it again.
    await call('PATCH', `/v2/posts/${p.postId}`, { contentGroupIds: [live.contentGroupId] });
    assertApiError(
      await call('PATCH', `/v2/posts/${p.postId}`, { contentGroupIds: [old.contentGroupId] }),
      400,
      'invalid_request',
    );
    await call('PATCH', `/v2/content-tags/${old.tagId}`, { archived: false });
    const back = await call('PATCH', `/v2/posts/${q.postId}`, {
      contentGroupIds: [old.contentGroupId],
    });
    assert.equal(back.status, 200);
    assert.deepEqual(back.body.contentGroupIds, [old.contentGroupId]);
  });

  test('DELETE cancels open items, skips the others with reasons, never deletes posted items', async () => {
    const t = get();
    const { call, accounts, post } = await setup(t);
    const [a, b, c] = accounts as [string, string, string];
    const p = await post();
    await moveItem(t, p.postId, a, 'posting');
    await moveItem(t, p.postId, b, 'posted');
    const res = await call('DELETE', `/v2/posts/${p.postId}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.cancellation, {
      cancelled: [c],
      skipped: [
        { accountId: a, reason: 'currently_posting' },
        { accountId: b, reason: 'already_posted' },
      ],
    });
    assert.deepEqual(statusesOf(res.body), { [a]: 'posting', [b]: 'posted', [c]: 'cancelled' });
    assert.equal(res.body.status, 'posting');
    const { cancellation: _c, ...asPost } = res.body;
    assert.deepEqual((await call('GET', `/v2/posts/${p.postId}`)).body, asPost);
    // Nothing left to cancel.
    assertApiError(await call('DELETE', `/v2/posts/${p.postId}`), 409, 'post_not_cancellable', {
      includes: 'currently_posting',
    });
    // The posting item ends; the posted item and its history stay.
    await moveItem(t, p.postId, a, 'failed');
    const rows = await t.ctx.db
      .selectFrom('queue_items')
      .select(['account_id', 'status', 'post_url'])
      .where('post_id', '=', p.postId)
      .execute();
    assert.equal(rows.length, 3);
    assert.equal(rows.find((r) => r.account_id === b)?.post_url, 'https://example.com/p/1');
    assert.equal((await call('GET', `/v2/posts/${p.postId}`)).body.status, 'partially_posted');
    const again = await call('DELETE', `/v2/posts/${p.postId}?accountId=${a}`);
    assertApiError(again, 409, 'post_not_cancellable', { includes: 'already_failed' });
  });

  test('a release racing a cancel: the released item is skipped as currently_posting, no deadlock', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const [a, b] = accounts as [string, string];
    const p = (
      await call('POST', '/v2/posts', { media: [video], accountIds: [a, b], skipApproval: true })
    ).body;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let moved = () => {};
    const itemMoved = new Promise<void>((resolve) => (moved = resolve));
    // What the dispatcher does: move one queued item, then refresh the post, in one transaction.
    const dispatcher = t.ctx.db.transaction().execute(async (tx) => {
      const at = t.clock.now().toISOString();
      await tx
        .updateTable('queue_items')
        .set({ status: 'posting', released_at: at, updated_at: at })
        .where('post_id', '=', p.postId)
        .where('account_id', '=', b)
        .where('status', '=', 'queued')
        .execute();
      moved();
      await gate;
      await refreshPostStatus(tx, p.postId, at);
    });
    await itemMoved;
    const cancel = call('DELETE', `/v2/posts/${p.postId}`);
    // Let the cancel reach the released item's row lock before the release commits.
    if (t.dialect === 'postgres') await waitForLockWait(t);
    release();
    await dispatcher;
    const res = await cancel;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.cancellation, {
      cancelled: [a],
      skipped: [{ accountId: b, reason: 'currently_posting' }],
    });
    assert.deepEqual(statusesOf(res.body), { [a]: 'cancelled', [b]: 'posting' });
    assert.equal(res.body.status, 'posting');
    const row = await t.ctx.db
      .selectFrom('posts')
      .select('status')
      .where('id', '=', p.postId)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'posting');
  });

  test('a queue call reviving an item while a cancel runs: neither waits on the other in a cycle', async () => {
    const t = get();
    const { co, call, accounts, video } = await setup(t);
    const [a, b] = accounts as [string, string];
    const p = (await call('POST', '/v2/posts', { media: [video], accountIds: [a, b] })).body;
    assert.equal((await call('DELETE', `/v2/posts/${p.postId}?accountId=${b}`)).status, 200);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = () => {};
    const postHeld = new Promise<void>((resolve) => (held = resolve));
    // What queueing again does: hold the post, then revive the cancelled item and refresh.
    // The cancel starts in between and waits for the post; had it locked the cancelled
    // item as well, the revival would wait for the cancel: a cycle.
    const queue = t.ctx.db.transaction().execute(async (tx) => {
      const at = t.clock.now().toISOString();
      await lockPost(tx, co.companyId, p.postId);
      held();
      await gate;
      await tx
        .updateTable('queue_items')
        .set({ status: 'pending_approval', updated_at: at })
        .where('post_id', '=', p.postId)
        .where('account_id', '=', b)
        .execute();
      await refreshPostStatus(tx, p.postId, at);
    });
    await postHeld;
    const cancel = call('DELETE', `/v2/posts/${p.postId}`);
    if (t.dialect === 'postgres') await waitForLockWait(t);
    release();
    await queue;
    const res = await cancel;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    if (t.dialect === 'postgres') {
      // The cancel read the items before the revival committed.
      assert.deepEqual(res.body.cancellation, {
        cancelled: [a],
        skipped: [{ accountId: b, reason: 'already_cancelled' }],
      });
      assert.deepEqual(statusesOf(res.body), { [a]: 'cancelled', [b]: 'pending_approval' });
      assert.equal(res.body.status, 'pending_approval');
    } else {
      // One writer at a time: the cancel runs after the revival and takes it too.
      assert.deepEqual(res.body.cancellation, { cancelled: [a, b], skipped: [] });
      assert.equal(res.body.status, 'cancelled');
    }
  });

  test('DELETE of a whole pending post, then reasons already_cancelled; queue again after', async () => {
    const t = get();
    const { call, accounts, post } = await setup(t);
    const p = await post({ skipApproval: true });
    const res = await call('DELETE', `/v2/posts/${p.postId}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'cancelled');
    assert.deepEqual(res.body.cancellation.cancelled, accounts);
    assert.deepEqual(res.body.cancellation.skipped, []);
    const twice = await call('DELETE', `/v2/posts/${p.postId}`);
    assertApiError(twice, 409, 'post_not_cancellable', { includes: 'already_cancelled' });
    // Cancelled items may be queued again (SPEC 4.2 queue).
    const requeued = await call('POST', `/v2/posts/${p.postId}/queue`, {
      accountIds: [accounts[0]],
    });
    assert.equal(requeued.status, 201, JSON.stringify(requeued.body));
    assert.equal(requeued.body.status, 'pending_approval');
  });

  test('DELETE with accountId cancels that account only; other accounts are 404', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const [a, b, c] = accounts as [string, string, string];
    const created = await call('POST', '/v2/posts', { media: [video], accountIds: [a, b] });
    const p = created.body;
    const one = await call('DELETE', `/v2/posts/${p.postId}?accountId=${b}`);
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.deepEqual(one.body.cancellation, { cancelled: [b], skipped: [] });
    assert.deepEqual(statusesOf(one.body), { [a]: 'pending_approval', [b]: 'cancelled' });
    assert.equal(one.body.status, 'pending_approval');
    assertApiError(
      await call('DELETE', `/v2/posts/${p.postId}?accountId=${b}`),
      409,
      'post_not_cancellable',
      { includes: 'already_cancelled' },
    );
    // An account of the company the post is not queued for, an unknown one, another company's.
    const other = await setup(t);
    for (const id of [c, 'acc_nope', other.accounts[0] as string]) {
      assertApiError(
        await call('DELETE', `/v2/posts/${p.postId}?accountId=${id}`),
        404,
        'account_not_found',
        { includes: id },
      );
    }
    await moveItem(t, p.postId, a, 'posting');
    const busy = await call('DELETE', `/v2/posts/${p.postId}?accountId=${a}`);
    assertApiError(busy, 409, 'post_not_cancellable', { includes: 'currently_posting' });
    assertApiError(
      await call('DELETE', `/v2/posts/${p.postId}?accountId=`),
      400,
      'invalid_request',
      { includes: 'accountId' },
    );
    assertApiError(
      await call('DELETE', `/v2/posts/${p.postId}?account=${a}`),
      400,
      'invalid_request',
    );
  });

  test('DELETE of a draft is post_not_cancellable', async () => {
    const t = get();
    const { call, post } = await setup(t);
    const p = await post();
    await t.ctx.db.deleteFrom('queue_items').where('post_id', '=', p.postId).execute();
    await refreshPostStatus(t.ctx.db, p.postId, t.clock.now().toISOString());
    assertApiError(await call('DELETE', `/v2/posts/${p.postId}`), 409, 'post_not_cancellable', {
      includes: 'no queue items',
    });
    // Drafts stay editable.
    assert.equal((await call('PATCH', `/v2/posts/${p.postId}`, { caption: 'd' })).status, 200);
  });

  test('cancelling a carousel while it renders: items stay cancelled after rendering', async () => {
    const t = get();
    const { call, accounts } = await setup(t);
    const img = await readyUpload(t, call, 'image.png');
    const img2 = await readyUpload(t, call, 'image.jpg');
    const slide = (image: string) => ({
      image,
      textElements: [{ content: 'Hi', style: { positionY: 30 } }],
    });
    // Hold the media work back so the slides cannot finish before the cancel.
    const release = t.media.hold();
    const r = await call('POST', '/v2/posts', {
      media: [img, img2],
      accountIds: accounts.slice(0, 2),
      slides: [slide(img), slide(img2)],
      skipApproval: true,
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.status, 'processing');
    const res = await call('DELETE', `/v2/posts/${r.body.postId}`);
    release();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.cancellation.cancelled, accounts.slice(0, 2));
    assert.equal(res.body.status, 'cancelled');
    await t.media.idle();
    const after = await call('GET', `/v2/posts/${r.body.postId}`);
    assert.equal(after.body.status, 'cancelled');
    assert.ok(after.body.media.thumbnailUrl, 'the slides were still rendered');
    assert.deepEqual(Object.values(statusesOf(after.body)), ['cancelled', 'cancelled']);
  });

  test('deleting a tag removes it from every post and counts them; other companies untouched', async () => {
    const t = get();
    const { call, post } = await setup(t);
    const doomed = await tag(call, 'Doomed');
    const stays = await tag(call, 'Stays');
    const p1 = await post({ contentGroupIds: [doomed.contentGroupId, stays.contentGroupId] });
    const p2 = await post({ contentGroupIds: [doomed.contentGroupId] });
    const p3 = await post({ contentGroupIds: [stays.contentGroupId] });
    // An archived tag is deleted off posts just the same.
    await call('PATCH', `/v2/content-tags/${doomed.tagId}`, { archived: true });
    const del = await call('DELETE', `/v2/content-tags/${doomed.tagId}`);
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.deepEqual(del.body, { tagId: doomed.tagId, updatedPosts: 2 });
    const groups = async (id: string) =>
      (await call('GET', `/v2/posts/${id}`)).body.contentGroupIds as string[];
    assert.deepEqual(await groups(p1.postId), [stays.contentGroupId]);
    assert.deepEqual(await groups(p2.postId), []);
    assert.deepEqual(await groups(p3.postId), [stays.contentGroupId]);
    const untagged = await call('GET', '/v2/posts?contentGroupId=untagged');
    assert.deepEqual(
      untagged.body.data.map((x: { postId: string }) => x.postId),
      [p2.postId],
    );
    const byDoomed = await call('GET', `/v2/posts?contentGroupId=${doomed.contentGroupId}`);
    assert.deepEqual(byDoomed.body.data, []);
    // A tag on no post reports 0.
    const unused = await tag(call, 'Unused');
    assert.equal((await call('DELETE', `/v2/content-tags/${unused.tagId}`)).body.updatedPosts, 0);
  });

  test('another company’s post is not found for PATCH and DELETE, and stays unchanged', async () => {
    const t = get();
    const { call, post } = await setup(t);
    const other = client(t, (await seedCompany(t)).key);
    const p = await post({ caption: 'mine' });
    assertApiError(
      await other('PATCH', `/v2/posts/${p.postId}`, { caption: 'theirs' }),
      404,
      'post_not_found',
    );
    assertApiError(await other('DELETE', `/v2/posts/${p.postId}`), 404, 'post_not_found');
    assertApiError(
      await call('PATCH', '/v2/posts/pst_nope', { caption: 'x' }),
      404,
      'post_not_found',
    );
    assertApiError(await call('DELETE', '/v2/posts/pst_nope'), 404, 'post_not_found');
    const got = await call('GET', `/v2/posts/${p.postId}`);
    assert.equal(got.body.caption, 'mine');
    assert.equal(got.body.status, 'pending_approval');
  });
});
