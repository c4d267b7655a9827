// POST /v2/posts on both databases: the response is the post as a later read
// shows it, and the daily posts cap and the post credits stay exact when
// creates run concurrently (on SQLite they share commits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError, planWith, writePlansFile } from '../../helpers/api-error.ts';
import { makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { companyRows } from '../../helpers/rows-left.ts';

const PLANS = writePlansFile({
  five_per_day: planWith({ postsPerDay: 5 }),
  three_credits: planWith({ postCredits: 3 }),
  two_of_each: planWith({ postsPerDay: 2, postCredits: 2 }),
  seven_per_day: planWith({ postsPerDay: 7 }),
});

async function setup(t: TestApp, plan: string, accounts = 3) {
  const co = await seedCompany(t, { plan });
  const call = client(t, co.key);
  const accountIds = await makeAccounts(call, accounts);
  const video = await readyUpload(t, call, 'h264-aac-faststart.mp4');
  await t.media.idle();
  return { co, call, accountIds, video };
}

async function counts(t: TestApp, companyId: string) {
  const count = (table: 'posts' | 'queue_items') => companyRows(t.ctx.db, table, companyId);
  return { posts: await count('posts'), items: await count('queue_items') };
}

async function usage(call: CallFn) {
  const u = (await call('GET', '/v2/usage')).body;
  return { today: u.postsCreatedToday, credits: u.postCredits.used };
}

describeEachDialect(
  'post creation',
  (get) => {
    test('the create response is the post exactly as it is read back', async () => {
      const t = get();
      const { call, accountIds, video } = await setup(t, 'starter');
      const first = (await call('POST', '/v2/content-tags', { name: 'First' })).body;
      const second = (await call('POST', '/v2/content-tags', { name: 'Second' })).body;
      for (const skipApproval of [false, true]) {
        const created = await call('POST', '/v2/posts', {
          media: [video],
          accountIds: [...accountIds].reverse(),
          caption: 'Read me back',
          hashtags: ['a', 'b'],
          sound: { mode: 'original' },
          notes: 'n',
          priority: 2,
          skipApproval,
          // Listed out of order: the response orders groups as reads do.
          contentGroupIds: [second.contentGroupId, first.contentGroupId, second.contentGroupId],
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.ok(created.body.media.thumbnailUrl, 'the ready thumbnail is signed');
        assert.equal(created.body.status, skipApproval ? 'queued' : 'pending_approval');
        const read = await call('GET', `/v2/posts/${created.body.postId}`);
        assert.equal(read.status, 200);
        assert.deepEqual(created.body, read.body);
      }
    });

    test('the daily posts cap counts queue items, and a refused create writes nothing', async () => {
      const t = get();
      const { co, call, accountIds, video } = await setup(t, 'five_per_day');
      const create = (n: number) =>
        call('POST', '/v2/posts', { media: [video], accountIds: accountIds.slice(0, n) });
      assert.equal((await create(2)).status, 201);
      assert.equal((await create(2)).status, 201);
      const capped = await create(2);
      assertApiError(capped, 429, 'rate_limited', { includes: 'posts' });
      assert.ok(Number(capped.headers['retry-after']) > 0);
      assert.deepEqual(await counts(t, co.companyId), { posts: 2, items: 4 });
      assert.deepEqual(await usage(call), { today: 4, credits: 4 });
      assert.equal((await create(1)).status, 201);
      assertApiError(await create(1), 429, 'rate_limited');
      assert.deepEqual(await counts(t, co.companyId), { posts: 3, items: 5 });
      assert.deepEqual(await usage(call), { today: 5, credits: 5 });
    });

    test('a tag deleted while posts are being created never stays on any post', async () => {
      const t = get();
      const { co, call, accountIds, video } = await setup(t, 'starter', 1);
      for (let round = 0; round < 3; round++) {
        const tag = (await call('POST', '/v2/content-tags', { name: `Racing ${round}` })).body;
        const creates = Array.from({ length: 12 }, () =>
          call('POST', '/v2/posts', {
            media: [video],
            accountIds,
            contentGroupIds: [tag.contentGroupId],
          }),
        );
        const [deleted, ...created] = await Promise.all([
          call('DELETE', `/v2/content-tags/${tag.tagId}`),
          ...creates,
        ]);
        assert.equal(deleted?.status, 200, JSON.stringify(deleted?.body));
        for (const r of created) {
          if (r.status === 201) continue;
          assertApiError(r, 400, 'tag_not_found');
        }
        const left = await t.ctx.db
          .selectFrom('post_content_groups')
          .select('post_id')
          .where('company_id', '=', co.companyId)
          .where('group_id', '=', tag.contentGroupId)
          .execute();
        assert.deepEqual(left, [], 'no post keeps the deleted tag');
      }
    });

    test('post credits are refused after the daily cap let the items through', async () => {
      const t = get();
      const { co, call, accountIds, video } = await setup(t, 'three_credits');
      const first = await call('POST', '/v2/posts', { media: [video], accountIds });
      assert.equal(first.status, 201);
      const refused = await call(
        'POST',
        '/v2/posts',
        { media: [video], accountIds: accountIds.slice(0, 1) },
        { 'idempotency-key': 'after-credits' },
      );
      assertApiError(refused, 429, 'quota_exceeded');
      assert.deepEqual(await counts(t, co.companyId), { posts: 1, items: 3 });
      assert.deepEqual(await usage(call), { today: 3, credits: 3 });
      // The refused request did not keep its key.
      const keys = await t.ctx.db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('company_id', '=', co.companyId)
        .execute();
      assert.deepEqual(keys, []);
    });

    test('with both caps reached, the daily cap is the one reported', async () => {
      const t = get();
      const { call, accountIds, video } = await setup(t, 'two_of_each');
      const create = (n: number) =>
        call('POST', '/v2/posts', { media: [video], accountIds: accountIds.slice(0, n) });
      assertApiError(await create(3), 429, 'rate_limited');
      assert.equal((await create(2)).status, 201);
      assertApiError(await create(1), 429, 'rate_limited');
      assert.deepEqual(await usage(call), { today: 2, credits: 2 });
    });

    test('concurrent creates never pass the cap, and each is all or nothing', async () => {
      const t = get();
      const { co, call, accountIds, video } = await setup(t, 'seven_per_day', 1);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          call(
            'POST',
            '/v2/posts',
            { media: [video], accountIds, caption: `#${i}` },
            i % 2 ? { 'idempotency-key': `k-${i}` } : {},
          ),
        ),
      );
      const created = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status !== 201);
      assert.equal(created.length, 7);
      for (const r of refused) assertApiError(r, 429, 'rate_limited');
      assert.deepEqual(await counts(t, co.companyId), { posts: 7, items: 7 });
      assert.deepEqual(await usage(call), { today: 7, credits: 7 });
      // Keys are kept exactly for the keyed requests that created a post.
      const kept = (
        await t.ctx.db
          .selectFrom('idempotency_keys')
          .select('key')
          .where('company_id', '=', co.companyId)
          .execute()
      )
        .map((k) => k.key)
        .sort();
      const keyed = results
        .map((r, i) => ({ r, i }))
        .filter(({ r, i }) => i % 2 === 1 && r.status === 201)
        .map(({ i }) => `k-${i}`)
        .sort();
      assert.deepEqual(kept, keyed);
      // Every created post reads back as it was answered.
      for (const r of created) {
        const read = await call('GET', `/v2/posts/${r.body.postId}`);
        assert.deepEqual(read.body, r.body);
      }
    });
  },
  { env: { PLANS_FILE: PLANS } },
);
