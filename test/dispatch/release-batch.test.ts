// Batched releases on both databases: a pass larger than one release
// transaction, the conditional move of releaseItems, and refreshPostStatuses
// agreeing with refreshPostStatus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { seedCompany } from '../helpers/app.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import {
  refreshPostStatus,
  refreshPostStatuses,
  releaseItems,
} from '../../src/modules/items/items.state.ts';
import { derivePostStatus } from '../../src/modules/items/index.ts';
import { DUE_AT, seedDueAccounts } from '../../bench/due-accounts.ts';

describeEachDialect('batched releases', (get) => {
  test('one pass over more accounts than one transaction releases each item once', async () => {
    const t = get();
    const { companyId } = await seedCompany(t, { plan: 'scale' });
    const n = 2300;
    const seeded = await seedDueAccounts(t.ctx.db, companyId, n);
    const pass = await releaseDue(t.ctx, new Date(DUE_AT));
    // Other tests' companies share the database: they have nothing queued at DUE_AT.
    assert.equal(pass.released, n);
    const releases = await t.ctx.db
      .selectFrom('releases')
      .select(['account_id', 'queue_item_id', 'released_at'])
      .where('company_id', '=', companyId)
      .execute();
    assert.equal(releases.length, n);
    assert.equal(new Set(releases.map((r) => r.account_id)).size, n, 'one release per account');
    assert.deepEqual(
      new Set(releases.map((r) => r.queue_item_id)),
      new Set(seeded.itemIds),
      'every seeded item released',
    );
    const items = await t.ctx.db
      .selectFrom('queue_items')
      .select(['status', 'released_at', 'updated_at'])
      .where('company_id', '=', companyId)
      .execute();
    assert.deepEqual(
      [...new Set(items.map((i) => `${i.status} ${i.released_at} ${i.updated_at}`))],
      [`posting ${DUE_AT} ${DUE_AT}`],
    );
    const posts = await t.ctx.db
      .selectFrom('posts')
      .select(['status', 'updated_at'])
      .where('company_id', '=', companyId)
      .execute();
    assert.deepEqual(
      [...new Set(posts.map((p) => `${p.status} ${p.updated_at}`))],
      [`posting ${DUE_AT}`],
    );
    const again = await releaseDue(t.ctx, new Date(Date.parse(DUE_AT) + 60_000));
    assert.equal(again.released, 0, 'the slot is used and nothing is queued');
  });

  test('releaseItems moves only queued items and refreshes their posts', async () => {
    const t = get();
    const { companyId } = await seedCompany(t, { plan: 'scale' });
    const seeded = await seedDueAccounts(t.ctx.db, companyId, 3);
    const [a, b, c] = seeded.itemIds as [string, string, string];
    await t.ctx.db
      .updateTable('queue_items')
      .set({ status: 'cancelled' })
      .where('id', '=', b)
      .execute();
    await refreshPostStatus(t.ctx.db, seeded.postIds[1] as string, DUE_AT);
    const at = '2026-03-04T12:31:00.000Z';
    const moved = await t.ctx.db.transaction().execute((tx) => releaseItems(tx, [a, b, c, a], at));
    assert.deepEqual(moved.map((m) => m.id).sort(), [a, c].sort());
    assert.deepEqual(
      moved.map((m) => m.postId).sort(),
      [seeded.postIds[0], seeded.postIds[2]].sort(),
    );
    const posts = await t.ctx.db
      .selectFrom('posts')
      .select(['id', 'status', 'updated_at'])
      .where('company_id', '=', companyId)
      .execute();
    const byId = new Map(posts.map((p) => [p.id, p]));
    assert.equal(byId.get(seeded.postIds[0] as string)?.status, 'posting');
    assert.equal(byId.get(seeded.postIds[0] as string)?.updated_at, at);
    assert.equal(byId.get(seeded.postIds[1] as string)?.status, 'cancelled');
    assert.equal(byId.get(seeded.postIds[2] as string)?.status, 'posting');
    assert.deepEqual(await t.ctx.db.transaction().execute((tx) => releaseItems(tx, [], at)), []);
  });

  test('refreshPostStatuses derives what refreshPostStatus derives, post by post', async () => {
    const t = get();
    const { companyId } = await seedCompany(t, { plan: 'scale' });
    // Posts of two or three items in a mix of statuses: one post per account
    // gives single-item posts, so move items onto shared posts.
    const seeded = await seedDueAccounts(t.ctx.db, companyId, 30);
    const statuses = ['queued', 'posting', 'posted', 'failed', 'cancelled', 'pending_approval'];
    const postIds = seeded.postIds.slice(0, 12);
    for (const [i, itemId] of seeded.itemIds.entries()) {
      await t.ctx.db
        .updateTable('queue_items')
        .set({
          status: statuses[(i * 7) % statuses.length] as string,
          post_id: postIds[i % postIds.length] as string,
        })
        .where('id', '=', itemId)
        .execute();
    }
    const withoutItems = seeded.postIds[29] as string;
    const all = [...postIds, withoutItems];
    await t.ctx.db.updateTable('posts').set({ status: 'draft' }).where('id', 'in', all).execute();
    const at = '2026-03-04T13:00:00.000Z';
    const got = await t.ctx.db
      .transaction()
      .execute((tx) => refreshPostStatuses(tx, [...all, ...all], at));
    assert.equal(got.size, all.length);
    const rows = await t.ctx.db
      .selectFrom('posts')
      .select(['id', 'status', 'updated_at'])
      .where('id', 'in', all)
      .execute();
    const items = await t.ctx.db
      .selectFrom('queue_items')
      .select(['post_id', 'status'])
      .where('post_id', 'in', all)
      .execute();
    const derived = new Set<string>();
    for (const row of rows) {
      const expected = derivePostStatus(items.filter((i) => i.post_id === row.id));
      derived.add(expected);
      assert.equal(row.status, expected, `post ${row.id}`);
      assert.equal(got.get(row.id), expected, `returned status of post ${row.id}`);
      assert.equal(row.updated_at, at, `post ${row.id} touched`);
      assert.equal(await refreshPostStatus(t.ctx.db, row.id, at), expected, `post ${row.id}`);
    }
    assert.ok(derived.size >= 3, `a mix of derived statuses (${[...derived].join(', ')})`);
    assert.equal(got.get(withoutItems), 'draft');
  });
});
