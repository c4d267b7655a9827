// The simulator worker on both databases, driven by the fake clock: release, claim, post
// after the delay, then snapshots and account statistics that the analytics API shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { makeAccounts, readyUpload, setAccountStatus, type CallFn } from '../helpers/posts.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { simulatedFigures, simulatedPostUrl, simulatePass } from '../../src/simulator/simulator.ts';
import {
  assignAccounts,
  createWorker,
  revokeWorker,
} from '../../src/modules/workers/workers.service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function post(call: CallFn, video: string, accountIds: string[]) {
  const r = await call('POST', '/v2/posts', { media: [video], accountIds, skipApproval: true });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.postId as string;
}

async function items(t: TestApp, accountIds: string[]) {
  return t.ctx.db
    .selectFrom('queue_items')
    .select(['id', 'account_id', 'status', 'claimed_at', 'claimed_by', 'posted_at', 'post_url'])
    .where('account_id', 'in', accountIds)
    .orderBy('account_id')
    .execute();
}

async function pass(t: TestApp) {
  return simulatePass(t.ctx, t.clock.now());
}

describeEachDialect('simulator worker', (get) => {
  test('figures are deterministic and never decrease; post URLs are fixed by the task', () => {
    let previous = simulatedFigures('qit_1', 0);
    assert.ok(previous.views > 0, 'the first snapshot already has a few views');
    for (let t = 15 * MINUTE; t < 4 * 24 * HOUR; t += 15 * MINUTE) {
      const next = simulatedFigures('qit_1', t);
      for (const k of ['views', 'likes', 'comments', 'shares', 'saves'] as const) {
        assert.ok(next[k] >= previous[k], `${k} never decreases (at ${t} ms)`);
      }
      assert.ok(next.likes < next.views, 'likes are a fraction of views');
      previous = next;
    }
    const early = simulatedFigures('qit_1', HOUR).views;
    const day = simulatedFigures('qit_1', 24 * HOUR).views;
    const later = simulatedFigures('qit_1', 48 * HOUR).views;
    assert.ok(day - early > later - day, 'views grow fast, then flatten');
    assert.deepEqual(simulatedFigures('qit_1', HOUR), simulatedFigures('qit_1', HOUR));
    assert.equal(
      simulatedPostUrl('qit_1', 'platformA', 'chef'),
      simulatedPostUrl('qit_1', 'platformA', 'chef'),
    );
    assert.match(
      simulatedPostUrl('qit_1', 'platformA', 'chef'),
      /^https:\/\/platform-a\.example\/@chef\/video\/\d{19}$/,
    );
    assert.match(
      simulatedPostUrl('qit_1', 'platformB', 'chef'),
      /^https:\/\/platform-b\.example\/p\/[\w-]{11}\/$/,
    );
    assert.notEqual(
      simulatedPostUrl('qit_1', 'platformB', 'chef'),
      simulatedPostUrl('qit_2', 'platformB', 'chef'),
    );
  });

  test('claims released tasks, posts them after the delay, then fills in analytics', async () => {
    const t = get();
    // 06:00 UTC is 07:00 in Berlin: the 08:00 window is an hour away.
    t.clock.set('2026-03-02T06:00:00.000Z');
    const call = client(t, (await seedCompany(t)).key);
    const [a] = (await makeAccounts(call, 1, 'platformA')) as [string];
    const [b] = (await makeAccounts(call, 1, 'platformB')) as [string];
    const worker = await createWorker(t.ctx.db, t.ctx.clock, {
      name: 'Sim phone',
      timezone: 'Europe/Berlin',
      simulated: true,
    });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [a, b]);
    assert.equal((await call('GET', `/v2/accounts/${a}`)).body.timezone, 'Europe/Berlin');
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const postId = await post(call, video, [a, b]);

    await pass(t);
    assert.ok(
      (await items(t, [a, b])).every((i) => i.status === 'queued' && i.claimed_at === null),
      'nothing to claim before the window',
    );
    const hb = await t.ctx.db
      .selectFrom('workers')
      .select('last_seen_at')
      .where('id', '=', worker.workerId)
      .executeTakeFirstOrThrow();
    assert.equal(hb.last_seen_at, '2026-03-02T06:00:00.000Z', 'each pass is a heartbeat');

    t.clock.set('2026-03-02T07:00:05.000Z'); // 08:00:05 in Berlin
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
    const claimedPass = await pass(t);
    assert.ok(claimedPass.claimed >= 2, `claimed both tasks (${JSON.stringify(claimedPass)})`);
    let rows = await items(t, [a, b]);
    assert.ok(
      rows.every((i) => i.claimed_by === worker.workerId && i.status === 'posting'),
      `claimed by the simulated worker: ${JSON.stringify(rows)}`,
    );

    t.clock.set('2026-03-02T07:00:20.000Z');
    await pass(t);
    rows = await items(t, [a, b]);
    assert.ok(
      rows.every((i) => i.status === 'posting' && i.post_url === null),
      'nothing is posted before the post delay',
    );
    assert.equal((await call('GET', `/v2/posts/${postId}`)).body.status, 'posting');

    t.clock.set('2026-03-02T07:00:30.000Z');
    const postedPass = await pass(t);
    assert.ok(postedPass.posted >= 2, `posted both (${JSON.stringify(postedPass)})`);
    assert.ok(postedPass.snapshots >= 2, 'a first snapshot right after posting');
    const got = (await call('GET', `/v2/posts/${postId}`)).body;
    assert.equal(got.status, 'posted');
    const byAccount = new Map<string, { postUrl: string; postedAt: string }>(
      got.accounts.map((x: { accountId: string }) => [x.accountId, x]),
    );
    assert.match(byAccount.get(a)?.postUrl ?? '', /^https:\/\/platform-a\.example\/@.+\/video\//);
    assert.match(byAccount.get(b)?.postUrl ?? '', /^https:\/\/platform-b\.example\/p\//);
    // Posted when the delay ended: 20 s after the claim at 07:00:05.
    assert.equal(byAccount.get(a)?.postedAt, '2026-03-02T07:00:25.000Z');

    const again = await pass(t);
    assert.equal(again.posted, 0, 'a posted task is reported once');
    const snapshotsOf = async () =>
      t.ctx.db
        .selectFrom('post_analytics')
        .select(['queue_item_id', 'views', 'collected_at'])
        .where('post_id', '=', postId)
        .execute();
    assert.equal((await snapshotsOf()).length, 2, 'at most one snapshot per task per interval');

    for (let h = 0.5; h <= 12; h += 0.5) {
      t.clock.set(Date.parse('2026-03-02T07:00:30.000Z') + h * HOUR);
      await pass(t);
    }
    const snaps = await snapshotsOf();
    assert.equal(snaps.length, 2 * 25, 'one snapshot per task per half hour');
    for (const id of [a, b]) {
      const item = rows.find((i) => i.account_id === id)?.id;
      const views = snaps
        .filter((s) => s.queue_item_id === item)
        .sort((x, y) => x.collected_at.localeCompare(y.collected_at))
        .map((s) => Number(s.views));
      for (let i = 1; i < views.length; i++) {
        assert.ok(
          (views[i] as number) >= (views[i - 1] as number),
          `views never decrease: ${views}`,
        );
      }
      assert.ok((views.at(-1) as number) > (views[0] as number), `views grow: ${views}`);
    }

    const analytics = await call('GET', `/v2/posts/${postId}/analytics?limit=100`);
    assert.equal(analytics.status, 200, JSON.stringify(analytics.body));
    assert.equal(analytics.body.history.length, 50);
    assert.ok(analytics.body.summary.views > 0, 'the summary adds up the latest snapshots');
    assert.ok(analytics.body.summary.likes > 0, 'likes follow views');
    assert.equal(analytics.body.summary.lastUpdated, '2026-03-02T19:00:30.000Z');

    const stats = await call('GET', `/v2/accounts/${a}/analytics`);
    assert.equal(stats.status, 200, JSON.stringify(stats.body));
    assert.equal(stats.body.posts, 1);
    assert.equal(stats.body.scannedPosts, 1);
    assert.ok(stats.body.followers > 0, 'followers are reported');
    assert.ok(stats.body.analytics.views > 0, 'views of the scanned posts are summed');
    assert.ok(stats.body.engagement > 0, 'engagement is a percentage of views');
    const followersBefore = stats.body.followers as number;

    // Snapshots stop a few days after posting; followers keep growing.
    t.clock.set('2026-03-06T08:00:00.000Z');
    await pass(t);
    const settled = (await snapshotsOf()).length;
    t.clock.set('2026-03-06T09:00:00.000Z');
    await pass(t);
    assert.equal((await snapshotsOf()).length, settled, 'no snapshots after the first days');
    const laterStats = (await call('GET', `/v2/accounts/${a}/analytics`)).body;
    assert.ok(laterStats.followers > followersBefore, 'followers grow over the days');
  });

  test('drives only simulated workers that are not revoked', async () => {
    const t = get();
    t.clock.set('2026-03-10T06:00:00.000Z');
    const call = client(t, (await seedCompany(t)).key);
    const [real, revoked] = (await makeAccounts(call, 2)) as [string, string];
    const person = await createWorker(t.ctx.db, t.ctx.clock, {
      name: 'A person',
      timezone: 'Europe/Berlin',
    });
    const retired = await createWorker(t.ctx.db, t.ctx.clock, {
      name: 'Retired sim',
      timezone: 'Europe/Berlin',
      simulated: true,
    });
    await assignAccounts(t.ctx.db, t.ctx.clock, person.workerId, [real]);
    await assignAccounts(t.ctx.db, t.ctx.clock, retired.workerId, [revoked]);
    await revokeWorker(t.ctx.db, t.ctx.clock, retired.workerId);
    // Both were set up before (by the person, and by the simulator while it still ran).
    await setAccountStatus(t, [real, revoked]);
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    await post(call, video, [real, revoked]);
    t.clock.set('2026-03-10T07:00:05.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
    t.clock.set('2026-03-10T07:05:00.000Z');
    await pass(t);
    const rows = await items(t, [real, revoked]);
    assert.ok(
      rows.every((i) => i.status === 'posting' && i.claimed_at === null),
      `left for their workers: ${JSON.stringify(rows)}`,
    );
  });
});
