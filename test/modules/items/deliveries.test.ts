// Proof and punctuality on both databases: each item's delivery record through
// GET /v2/posts/{postId}/deliveries, and the delivery figures per company, account and
// worker computed from a seeded history with known answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import type { Scope } from '../../../src/access.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { fixture } from '../../helpers/uploads.ts';
import { makeActiveAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { failOverdueTasks } from '../../../src/dispatch/deadlines.ts';
import { deliveryFigures, deliveryFigureTotals } from '../../../src/modules/items/index.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

interface World {
  call: CallFn;
  keyWith: (scopes: Scope[]) => Promise<string>;
  token: string;
  work: CallFn;
  companyId: string;
  workerId: string;
  accounts: string[];
  upload: string;
}

async function world(t: TestApp, day: string, accounts: number): Promise<World> {
  t.clock.set(`${day}T10:00:00.000Z`);
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const ids = await makeActiveAccounts(t, call, accounts);
  const upload = await readyUpload(t, call, 'image.png');
  const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: `w ${day}`, timezone: 'UTC' });
  await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, ids);
  return {
    call,
    keyWith: co.keyWith,
    token: worker.token,
    work: client(t, worker.token),
    companyId: co.companyId,
    workerId: worker.workerId,
    accounts: ids,
    upload,
  };
}

