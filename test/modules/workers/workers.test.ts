// The Worker API end to end on both databases (DECISIONS 2, 5, 6, 7): a post released at a
// window becomes a task of the account's worker, which claims it, downloads its media,
// reports the outcome and pushes analytics; what the company sees through /v2 follows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type Call, type TestApp } from '../../helpers/app.ts';
import { assertApiError, assertInvalidBody } from '../../helpers/api-error.ts';
import { fixture, local } from '../../helpers/uploads.ts';
import { makeActiveAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { failOverdueTasks } from '../../../src/dispatch/deadlines.ts';
import { engagementRate } from '../../../src/modules/analytics/index.ts';
import { UNCLAIMED_REASON, UNCONFIRMED_REASON } from '../../../src/modules/items/index.ts';
import {
  assignAccounts,
  createWorker,
  updateWorker,
} from '../../../src/modules/workers/workers.service.ts';

const HOUR = 3_600_000;
const SNAPSHOT = { views: 0, likes: 0, comments: 0, shares: 0, saves: 0 };
const STATS = {
  followers: 0,
  posts: 0,
  engagement: 0,
  views: 0,
  likes: 0,
  comments: 0,
  scannedPosts: 0,
};

interface Setup {
  /** Company key client. */
  call: CallFn;
  /** Worker token client. */
  work: CallFn;
  workerId: string;
  accounts: string[];
  upload: string;
}

/**
 * A company whose `accounts` are operated by a fresh worker, with a ready upload. Every test
 * starts on a day of its own at 10:00 UTC, so releases and daily caps never overlap.
 */
async function setup(
  t: TestApp,
  day: string,
  options: { accounts?: number; fixture?: string; timezone?: string; plan?: string } = {},
): Promise<Setup> {
  t.clock.set(`${day}T10:00:00.000Z`);
  const co = await seedCompany(t, options.plan ? { plan: options.plan } : {});
  const call = client(t, co.key);
  const accounts = await makeActiveAccounts(t, call, options.accounts ?? 1);
  const upload = await readyUpload(t, call, options.fixture ?? 'image.png');
  const worker = await createWorker(t.ctx.db, t.ctx.clock, {
    name: `worker ${day}`,
    timezone: options.timezone ?? 'UTC',
  });
  await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, accounts);
  return { call, work: client(t, worker.token), workerId: worker.workerId, accounts, upload };
}

