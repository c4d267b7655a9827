// Cancel against release (reliability F3): cancels race a dispatcher pass over 1,000 due
// items on both databases. Every item ends in exactly one consistent state: cancelled with
// no release, or posting with exactly one release; each cancel answer agrees with it, and
// every post's stored status is the one derived from its items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { derivePostStatus } from '../../src/modules/items/index.ts';
import { DUE_AT, seedDueAccounts } from '../../bench/due-accounts.ts';

const ROUNDS = 4;
const PER_ROUND = 250;

describeEachDialect('cancel against release', (get) => {
  test('1,000 cancels racing releases leave every item in one consistent state', async () => {
    const t = get();
    t.clock.set(DUE_AT);
    let cancelled = 0;
    let released = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const co = await seedCompany(t, { plan: 'scale' });
      const call = client(t, co.key);
      const seeded = await seedDueAccounts(t.ctx.db, co.companyId, PER_ROUND);
      // A few cancels finish before the pass starts, so on a busy machine, where the pass could
      // otherwise take every item before any cancel arrives, both outcomes still occur. The rest
      // start while the pass runs, one per turn of the event loop: a request whose key is
      // already verified reaches the database at once, so hundreds started together would all
      // queue for connections ahead of the pass's queries and take every item themselves.
      const cancel = (postId: string) => call('DELETE', `/v2/posts/${postId}`);
      const even = seeded.postIds.filter((_, i) => i % 2 === 0);
      const odd = seeded.postIds.filter((_, i) => i % 2 === 1);
      const early = even.slice(0, 5).map(cancel);
      await Promise.all(early);
      const pass = releaseDue(t.ctx, new Date(DUE_AT));
      const during: ReturnType<typeof cancel>[] = [];
      for (const postId of [...even.slice(5), ...odd]) {
        await new Promise((r) => setImmediate(r));
        during.push(cancel(postId));
      }
      const [result, ...answers] = await Promise.all([pass, ...early, ...during]);
      const order = [
        ...seeded.postIds.filter((_, i) => i % 2 === 0),
        ...seeded.postIds.filter((_, i) => i % 2 === 1),
      ];
      const answerOf = new Map(order.map((postId, i) => [postId, answers[i]!]));

      const items = await t.ctx.db
        .selectFrom('queue_items')
        .select(['id', 'post_id', 'account_id', 'status'])
        .where('company_id', '=', co.companyId)
        .execute();
      const releases = await t.ctx.db
        .selectFrom('releases')
        .select(['queue_item_id'])
        .where('company_id', '=', co.companyId)
        .execute();
      const releasedIds = new Set(releases.map((r) => r.queue_item_id));
      assert.equal(releases.length, releasedIds.size, 'no item released twice');
      assert.equal(result.released, releases.length, 'the pass counts what it released');
      for (const item of items) {
        const answer = answerOf.get(item.post_id)!;
        if (item.status === 'cancelled') {
          assert.ok(!releasedIds.has(item.id), `cancelled item ${item.id} has no release`);
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          assert.deepEqual(answer.body.cancellation.cancelled, [item.account_id]);
          cancelled++;
        } else {
          assert.equal(item.status, 'posting', `item ${item.id} is cancelled or posting`);
          assert.ok(releasedIds.has(item.id), `posting item ${item.id} has its release`);
          assert.equal(answer.status, 409, JSON.stringify(answer.body));
          assert.equal(answer.body.error.code, 'post_not_cancellable');
          released++;
        }
      }
      const posts = await t.ctx.db
        .selectFrom('posts')
        .select(['id', 'status'])
        .where('company_id', '=', co.companyId)
        .execute();
      const itemsOf = new Map<string, { status: string }[]>();
      for (const i of items) itemsOf.set(i.post_id, [...(itemsOf.get(i.post_id) ?? []), i]);
      for (const p of posts) {
        assert.equal(p.status, derivePostStatus(itemsOf.get(p.id) ?? []), `post ${p.id}`);
      }
    }
    // Both outcomes occur: the cancels and the pass really interleaved.
    assert.ok(cancelled > 0 && released > 0, `cancelled ${cancelled}, released ${released}`);
    assert.equal(cancelled + released, ROUNDS * PER_ROUND, 'every item was accounted for');
  });
});