async function post(w: World, accountIds: string[]): Promise<string> {
  const res = await w.call('POST', '/v2/posts', {
    media: [w.upload],
    accountIds,
    skipApproval: true,
    caption: 'Delivery',
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.postId;
}

async function claim(w: World, accountId: string): Promise<string> {
  const res = await w.work('POST', '/worker/v1/tasks/claim', { accountId });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.length, 1, 'one task');
  return res.body.data[0].taskId;
}

async function report(w: World, taskId: string, body: object): Promise<void> {
  const res = await w.work('POST', `/worker/v1/tasks/${taskId}/result`, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

describeEachDialect('proof and punctuality', (get) => {
  test('each item of a post shows its slot, times, punctuality and URL', async () => {
    const t = get();
    const day = '2026-05-04';
    const w = await world(t, day, 4);
    const [a, b, c, d] = w.accounts as [string, string, string, string];
    const postId = await post(w, [a, b, c, d]);

    const before = await w.call('GET', `/v2/posts/${postId}/deliveries`);
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.equal(before.body.deliveries.length, 4);
    for (const entry of before.body.deliveries) {
      assert.equal(entry.status, 'queued');
      assert.equal(entry.releasedAt, null);
      assert.equal(entry.slot, null);
      assert.equal(entry.onTime, null);
    }

    t.clock.set(`${day}T11:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 4);
    t.clock.set(`${day}T11:05:00.000Z`);
    const [ta, tb, tc] = [await claim(w, a), await claim(w, b), await claim(w, c)];
    t.clock.set(`${day}T11:10:00.000Z`);
    await report(w, ta, { outcome: 'posted', postUrl: 'https://platform-a.example/v/a' });
    // Reported later, dated 12:30: 90 minutes after the window opened, past the grace.
    t.clock.set(`${day}T12:45:00.000Z`);
    await report(w, tb, {
      outcome: 'posted',
      postUrl: 'https://platform-a.example/v/b',
      postedAt: `${day}T12:30:00.000Z`,
    });
    await report(w, tc, { outcome: 'failed', reason: 'Account locked' });

    const res = await w.call('GET', `/v2/posts/${postId}/deliveries`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.postId, postId);
    const byAccount = new Map(res.body.deliveries.map((e: any) => [e.accountId, e]));
    const slot = { start: `${day}T11:00:00.000Z`, localDate: day, label: '11:00', kind: 'window' };
    const common = {
      releasedAt: `${day}T11:00:00.000Z`,
      slot,
      failureReason: null,
      proofScreenshotUrl: null,
    };
    const entryA = byAccount.get(a) as any;
    assert.deepEqual(entryA, {
      ...common,
      accountId: a,
      username: entryA.username,
      platform: entryA.platform,
      status: 'posted',
      claimedAt: `${day}T11:05:00.000Z`,
      postedAt: `${day}T11:10:00.000Z`,
      reportedAt: `${day}T11:10:00.000Z`,
      onTime: true,
      minutesAfterSlotStart: 10,
      postUrl: 'https://platform-a.example/v/a',
    });
    assert.ok(entryA.username.length > 0);
    const entryB = byAccount.get(b) as any;
    assert.equal(entryB.onTime, false);
    assert.equal(entryB.minutesAfterSlotStart, 90);
    assert.equal(entryB.postedAt, `${day}T12:30:00.000Z`);
    assert.equal(entryB.reportedAt, `${day}T12:45:00.000Z`);
    const entryC = byAccount.get(c) as any;
    assert.equal(entryC.status, 'failed');
    assert.equal(entryC.onTime, null);
    assert.equal(entryC.failureReason, 'Account locked');
    assert.equal(entryC.reportedAt, `${day}T12:45:00.000Z`);
    const entryD = byAccount.get(d) as any;
    assert.equal(entryD.status, 'posting');
    assert.equal(entryD.claimedAt, null);
    assert.deepEqual(entryD.slot, slot);

    // Another company's post, or none, is not found; the read needs posts:read.
    const other = await seedCompany(t);
    const stranger = await client(t, other.key)('GET', `/v2/posts/${postId}/deliveries`);
    assertApiError(stranger, 404, 'post_not_found');
    const writeOnly = await w.keyWith(['posts:write']);
    const refused = await client(t, writeOnly)('GET', `/v2/posts/${postId}/deliveries`);
    assertApiError(refused, 403, 'insufficient_scope');
  });

  test('a screenshot sent as proof is checked like an image, kept, and shown to the company', async () => {
    const t = get();
    const day = '2026-05-05';
    const w = await world(t, day, 2);
    const [a, b] = w.accounts as [string, string];
    const postId = await post(w, [a, b]);
    t.clock.set(`${day}T11:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
    const workerToken = w.token;
    const put = (taskId: string, body: Buffer | string, contentType?: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/worker/v1/tasks/${taskId}/proof`,
        headers: {
          authorization: `Bearer ${workerToken}`,
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        payload: body,
      });
    const png = await fixture('image.png');
    const listed = await w.work('GET', '/worker/v1/tasks');
    const unclaimed = listed.body.data.find((x: any) => x.accountId === b).taskId as string;
    const early = await put(unclaimed, png, 'image/png');
    assert.equal(early.statusCode, 409, early.body);
    assert.equal(early.json().error.code, 'task_not_claimed');

    const task = await claim(w, a);
    assert.equal(
      (await put(task, 'hello', 'text/plain')).json().error.code,
      'unsupported_media_type',
    );
    const lie = await put(task, await fixture('image.jpg'), 'image/png');
    assert.equal(lie.statusCode, 415, lie.body);
    assert.match(lie.json().error.message, /^Screenshot: /);
    const tall = await put(task, await fixture('image-16x8200.jpg'), 'image/jpeg');
    assert.equal(tall.statusCode, 422, tall.body);
    assert.equal(tall.json().error.code, 'invalid_media_specs');
    const huge = await put(task, Buffer.alloc(15 * 1024 * 1024 + 1), 'image/png');
    assert.equal(huge.statusCode, 413, huge.body);

    const sent = await put(task, png, 'image/png');
    assert.equal(sent.statusCode, 200, sent.body);
    const proofUrl = sent.json().proofScreenshotUrl as string;
    assert.ok(proofUrl);
    const again = await put(task, png, 'image/png');
    assert.equal(again.statusCode, 200);
    const uploadOf = (url: string) => new URL(url).pathname.split('/')[3];
    assert.equal(
      uploadOf(again.json().proofScreenshotUrl),
      uploadOf(proofUrl),
      'same image, same proof',
    );
    await report(w, task, { outcome: 'posted', postUrl: 'https://platform-a.example/v/p' });

    const deliveries = await w.call('GET', `/v2/posts/${postId}/deliveries`);
    const entry = deliveries.body.deliveries.find((e: any) => e.accountId === a);
    assert.equal(uploadOf(entry.proofScreenshotUrl), uploadOf(proofUrl));
    const image = await t.app.inject({
      method: 'GET',
      url: new URL(entry.proofScreenshotUrl).pathname + new URL(entry.proofScreenshotUrl).search,
    });
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.deepEqual(image.rawPayload, png);
    // Another worker cannot see the task at all.
    const other = await createWorker(t.ctx.db, t.ctx.clock, { name: 'other', timezone: 'UTC' });
    const stranger = await t.app.inject({
      method: 'PUT',
      url: `/worker/v1/tasks/${task}/proof`,
      headers: { authorization: `Bearer ${other.token}`, 'content-type': 'image/png' },
      payload: png,
    });
    assert.equal(stranger.statusCode, 404);
    assert.equal(stranger.json().error.code, 'task_not_found');
  });

  test('analytics snapshots only grow in views, and the same one sent twice is kept once', async () => {
    const t = get();
    const day = '2026-05-06';
    const w = await world(t, day, 1);
    const [a] = w.accounts as [string];
    await post(w, [a]);
    t.clock.set(`${day}T11:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
    const task = await claim(w, a);
    await report(w, task, { outcome: 'posted', postUrl: 'https://platform-a.example/v/s' });
    t.clock.set(`${day}T12:00:00.000Z`);
    const snap = (views: number, time: string) =>
      w.work('POST', `/worker/v1/tasks/${task}/analytics`, {
        views,
        likes: 1,
        comments: 0,
        shares: 0,
        saves: 0,
        collectedAt: `${day}T${time}:00.000Z`,
      });
    const first = await snap(100, '11:20');
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal((await snap(200, '11:40')).status, 201);
    const fewer = await snap(150, '11:50');
    assertApiError(fewer, 400, 'invalid_request');
    assert.equal(
      fewer.body.error.message,
      `/views must not be fewer than the 200 views counted at ${day}T11:40:00.000Z`,
    );
    const more = await snap(250, '11:30');
    assertApiError(more, 400, 'invalid_request');
    assert.equal(
      more.body.error.message,
      `/views must not be more than the 200 views counted later, at ${day}T11:40:00.000Z`,
    );
    const future = await snap(300, '12:30');
    assertApiError(future, 400, 'invalid_request');
    assert.match(future.body.error.message, /^\/collectedAt must not be in the future/);
    const retry = await snap(100, '11:20');
    assert.equal(retry.status, 201);
    assert.equal(retry.body.id, first.body.id, 'a retry is the snapshot already stored');
    const rows = await t.ctx.db
      .selectFrom('post_analytics')
      .select('id')
      .where('queue_item_id', '=', task)
      .execute();
    assert.equal(rows.length, 2);
  });

  test('figures per company, account and worker over 7 and 30 days, with known answers', async () => {
    const t = get();
    // Day 1 (19 days before the read): one post to two accounts, both on time.
    // Day 2 (2 days before): one post to four accounts (on time, late, unclaimed, and one
    // unconfirmed at its deadline and then confirmed), and one more failed by its report.
    const w = await world(t, '2026-06-01', 4);
    const [a, b, c, d] = w.accounts as [string, string, string, string];

    const p1 = await post(w, [a, b]);
    t.clock.set('2026-06-01T11:00:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
    t.clock.set('2026-06-01T11:03:00.000Z');
    const [t1a, t1b] = [await claim(w, a), await claim(w, b)];
    await report(w, t1a, { outcome: 'posted', postUrl: 'https://platform-a.example/v/1' });
    t.clock.set('2026-06-01T11:20:00.000Z');
    await report(w, t1b, { outcome: 'posted', postUrl: 'https://platform-a.example/v/2' });
    assert.ok(p1);

    t.clock.set('2026-06-18T10:00:00.000Z');
    await post(w, [a, b, c, d]);
    t.clock.set('2026-06-18T11:00:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 4);
    t.clock.set('2026-06-18T11:01:00.000Z');
    const [t2a, t2b, t2c] = [await claim(w, a), await claim(w, b), await claim(w, c)];
    t.clock.set('2026-06-18T11:02:00.000Z');
    await report(w, t2a, { outcome: 'posted', postUrl: 'https://platform-a.example/v/3' });
    t.clock.set('2026-06-18T13:00:00.000Z');
    await report(w, t2b, { outcome: 'posted', postUrl: 'https://platform-a.example/v/4' });
    // A third post, to d only, due at the 14:00 window.
    t.clock.set('2026-06-18T13:59:00.000Z');
    await post(w, [d]);
    // c is claimed and never reported, d's first item never claimed: both fail at the
    // deadline; d's new item is released in the same minute.
    t.clock.set('2026-06-18T14:00:00.000Z');
    // (Earlier tests of this file share the database: their overdue tasks fail here too.)
    const overdue = await failOverdueTasks(t.ctx, t.clock.now());
    assert.ok(overdue.unclaimed >= 1 && overdue.unconfirmed === 1, JSON.stringify(overdue));
    assert.ok((await releaseDue(t.ctx, t.clock.now())).released >= 1);
    // The worker confirms c late (posted at 11:40, within the grace): unconfirmed no more.
    await report(w, t2c, {
      outcome: 'posted',
      postUrl: 'https://platform-a.example/v/5',
      postedAt: '2026-06-18T11:40:00.000Z',
    });
    await report(w, await claim(w, d), { outcome: 'failed', reason: 'Banned' });

    const now = new Date('2026-06-20T12:00:00.000Z');
    const figures = async (scope: 'company' | 'account' | 'worker', id: string, days: 7 | 30) =>
      (await deliveryFigures(t.ctx.db, scope, [id], now, days)).get(id);

    // 7 days: a posted 2 min after release (on time), b 120 min (late), c 40 min (on time),
    // d unclaimed (failed), d's second item failed by report.
    assert.deepEqual(await figures('company', w.companyId, 7), {
      delivered: 5,
      posted: 3,
      onTimeRatio: 0.4,
      failedRatio: 0.4,
      unconfirmedRatio: 0,
      releaseToPostedP50Minutes: 40,
      releaseToPostedP95Minutes: 120,
      // Claimed a minute after release (a, b, c) and at once (d's second item).
      releaseToClaimP50Minutes: 1,
      releaseToClaimP95Minutes: 1,
      windowsMissed: 0,
    });
    // 30 days adds day 1's two on-time posts (3 and 20 minutes).
    assert.deepEqual(await figures('company', w.companyId, 30), {
      delivered: 7,
      posted: 5,
      onTimeRatio: 0.5714,
      failedRatio: 0.2857,
      unconfirmedRatio: 0,
      releaseToPostedP50Minutes: 20,
      releaseToPostedP95Minutes: 120,
      // Day 1's two claims came 3 minutes after release.
      releaseToClaimP50Minutes: 1,
      releaseToClaimP95Minutes: 3,
      windowsMissed: 0,
    });
    assert.deepEqual(
      await figures('worker', w.workerId, 30),
      await figures('company', w.companyId, 30),
    );
    assert.deepEqual(await figures('account', a, 30), {
      delivered: 2,
      posted: 2,
      onTimeRatio: 1,
      failedRatio: 0,
      unconfirmedRatio: 0,
      releaseToPostedP50Minutes: 2,
      releaseToPostedP95Minutes: 3,
      releaseToClaimP50Minutes: 1,
      releaseToClaimP95Minutes: 3,
      windowsMissed: 0,
    });
    assert.deepEqual(await figures('account', d, 7), {
      delivered: 2,
      posted: 0,
      onTimeRatio: 0,
      failedRatio: 1,
      unconfirmedRatio: 0,
      releaseToPostedP50Minutes: null,
      releaseToPostedP95Minutes: null,
      // The unclaimed item has no claim time; the second was claimed at its release.
      releaseToClaimP50Minutes: 1,
      releaseToClaimP95Minutes: 1,
      windowsMissed: 0,
    });
    // The service-wide totals (the metrics scrape) include this company's items.
    const totals = await deliveryFigureTotals(t.ctx.db, 'company', now, 30);
    assert.ok(totals.delivered >= 7 && totals.posted >= 5, JSON.stringify(totals));
    // A company's own read is bound to it: another company's id reads nothing.
    const other = await seedCompany(t);
    const restricted = await deliveryFigures(t.ctx.db, 'account', [a], now, 30, other.companyId);
    assert.equal(restricted.get(a)?.delivered, 0);
  });

  test('a release into a make-up slot counts a missed window', async () => {
    const t = get();
    const day = '2026-07-06';
    const w = await world(t, day, 1);
    const [a] = w.accounts as [string];
    // Windows at 11:00 only; the item is due at 11:00 but the dispatcher first runs at
    // 14:10, so it goes out in the 14:00 standard slot the schedule does not use.
    const schedule = await w.call('PATCH', `/v2/accounts/${a}/schedule`, {
      schedule: { windows: ['11:00'] },
    });
    assert.equal(schedule.status, 200, JSON.stringify(schedule.body));
    const postId = await post(w, [a]);
    t.clock.set(`${day}T14:10:00.000Z`);
    assert.ok((await releaseDue(t.ctx, t.clock.now())).released >= 1);
    const figures = await deliveryFigures(t.ctx.db, 'account', [a], t.clock.now(), 7);
    assert.equal(figures.get(a)?.windowsMissed, 1);
    const task = await claim(w, a);
    await report(w, task, { outcome: 'posted', postUrl: 'https://platform-a.example/v/m' });
    const res = await w.call('GET', `/v2/posts/${postId}/deliveries`);
    assert.equal(res.body.deliveries[0].slot.kind, 'makeup');
    assert.equal(res.body.deliveries[0].slot.label, '14:00');
    assert.equal(res.body.deliveries[0].onTime, true);
    assert.equal(res.body.deliveries[0].minutesAfterSlotStart, 10);
  });
});