async function createPost(s: Setup, accountIds: string[], extra: object = {}): Promise<string> {
  const res = await s.call('POST', '/v2/posts', {
    media: [s.upload],
    accountIds,
    skipApproval: true,
    caption: 'Worker test',
    hashtags: ['#one'],
    ...extra,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.postId;
}

/** Moves the clock into the 11:00 UTC window of `day` and releases what is due. */
async function releaseAt11(t: TestApp, day: string): Promise<number> {
  t.clock.set(`${day}T11:00:00.000Z`);
  return (await releaseDue(t.ctx, t.clock.now())).released;
}

async function claim(s: Setup, body: object = {}): Promise<any[]> {
  const res = await s.work('POST', '/worker/v1/tasks/claim', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

/** Claims the one released task of `accountId`. */
async function claimOne(s: Setup, accountId: string): Promise<any> {
  const [task, ...rest] = await claim(s, { accountId });
  assert.ok(task, `no task to claim for ${accountId}`);
  assert.equal(rest.length, 0, 'one task per account');
  return task;
}

function report(s: Setup, taskId: string, body: object): Promise<Call> {
  return s.work('POST', `/worker/v1/tasks/${taskId}/result`, body);
}

function posted(postUrl: string, postedAt?: string) {
  return { outcome: 'posted', postUrl, ...(postedAt ? { postedAt } : {}) };
}

async function itemRow(t: TestApp, taskId: string) {
  return t.ctx.db
    .selectFrom('queue_items')
    .selectAll()
    .where('id', '=', taskId)
    .executeTakeFirstOrThrow();
}

/** The task without its signed media URLs, which are signed afresh on every read. */
function withoutUrls(task: Record<string, unknown>) {
  const { media: _media, ...rest } = task;
  return rest;
}

describeEachDialect('worker API', (get, dialect) => {
  test('released items become tasks of the worker; each is claimed once; media downloads', async () => {
    const t = get();
    const day = '2026-03-02';
    const s = await setup(t, day, { accounts: 2, fixture: 'h264-noaudio.mp4' });
    const postId = await createPost(s, s.accounts);
    assert.deepEqual(await claim(s), [], 'nothing is released before the window');
    assert.equal(await releaseAt11(t, day), 2);
    const post = await s.call('GET', `/v2/posts/${postId}`);
    assert.equal(post.body.status, 'posting');
    // A claim with the defaults needs no body. Undone below so the rest of the test claims.
    const bodiless = await s.work('POST', '/worker/v1/tasks/claim');
    assert.equal(bodiless.status, 200, JSON.stringify(bodiless.body));
    assert.equal(bodiless.body.data.length, 2, 'a bodiless claim takes both tasks');
    await t.ctx.db
      .updateTable('queue_items')
      .set({ claimed_at: null, claimed_by: null })
      .where('account_id', 'in', s.accounts)
      .execute();

    const heartbeat = await s.work('POST', '/worker/v1/heartbeat');
    assert.equal(heartbeat.status, 200, JSON.stringify(heartbeat.body));
    assert.equal(heartbeat.body.workerId, s.workerId);
    assert.deepEqual(heartbeat.body.openTasks, { released: 2, claimed: 0 });
    assert.deepEqual(heartbeat.body.accounts.map((a: any) => a.accountId).sort(), s.accounts);

    // The open list pages with a cursor, oldest release first.
    const first = await s.work('GET', '/worker/v1/tasks?limit=1');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.data.length, 1);
    assert.equal(first.body.data[0].state, 'released');
    assert.equal(
      first.body.data[0].reportBy,
      new Date(Date.parse(`${day}T11:00:00Z`) + 2 * HOUR).toISOString(),
    );
    const second = await s.work(
      'GET',
      `/worker/v1/tasks?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    assert.equal(second.body.data.length, 1);
    assert.equal(second.body.nextCursor, null);
    assert.notEqual(second.body.data[0].taskId, first.body.data[0].taskId);
    const tampered = await s.work(
      'GET',
      `/worker/v1/tasks?limit=1&cursor=x${first.body.nextCursor}`,
    );
    assertApiError(tampered, 400, 'invalid_cursor');

    t.clock.set(`${day}T11:10:00.000Z`);
    await t.media.idle();
    const tasks = await claim(s, { limit: 50 });
    assert.equal(tasks.length, 2);
    assert.deepEqual(await claim(s, { limit: 50 }), [], 'a second claim returns nothing');
    assert.deepEqual(
      tasks.map((x) => x.accountId).sort(),
      [...s.accounts].sort(),
      'one task per account',
    );
    for (const task of tasks) {
      assert.equal(task.postId, postId);
      assert.equal(task.state, 'claimed');
      assert.equal(task.claimedAt, `${day}T11:10:00.000Z`);
      assert.equal(task.releasedAt, `${day}T11:00:00.000Z`);
      assert.equal(task.reportBy, `${day}T13:10:00.000Z`);
      assert.equal(task.caption, 'Worker test');
      assert.deepEqual(task.hashtags, ['#one']);
      assert.equal(task.media.kind, 'video');
      assert.equal(task.media.items.length, 1);
      assert.equal(task.media.items[0].contentType, 'video/mp4');
      assert.ok(
        Date.parse(task.media.expiresAt) >= Date.parse(task.reportBy),
        'URLs outlive reportBy',
      );
      // The signed URL needs no credentials and serves the uploaded bytes unchanged.
      const download = await t.app.inject({ method: 'GET', url: local(task.media.items[0].url) });
      assert.equal(download.statusCode, 200, download.body);
      assert.ok(download.rawPayload.equals(await fixture('h264-noaudio.mp4')), 'bytes differ');
      assert.equal(
        task.media.items[0].sha256,
        createHash('sha256').update(download.rawPayload).digest('hex'),
        'the worker can check the download against the validated content',
      );
      // The thumbnail is the post's own: the upload's, made by now.
      assert.ok(task.media.thumbnailUrl, 'the task has the post thumbnail');
      const thumb = await t.app.inject({ method: 'GET', url: local(task.media.thumbnailUrl) });
      assert.equal(thumb.statusCode, 200, 'the task thumbnail downloads');
    }
    const again = await s.work('POST', '/worker/v1/heartbeat');
    assert.deepEqual(again.body.openTasks, { released: 0, claimed: 2 });
    const claimedList = await s.work('GET', '/worker/v1/tasks?state=claimed');
    assert.equal(claimedList.body.data.length, 2);
    const releasedList = await s.work('GET', '/worker/v1/tasks?state=released');
    assert.deepEqual(releasedList.body.data, []);
    const one = await s.work('GET', `/worker/v1/tasks/${tasks[0].taskId}`);
    assert.equal(one.status, 200);
    assert.deepEqual(withoutUrls(one.body), withoutUrls(tasks[0]));
    // Claims are recorded on the item, which stays `posting`.
    const row = await itemRow(t, tasks[0].taskId);
    assert.equal(row.status, 'posting');
    assert.equal(row.claimed_by, s.workerId);
  });

  test('posted and failed reports reach the post and the account; reports are final', async () => {
    const t = get();
    const day = '2026-03-03';
    const s = await setup(t, day, { accounts: 2 });
    const [accA, accB] = s.accounts as [string, string];
    const postA = await createPost(s, [accA]);
    const postB = await createPost(s, [accB]);
    assert.equal(await releaseAt11(t, day), 2);
    t.clock.set(`${day}T11:10:00.000Z`);
    const taskA = await claimOne(s, accA);
    const taskB = await claimOne(s, accB);

    const url = 'https://platform-a.example/p/123';
    const done = await report(s, taskA.taskId, posted(url, `${day}T11:05:00.000Z`));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.state, 'posted');
    assert.equal(done.body.postUrl, url);
    assert.equal(done.body.postedAt, `${day}T11:05:00.000Z`);
    assert.equal(done.body.reportBy, null);
    const viewA = await s.call('GET', `/v2/posts/${postA}`);
    assert.equal(viewA.body.status, 'posted');
    assert.equal(viewA.body.accounts[0].status, 'posted');
    assert.equal(viewA.body.accounts[0].postUrl, url);
    assert.equal(viewA.body.accounts[0].postedAt, `${day}T11:05:00.000Z`);
    const account = await s.call('GET', `/v2/accounts/${accA}`);
    assert.equal(account.body.lastPostAt, `${day}T11:05:00.000Z`);

    const failed = await report(s, taskB.taskId, { outcome: 'failed', reason: 'Login expired' });
    assert.equal(failed.status, 200, JSON.stringify(failed.body));
    assert.equal(failed.body.state, 'failed');
    assert.equal(failed.body.failureReason, 'Login expired');
    const viewB = (await s.call('GET', `/v2/posts/${postB}`)).body;
    assert.equal(viewB.status, 'failed');
    assert.equal(viewB.accounts[0].error, 'Login expired');
    assert.equal((await s.call('GET', `/v2/accounts/${accB}`)).body.lastPostAt, null);

    // The same report again is harmless and changes nothing.
    t.clock.set(`${day}T11:20:00.000Z`);
    const rowA = await itemRow(t, taskA.taskId);
    const repeatA = await report(s, taskA.taskId, posted(url, `${day}T11:05:00.000Z`));
    assert.equal(repeatA.status, 200, JSON.stringify(repeatA.body));
    assert.deepEqual(withoutUrls(repeatA.body), withoutUrls(done.body));
    assert.deepEqual(await itemRow(t, taskA.taskId), rowA);
    const repeatB = await report(s, taskB.taskId, { outcome: 'failed', reason: 'Login expired' });
    assert.equal(repeatB.status, 200, JSON.stringify(repeatB.body));
    assert.deepEqual(withoutUrls(repeatB.body), withoutUrls(failed.body));

    // A different outcome for a reported task is refused.
    for (const [taskId, body] of [
      [taskA.taskId, { outcome: 'failed', reason: 'changed my mind' }],
      [taskA.taskId, posted('https://platform-a.example/p/other')],
      [taskB.taskId, posted(url)],
      [taskB.taskId, { outcome: 'failed', reason: 'another reason' }],
    ] as const) {
      assertApiError(await report(s, taskId, body), 409, 'task_already_reported');
    }
    assert.deepEqual(await itemRow(t, taskA.taskId), rowA);
    assert.equal((await s.call('GET', `/v2/posts/${postA}`)).body.status, 'posted');
  });

  test('reports need a claim; postedAt must lie between the release and now', async () => {
    const t = get();
    const day = '2026-03-04';
    const s = await setup(t, day, { accounts: 3 });
    await createPost(s, s.accounts);
    assert.equal(await releaseAt11(t, day), 3);
    const [open] = (await s.work('GET', '/worker/v1/tasks?state=released&limit=1')).body.data;
    assertApiError(
      await report(s, open.taskId, posted('https://x.example/p/1')),
      409,
      'task_not_claimed',
    );
    assertApiError(
      await report(s, open.taskId, { outcome: 'failed', reason: 'x' }),
      409,
      'task_not_claimed',
    );
    assert.equal((await itemRow(t, open.taskId)).status, 'posting');

    t.clock.set(`${day}T12:00:00.000Z`);
    const [first, second, third] = (await claim(s, { limit: 3 })) as [any, any, any];
    const now = Date.parse(`${day}T12:00:00.000Z`);
    const released = Date.parse(`${day}T11:00:00.000Z`);
    // Up to five minutes of clock skew are accepted; one millisecond more is the future.
    const future = new Date(now + 5 * 60_000 + 1).toISOString();
    const early = new Date(released - 1).toISOString();
    for (const postedAt of [future, early, '2020-01-01T00:00:00Z']) {
      const res = await report(s, first.taskId, posted('https://x.example/p/1', postedAt));
      assertInvalidBody(res, '/postedAt');
    }
    assert.equal((await itemRow(t, first.taskId)).status, 'posting');
    const atRelease = await report(
      s,
      first.taskId,
      posted('https://x.example/p/1', new Date(released).toISOString()),
    );
    assert.equal(atRelease.status, 200, JSON.stringify(atRelease.body));
    assert.equal(atRelease.body.postedAt, `${day}T11:00:00.000Z`);
    const skewed = await report(
      s,
      second.taskId,
      posted('https://x.example/p/2', new Date(now + 5 * 60_000).toISOString()),
    );
    assert.equal(skewed.status, 200, JSON.stringify(skewed.body));
    // A time with an offset is stored in UTC.
    const offset = await report(
      s,
      third.taskId,
      posted('http://x.example/p/3', `${day}T13:30:00+02:00`),
    );
    assert.equal(offset.status, 200, JSON.stringify(offset.body));
    assert.equal(offset.body.postedAt, `${day}T11:30:00.000Z`);
  });

  test('analytics snapshots feed the post analytics summary and its paged history', async () => {
    const t = get();
    const day = '2026-03-05';
    const s = await setup(t, day, { accounts: 2 });
    const [accA, accB] = s.accounts as [string, string];
    const postId = await createPost(s, s.accounts);
    assert.equal(await releaseAt11(t, day), 2);
    t.clock.set(`${day}T11:10:00.000Z`);
    const taskA = await claimOne(s, accA);
    const taskB = await claimOne(s, accB);
    assertApiError(
      await s.work('POST', `/worker/v1/tasks/${taskA.taskId}/analytics`, SNAPSHOT),
      409,
      'task_not_posted',
    );
    const urlA = 'https://platform-a.example/p/a';
    const urlB = 'https://platform-a.example/p/b';
    assert.equal((await report(s, taskA.taskId, posted(urlA))).status, 200);
    assert.equal((await report(s, taskB.taskId, posted(urlB))).status, 200);

    const push = (taskId: string, body: object) =>
      s.work('POST', `/worker/v1/tasks/${taskId}/analytics`, body);
    t.clock.set(`${day}T15:00:00.000Z`);
    const early = await push(taskA.taskId, {
      views: 100,
      likes: 5,
      comments: 2,
      shares: 1,
      saves: 0,
      collectedAt: `${day}T12:00:00.000Z`,
    });
    assert.equal(early.status, 201, JSON.stringify(early.body));
    assert.deepEqual(Object.keys(early.body).sort(), [
      'accountId',
      'collectedAt',
      'comments',
      'id',
      'likes',
      'platform',
      'postUrl',
      'saves',
      'shares',
      'taskId',
      'videoId',
      'views',
    ]);
    assert.equal(early.body.videoId, postId);
    assert.equal(early.body.taskId, taskA.taskId);
    assert.equal(early.body.postUrl, urlA);
    const late = await push(taskA.taskId, {
      views: 200,
      likes: 10,
      comments: 4,
      shares: 2,
      saves: 1,
    });
    assert.equal(late.status, 201, JSON.stringify(late.body));
    assert.equal(late.body.collectedAt, `${day}T15:00:00.000Z`);
    const other = await push(taskB.taskId, {
      views: 50,
      likes: 1,
      comments: 0,
      shares: 0,
      saves: 0,
      collectedAt: `${day}T14:00:00.000Z`,
    });
    assert.equal(other.status, 201, JSON.stringify(other.body));
    assertInvalidBody(
      await push(taskA.taskId, { ...SNAPSHOT, collectedAt: `${day}T15:05:00.001Z` }),
      '/collectedAt',
    );
    assertInvalidBody(
      await push(taskA.taskId, { ...SNAPSHOT, collectedAt: `${day}T11:00:00.000Z` }),
      '/collectedAt',
    );

    const analytics = await s.call('GET', `/v2/posts/${postId}/analytics?limit=2`);
    assert.equal(analytics.status, 200, JSON.stringify(analytics.body));
    // The latest snapshot of each account adds up: 200 + 50 views, 18 engagements.
    const summary = analytics.body.summary;
    assert.deepEqual(
      { ...summary, engagementRate: undefined },
      {
        views: 250,
        likes: 11,
        comments: 4,
        shares: 2,
        saves: 1,
        engagementRate: undefined,
        lastUpdated: `${day}T15:00:00.000Z`,
        postUrl: urlA,
        accountId: accA,
        platform: 'platformA',
      },
    );
    // DECISIONS 7: (11 + 4 + 2 + 1) / 250 = 7.2 %.
    assert.equal(summary.engagementRate, 7.2);
    assert.equal(summary.engagementRate, engagementRate(250, 11, 4, 2, 1));
    // History: newest first, two per page, then the rest with the cursor.
    assert.deepEqual(
      analytics.body.history.map((h: any) => h.id),
      [late.body.id, other.body.id],
    );
    assert.deepEqual(analytics.body.history[0], late.body);
    const next = await s.call(
      'GET',
      `/v2/posts/${postId}/analytics?limit=2&cursor=${encodeURIComponent(analytics.body.nextCursor)}`,
    );
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.deepEqual(
      next.body.history.map((h: any) => h.id),
      [early.body.id],
    );
    assert.equal(next.body.nextCursor, null);
  });

  test('account stats reach the account analytics and the account’s followers', async () => {
    const t = get();
    const day = '2026-03-06';
    const s = await setup(t, day, { accounts: 1 });
    const [acc] = s.accounts as [string];
    const before = await s.call('GET', `/v2/accounts/${acc}/analytics`);
    assert.equal(before.body.scannedPosts, 0);
    const stats = {
      followers: 1234,
      posts: 56,
      engagement: 3.14159,
      views: 10_000,
      likes: 700,
      comments: 40,
      scannedPosts: 12,
      status: 'active',
    };
    const put = await s.work('PUT', `/worker/v1/accounts/${acc}/stats`, stats);
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const expected = {
      accountId: acc,
      followers: 1234,
      posts: 56,
      engagement: 3.14,
      analytics: { views: 10_000, likes: 700, comments: 40 },
      scannedPosts: 12,
    };
    assert.deepEqual(put.body, expected);
    const read = await s.call('GET', `/v2/accounts/${acc}/analytics`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(read.body, expected);
    const account = await s.call('GET', `/v2/accounts/${acc}`);
    assert.equal(account.body.followers, 1234);
    assert.equal(account.body.status, 'active');
    // A later report replaces the figures; leaving out status keeps it.
    const again = await s.work('PUT', `/worker/v1/accounts/${acc}/stats`, {
      ...STATS,
      followers: 1300,
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal((await s.call('GET', `/v2/accounts/${acc}/analytics`)).body.followers, 1300);
    const after = await s.call('GET', `/v2/accounts/${acc}`);
    assert.equal(after.body.followers, 1300);
    assert.equal(after.body.status, 'active');
    assertApiError(
      await s.work('PUT', '/worker/v1/accounts/acc_doesnotexist/stats', STATS),
      404,
      'account_not_found',
    );
  });

  test('report deadlines fail unclaimed and unreported tasks; a late posted report settles', async () => {
    const t = get();
    const day = '2026-03-07';
    const s = await setup(t, day, { accounts: 3 });
    const [accA, accB, accC] = s.accounts as [string, string, string];
    // Fail what earlier tests left open, so the counts below are this test's alone.
    await failOverdueTasks(t.ctx, new Date(`${day}T10:00:00.000Z`));
    const postId = await createPost(s, s.accounts);
    assert.equal(await releaseAt11(t, day), 3);
    t.clock.set(`${day}T11:30:00.000Z`);
    const taskA = await claimOne(s, accA);
    const taskB = await claimOne(s, accB);
    const [taskC] = (await s.work('GET', '/worker/v1/tasks?state=released')).body.data;
    assert.equal(taskC.accountId, accC);

    // The timeout (2 hours by default) runs from the release while unclaimed...
    const none = await failOverdueTasks(t.ctx, new Date(`${day}T12:59:59.999Z`));
    assert.deepEqual(none, { unclaimed: 0, unconfirmed: 0 });
    const unclaimed = await failOverdueTasks(t.ctx, new Date(`${day}T13:00:00.000Z`));
    assert.deepEqual(unclaimed, { unclaimed: 1, unconfirmed: 0 });
    // ...and from the claim once claimed.
    assert.deepEqual(await failOverdueTasks(t.ctx, new Date(`${day}T13:29:59.999Z`)), {
      unclaimed: 0,
      unconfirmed: 0,
    });
    const unconfirmed = await failOverdueTasks(t.ctx, new Date(`${day}T13:30:00.000Z`));
    assert.deepEqual(unconfirmed, { unclaimed: 0, unconfirmed: 2 });

    t.clock.set(`${day}T14:00:00.000Z`);
    const c = (await s.work('GET', `/worker/v1/tasks/${taskC.taskId}`)).body;
    assert.equal(c.state, 'failed');
    assert.equal(c.failureReason, UNCLAIMED_REASON);
    const a = (await s.work('GET', `/worker/v1/tasks/${taskA.taskId}`)).body;
    assert.equal(a.state, 'failed');
    assert.equal(a.failureReason, UNCONFIRMED_REASON);
    assert.notEqual(UNCLAIMED_REASON, UNCONFIRMED_REASON);
    const failedPost = (await s.call('GET', `/v2/posts/${postId}`)).body;
    assert.equal(failedPost.status, 'failed');
    // The company sees why each account's item failed.
    const errorOf = new Map(failedPost.accounts.map((e: any) => [e.accountId, e.error]));
    assert.equal(errorOf.get(c.accountId), UNCLAIMED_REASON);
    assert.equal(errorOf.get(a.accountId), UNCONFIRMED_REASON);
    assert.deepEqual((await s.work('GET', '/worker/v1/tasks')).body.data, [], 'nothing open');

    // The claiming worker did post A: its late report settles the task as posted.
    const late = await report(
      s,
      taskA.taskId,
      posted('https://platform-a.example/p/late', `${day}T12:00:00.000Z`),
    );
    assert.equal(late.status, 200, JSON.stringify(late.body));
    assert.equal(late.body.state, 'posted');
    assert.equal(late.body.failureReason, null);
    const view = await s.call('GET', `/v2/posts/${postId}`);
    assert.equal(view.body.status, 'partially_posted');
    assert.equal(
      view.body.accounts.find((x: any) => x.accountId === accA).postUrl,
      'https://platform-a.example/p/late',
    );
    assert.equal(
      (await s.call('GET', `/v2/accounts/${accA}`)).body.lastPostAt,
      `${day}T12:00:00.000Z`,
    );
    // A late `failed` changes nothing; an unclaimed task was never posted by anyone.
    assertApiError(
      await report(s, taskB.taskId, { outcome: 'failed', reason: 'x' }),
      409,
      'task_already_reported',
    );
    assertApiError(
      await report(s, taskC.taskId, posted('https://platform-a.example/p/c')),
      409,
      'task_already_reported',
    );
  });

  test('cancelling a posting post skips its released items; posted items are never deleted', async () => {
    const t = get();
    const day = '2026-03-08';
    const s = await setup(t, day, { accounts: 3 });
    const [accA, accB, accC] = s.accounts as [string, string, string];
    // C's only window is 17:00, so its item is still queued at 11:00.
    const schedule = await s.call('PATCH', `/v2/accounts/${accC}/schedule`, {
      schedule: { windows: ['17:00'] },
    });
    assert.equal(schedule.status, 200, JSON.stringify(schedule.body));
    const postId = await createPost(s, s.accounts);
    assert.equal(await releaseAt11(t, day), 2);
    t.clock.set(`${day}T11:10:00.000Z`);
    const taskA = await claimOne(s, accA);
    const taskB = await claimOne(s, accB);
    assert.equal((await report(s, taskA.taskId, posted('https://x.example/p/a'))).status, 200);

    const cancel = await s.call('DELETE', `/v2/posts/${postId}`);
    assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
    assert.deepEqual(cancel.body.cancellation.cancelled, [accC]);
    const skipped = Object.fromEntries(
      cancel.body.cancellation.skipped.map((x: any) => [x.accountId, x.reason]),
    );
    assert.deepEqual(skipped, { [accA]: 'already_posted', [accB]: 'currently_posting' });
    // The released task stays with its worker, who can still report it.
    assert.equal((await s.work('GET', `/worker/v1/tasks/${taskB.taskId}`)).body.state, 'claimed');
    assert.equal((await report(s, taskB.taskId, posted('https://x.example/p/b'))).status, 200);
    await t.media.idle();
    await t.media.idle();
    const items = await t.ctx.db
      .selectFrom('queue_items')
      .select(['account_id', 'status', 'post_url'])
      .where('post_id', '=', postId)
      .orderBy('account_id')
      .execute();
    assert.deepEqual(Object.fromEntries(items.map((i) => [i.account_id, [i.status, i.post_url]])), {
      [accA]: ['posted', 'https://x.example/p/a'],
      [accB]: ['posted', 'https://x.example/p/b'],
      [accC]: ['cancelled', null],
    });
    const view = await s.call('GET', `/v2/posts/${postId}`);
    assert.equal(view.body.status, 'partially_posted');
    assert.equal(view.body.accounts.length, 3);
    // Cancelling again finds nothing to cancel and leaves the posted items alone.
    assertApiError(await s.call('DELETE', `/v2/posts/${postId}`), 409, 'post_not_cancellable');
    const still = await t.ctx.db
      .selectFrom('queue_items')
      .select('status')
      .where('post_id', '=', postId)
      .execute();
    assert.equal(still.filter((i) => i.status === 'posted').length, 2, 'posted items stay');
    const analytics = await s.work('POST', `/worker/v1/tasks/${taskA.taskId}/analytics`, SNAPSHOT);
    assert.equal(analytics.status, 201, 'a posted task of a cancelled post still takes analytics');
  });

  test('an account takes its worker’s timezone and follows it when the worker moves', async () => {
    const t = get();
    const day = '2026-03-09';
    const s = await setup(t, day, { accounts: 1, timezone: 'Asia/Tokyo' });
    const [acc] = s.accounts as [string];
    assert.equal((await s.call('GET', `/v2/accounts/${acc}`)).body.timezone, 'Asia/Tokyo');
    await updateWorker(t.ctx.db, t.ctx.clock, s.workerId, { timezone: 'America/New_York' });
    assert.equal((await s.call('GET', `/v2/accounts/${acc}`)).body.timezone, 'America/New_York');
    const heartbeat = await s.work('POST', '/worker/v1/heartbeat');
    assert.equal(heartbeat.body.timezone, 'America/New_York');
    assert.equal(heartbeat.body.accounts[0].timezone, 'America/New_York');
    // Windows follow: 11:00 UTC is 06:00 in New York, before any window of the day.
    await createPost(s, [acc]);
    assert.equal(await releaseAt11(t, day), 0, 'no release outside the worker’s local windows');
    t.clock.set(`${day}T13:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1, 'released at 08:00 local');
    // Another worker taking the account brings its own timezone.
    const other = await createWorker(t.ctx.db, t.ctx.clock, {
      name: 'other',
      timezone: 'Europe/Berlin',
    });
    await assignAccounts(t.ctx.db, t.ctx.clock, other.workerId, [acc]);
    assert.equal((await s.call('GET', `/v2/accounts/${acc}`)).body.timezone, 'Europe/Berlin');
    await updateWorker(t.ctx.db, t.ctx.clock, s.workerId, { timezone: 'Asia/Tokyo' });
    assert.equal((await s.call('GET', `/v2/accounts/${acc}`)).body.timezone, 'Europe/Berlin');
  });

  test('concurrent claims take each task exactly once', async () => {
    const t = get();
    const day = '2026-03-10';
    const s = await setup(t, day, { accounts: 50, plan: 'scale' });
    await createPost(s, s.accounts);
    assert.equal(await releaseAt11(t, day), 50);
    const rounds = await Promise.all(
      Array.from({ length: 20 }, () => s.work('POST', '/worker/v1/tasks/claim', { limit: 5 })),
    );
    const ids = rounds.flatMap((r) => {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.data.map((x: any) => x.taskId as string);
    });
    assert.equal(ids.length, 50, `${dialect}: every task claimed`);
    assert.equal(new Set(ids).size, 50, `${dialect}: no task claimed twice`);
    const rows = await t.ctx.db
      .selectFrom('queue_items')
      .select(['id', 'claimed_by', 'claimed_at'])
      .where('account_id', 'in', s.accounts)
      .execute();
    assert.ok(
      rows.every((r) => r.claimed_by === s.workerId && r.claimed_at !== null),
      'every item records its claim',
    );
    assert.deepEqual(rows.map((r) => r.id).sort(), [...ids].sort());
    assert.deepEqual(await claim(s, { limit: 50 }), []);
  });

  test('request bodies: every bound, last valid and first invalid, unknown keys refused', async () => {
    const t = get();
    const day = '2026-03-11';
    const s = await setup(t, day, { accounts: 4 });
    await createPost(s, s.accounts);
    assert.equal(await releaseAt11(t, day), 4);
    const bad = 'qit_doesnotexist';

    // Claim: limit 1-50, integers only, accountId non-empty, no other keys.
    for (const [body, pointer] of [
      [{ limit: 0 }, '/limit'],
      [{ limit: 51 }, '/limit'],
      [{ limit: 1.5 }, '/limit'],
      [{ limit: '5' }, '/limit'],
      [{ accountId: '' }, '/accountId'],
      [{ limit: 1, extra: true }, '/extra'],
    ] as const) {
      assertInvalidBody(await s.work('POST', '/worker/v1/tasks/claim', body), pointer);
    }
    assertInvalidBody(await s.work('POST', '/worker/v1/tasks/claim', []), '/');
    assertApiError(
      await s.work('POST', '/worker/v1/tasks/claim', { accountId: 'acc_doesnotexist' }),
      400,
      'account_not_found',
      { startsWith: '/accountId' },
    );
    t.clock.set(`${day}T11:10:00.000Z`);
    assert.equal((await claim(s, { limit: 1 })).length, 1, 'limit 1');
    assert.equal((await claim(s, { limit: 50 })).length, 3, 'limit 50');
    const tasks = (await s.work('GET', '/worker/v1/tasks?state=claimed&limit=100')).body.data;
    const [t1, t2, t3, t4] = tasks.map((x: any) => x.taskId) as [string, string, string, string];

    // List query: limit 1-100.
    for (const q of ['limit=0', 'limit=101', 'state=posted', 'other=1']) {
      assertApiError(await s.work('GET', `/worker/v1/tasks?${q}`), 400, 'invalid_request');
    }
    assert.equal((await s.work('GET', '/worker/v1/tasks?limit=100')).status, 200);

    // Result: reason 1-500 characters and not blank; postUrl http(s), at most 2048.
    const longUrl = (n: number) => {
      const base = 'https://platform-a.example/p/';
      return base + 'a'.repeat(n - base.length);
    };
    for (const [body, pointer] of [
      [{ outcome: 'failed', reason: '' }, '/reason'],
      [{ outcome: 'failed', reason: '   ' }, '/reason'],
      [{ outcome: 'failed', reason: 'x'.repeat(501) }, '/reason'],
      [{ outcome: 'failed' }, '/reason'],
      [{ outcome: 'failed', reason: 'x', postUrl: 'https://x.example/' }, '/postUrl'],
      [{ outcome: 'posted' }, '/postUrl'],
      [{ outcome: 'posted', postUrl: longUrl(2049) }, '/postUrl'],
      [{ outcome: 'posted', postUrl: 'ftp://x.example/p' }, '/postUrl'],
      [{ outcome: 'posted', postUrl: 'not a url' }, '/postUrl'],
      [{ outcome: 'posted', postUrl: 'https://x.example/p', reason: 'x' }, '/reason'],
      [{ outcome: 'posted', postUrl: 'https://x.example/p', postedAt: 'today' }, '/postedAt'],
      [{ outcome: 'posted', postUrl: 'https://x.example/p', extra: 1 }, '/extra'],
      [{ outcome: 'deleted' }, '/outcome'],
      [{}, '/outcome'],
    ] as const) {
      assertInvalidBody(await report(s, t1, body), pointer);
      assertInvalidBody(await report(s, bad, body), pointer);
    }
    assert.equal((await itemRow(t, t1)).status, 'posting', 'invalid reports change nothing');
    const r1 = await report(s, t1, { outcome: 'failed', reason: 'x' });
    assert.equal(r1.status, 200, JSON.stringify(r1.body));
    const r2 = await report(s, t2, { outcome: 'failed', reason: 'é'.repeat(500) });
    assert.equal(r2.status, 200, JSON.stringify(r2.body));
    assert.equal(r2.body.failureReason, 'é'.repeat(500));
    const r3 = await report(s, t3, posted(longUrl(2048)));
    assert.equal(r3.status, 200, JSON.stringify(r3.body));
    assert.equal(r3.body.postUrl.length, 2048);
    const r4 = await report(s, t4, posted('http://x.example/p'));
    assert.equal(r4.status, 200, JSON.stringify(r4.body));

    // Snapshots: whole counters from 0 to 2^53 - 1; no other keys.
    const push = (taskId: string, body: object) =>
      s.work('POST', `/worker/v1/tasks/${taskId}/analytics`, body);
    for (const key of Object.keys(SNAPSHOT)) {
      for (const value of [-1, 1.5, '1', null, Number.MAX_SAFE_INTEGER + 1]) {
        assertInvalidBody(await push(t3, { ...SNAPSHOT, [key]: value }), `/${key}`);
      }
      const { [key]: _dropped, ...missing } = SNAPSHOT as Record<string, number>;
      assertInvalidBody(await push(t3, missing), `/${key}`);
    }
    assertInvalidBody(await push(t3, { ...SNAPSHOT, extra: 1 }), '/extra');
    assertInvalidBody(await push(t3, { ...SNAPSHOT, collectedAt: 'now' }), '/collectedAt');
    assert.equal((await push(t3, SNAPSHOT)).status, 201, 'all counters 0');
    const max = Object.fromEntries(Object.keys(SNAPSHOT).map((k) => [k, Number.MAX_SAFE_INTEGER]));
    const big = await push(t3, max);
    assert.equal(big.status, 201, JSON.stringify(big.body));
    assert.equal(big.body.views, Number.MAX_SAFE_INTEGER);

    // Account stats: whole counters, engagement 0-1,000,000, a known status; no other keys.
    const [acc] = s.accounts as [string];
    const stats = (body: object) => s.work('PUT', `/worker/v1/accounts/${acc}/stats`, body);
    for (const key of ['followers', 'posts', 'views', 'likes', 'comments', 'scannedPosts']) {
      for (const value of [-1, 1.5, '1', Number.MAX_SAFE_INTEGER + 1]) {
        assertInvalidBody(await stats({ ...STATS, [key]: value }), `/${key}`);
      }
    }
    // Followers are kept in a 32-bit column: 2^31 - 1 at most.
    assertInvalidBody(await stats({ ...STATS, followers: 2_147_483_648 }), '/followers');
    for (const value of [-0.01, 1_000_000.01, '1']) {
      assertInvalidBody(await stats({ ...STATS, engagement: value }), '/engagement');
    }
    assertInvalidBody(await stats({ ...STATS, status: 'pending_setup' }), '/status');
    assertInvalidBody(await stats({ ...STATS, extra: 1 }), '/extra');
    assertInvalidBody(await stats({ ...STATS, followers: undefined }), '/followers');
    assert.equal((await stats(STATS)).status, 200, 'all zero');
    const top = await stats({
      ...Object.fromEntries(Object.keys(STATS).map((k) => [k, Number.MAX_SAFE_INTEGER])),
      followers: 2_147_483_647,
      engagement: 1_000_000,
    });
    assert.equal(top.status, 200, JSON.stringify(top.body));
    assert.equal(top.body.followers, 2_147_483_647);
    assert.equal(top.body.posts, Number.MAX_SAFE_INTEGER);
    assert.equal(top.body.engagement, 1_000_000);
    const read = await s.call('GET', `/v2/accounts/${acc}/analytics`);
    assert.deepEqual(read.body, top.body, 'the largest values read back exactly');
  });
});
