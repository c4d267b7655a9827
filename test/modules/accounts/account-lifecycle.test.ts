// The account lifecycle on both databases (DECISIONS 7): the worker reports `warming_up`,
// `active` or `disconnected`; the company pauses and resumes; nothing is released to
// `pending_setup`, `paused` or `disconnected` accounts, whose queues say why; every change is
// kept with its time; the simulator sets its accounts up, so the demo posts on its own.
// Everything goes through HTTP (accounts are set up through the worker API) and a fake clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError, assertInvalidBody } from '../../helpers/api-error.ts';
import { makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { simulatePass } from '../../../src/simulator/simulator.ts';
import { seedDemo } from '../../../src/cli/seed.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

interface Setup {
  call: CallFn;
  /** Worker token client of the worker operating `accounts`. */
  work: CallFn;
  companyId: string;
  accounts: string[];
  keyWith: (
    scopes: Parameters<Awaited<ReturnType<typeof seedCompany>>['keyWith']>[0],
  ) => Promise<string>;
}

/** A company whose `n` new accounts are operated by a fresh (non-simulated) worker. */
async function setup(t: TestApp, day: string, n = 1): Promise<Setup> {
  t.clock.set(`${day}T10:00:00.000Z`);
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const accounts = await makeAccounts(call, n);
  const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: `w ${day}`, timezone: 'UTC' });
  await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, accounts);
  return {
    call,
    work: client(t, worker.token),
    companyId: co.companyId,
    accounts,
    keyWith: co.keyWith,
  };
}

function report(s: Setup, accountId: string, body: unknown) {
  return s.work('PUT', `/worker/v1/accounts/${accountId}/status`, body);
}

async function reportOk(s: Setup, accountId: string, body: object) {
  const res = await report(s, accountId, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function account(s: Setup, accountId: string) {
  const res = await s.call('GET', `/v2/accounts/${accountId}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function queue(s: Setup, accountId: string) {
  const res = await s.call('GET', `/v2/accounts/${accountId}/queue`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as Record<string, unknown>[];
}

async function itemStatuses(t: TestApp, accountIds: string[]) {
  const rows = await t.ctx.db
    .selectFrom('queue_items')
    .select(['account_id', 'status'])
    .where('account_id', 'in', accountIds)
    .execute();
  const out: Record<string, string[]> = {};
  for (const r of rows) (out[r.account_id] ??= []).push(r.status);
  return out;
}

describeEachDialect('account lifecycle', (get) => {
  test('the worker reports status: warm-up terms, auth, only its accounts, validated body', async () => {
    const t = get();
    const s = await setup(t, '2026-03-02', 2);
    const [acc, other] = s.accounts as [string, string];
    const created = await account(s, acc);
    assert.equal(created.status, 'pending_setup');
    assert.equal(created.statusSince, '2026-03-02T10:00:00.000Z');
    assert.equal(created.statusReason, null);

    t.clock.set('2026-03-02T10:05:00.000Z');
    const warming = await reportOk(s, acc, { status: 'warming_up' });
    assert.deepEqual(warming, {
      accountId: acc,
      platform: 'platformA',
      username: created.username,
      timezone: 'UTC',
      status: 'warming_up',
      statusSince: '2026-03-02T10:05:00.000Z',
      reportedStatus: 'warming_up',
      reportedAt: '2026-03-02T10:05:00.000Z',
      // What to warm the account up with.
      warmup: { searchTerms: ['cooking'] },
    });
    const beat = await s.work('POST', '/worker/v1/heartbeat');
    const listed = beat.body.accounts.find((a: { accountId: string }) => a.accountId === acc);
    assert.equal(listed.reportedStatus, 'warming_up');
    assert.deepEqual(listed.warmup, { searchTerms: ['cooking'] });
    const got = await account(s, acc);
    assert.equal(got.status, 'warming_up');
    assert.equal(got.statusSince, '2026-03-02T10:05:00.000Z');

    // Repeating the status changes nothing, not even since when.
    t.clock.set('2026-03-02T10:06:00.000Z');
    assert.equal(
      (await reportOk(s, acc, { status: 'warming_up' })).statusSince,
      '2026-03-02T10:05:00.000Z',
    );
    t.clock.set('2026-03-02T10:07:00.000Z');
    await reportOk(s, acc, { status: 'disconnected', reason: 'password changed' });
    const lost = await account(s, acc);
    assert.equal(lost.status, 'disconnected');
    assert.equal(lost.statusSince, '2026-03-02T10:07:00.000Z');
    assert.equal(lost.statusReason, 'password changed');

    // Only a worker token, and only for the accounts this worker operates.
    assertApiError(
      await client(t, null)('PUT', `/worker/v1/accounts/${acc}/status`, { status: 'active' }),
      401,
      'unauthorized',
    );
    assertApiError(
      await s.call('PUT', `/worker/v1/accounts/${acc}/status`, { status: 'active' }),
      401,
      'unauthorized',
    );
    const stranger = await createWorker(t.ctx.db, t.ctx.clock, {
      name: 'stranger',
      timezone: 'UTC',
    });
    const asStranger = client(t, stranger.token);
    assertApiError(
      await asStranger('PUT', `/worker/v1/accounts/${acc}/status`, { status: 'active' }),
      404,
      'account_not_found',
      { includes: acc },
    );
    assertApiError(await report(s, 'acc_unknown', { status: 'active' }), 404, 'account_not_found');
    await assignAccounts(t.ctx.db, t.ctx.clock, null, [other]);
    assertApiError(await report(s, other, { status: 'active' }), 404, 'account_not_found');

    // Only the three worker statuses; `paused` is the company's.
    assertInvalidBody(await report(s, acc, { status: 'paused' }), '/status');
    assertInvalidBody(await report(s, acc, { status: 'pending_setup' }), '/status');
    assertInvalidBody(await report(s, acc, {}), '/status');
    assertInvalidBody(await report(s, acc, { status: 'active', reason: '  ' }), '/reason');
    assertInvalidBody(await report(s, acc, { status: 'active', extra: 1 }), '/extra');
    assertInvalidBody(
      await s.work('PUT', `/worker/v1/accounts/${acc}/stats`, {
        followers: 0,
        posts: 0,
        engagement: 0,
        views: 0,
        likes: 0,
        comments: 0,
        scannedPosts: 0,
        status: 'paused',
      }),
      '/status',
    );
    assert.equal((await account(s, acc)).status, 'disconnected', 'refused reports change nothing');
  });

  test('pause and resume: accounts:write, idempotent, back to the last reported status', async () => {
    const t = get();
    const s = await setup(t, '2026-03-03', 1);
    const [acc] = s.accounts as [string];
    await reportOk(s, acc, { status: 'active' });

    const reader = client(t, await s.keyWith(['accounts:read']));
    assertApiError(await reader('POST', `/v2/accounts/${acc}/pause`), 403, 'insufficient_scope', {
      includes: 'accounts:write',
    });
    const other = client(t, (await seedCompany(t)).key);
    assertApiError(await other('POST', `/v2/accounts/${acc}/pause`), 404, 'account_not_found');
    assertApiError(await other('POST', `/v2/accounts/${acc}/resume`), 404, 'account_not_found');
    assertApiError(
      await s.call('POST', '/v2/accounts/acc_unknown/pause'),
      404,
      'account_not_found',
    );
    assert.equal((await account(s, acc)).status, 'active', 'refused calls change nothing');

    t.clock.set('2026-03-03T10:10:00.000Z');
    const paused = await s.call('POST', `/v2/accounts/${acc}/pause`);
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    assert.equal(paused.body.status, 'paused');
    assert.equal(paused.body.statusSince, '2026-03-03T10:10:00.000Z');
    assert.equal(paused.body.nextWindow, null, 'no window is promised while paused');
    t.clock.set('2026-03-03T10:11:00.000Z');
    const again = await s.call('POST', `/v2/accounts/${acc}/pause`, {});
    assert.equal(again.status, 200, 'pausing a paused account answers it as is');
    assert.equal(again.body.statusSince, '2026-03-03T10:10:00.000Z');

    // A report while paused is kept, and does not unpause.
    t.clock.set('2026-03-03T10:12:00.000Z');
    const meanwhile = await reportOk(s, acc, { status: 'disconnected', reason: 'logged out' });
    assert.equal(meanwhile.status, 'paused');
    assert.equal(meanwhile.reportedStatus, 'disconnected');
    assert.equal((await account(s, acc)).status, 'paused');
    assert.equal((await account(s, acc)).statusReason, null);

    t.clock.set('2026-03-03T10:13:00.000Z');
    const resumed = await s.call('POST', `/v2/accounts/${acc}/resume`);
    assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
    assert.equal(resumed.body.status, 'disconnected', 'back to what the worker last reported');
    assert.equal(resumed.body.statusReason, 'logged out');
    assert.equal(resumed.body.statusSince, '2026-03-03T10:13:00.000Z');
    const twice = await s.call('POST', `/v2/accounts/${acc}/resume`);
    assert.equal(twice.status, 200, 'resuming a running account answers it as is');
    assert.equal(twice.body.status, 'disconnected');
    assert.equal(twice.body.statusSince, '2026-03-03T10:13:00.000Z');

    // The list shows the same status.
    const list = await s.call('GET', '/v2/accounts');
    assert.equal(list.body.data[0].status, 'disconnected');
    assert.equal(list.body.data[0].statusSince, '2026-03-03T10:13:00.000Z');
    assert.equal(list.body.data[0].nextWindow, null);
  });

  test('releases go to active and warming_up accounts only; the others keep their queue', async () => {
    const t = get();
    const s = await setup(t, '2026-03-04', 5);
    const [active, warming, pending, paused, lost] = s.accounts as [
      string,
      string,
      string,
      string,
      string,
    ];
    await reportOk(s, active, { status: 'active' });
    await reportOk(s, warming, { status: 'warming_up' });
    await reportOk(s, paused, { status: 'active' });
    assert.equal((await s.call('POST', `/v2/accounts/${paused}/pause`)).status, 200);
    await reportOk(s, lost, { status: 'disconnected' });
    const image = await readyUpload(t, s.call, 'image.png');
    const posts: string[] = [];
    for (const priority of [0, 5]) {
      const res = await s.call('POST', '/v2/posts', {
        media: [image],
        accountIds: s.accounts,
        skipApproval: true,
        priority,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      posts.push(res.body.postId);
    }
    // The 11:00 UTC window.
    t.clock.set('2026-03-04T11:00:00.000Z');
    const pass = await releaseDue(t.ctx, t.clock.now());
    assert.deepEqual([pass.accounts, pass.released], [2, 2]);
    const statuses = await itemStatuses(t, s.accounts);
    for (const acc of [active, warming])
      assert.deepEqual(statuses[acc]?.sort(), ['posting', 'queued']);
    for (const acc of [pending, paused, lost])
      assert.deepEqual(statuses[acc], ['queued', 'queued']);

    // The queues of blocked accounts keep their order and say why nothing is planned.
    const reasons: [string, string][] = [
      [pending, 'account_pending_setup'],
      [paused, 'account_paused'],
      [lost, 'account_disconnected'],
    ];
    for (const [acc, reason] of reasons) {
      const items = await queue(s, acc);
      assert.deepEqual(
        items.map((i) => [i.postId, i.status, i.notPlannedReason, i.scheduledSlotStart]),
        [
          [posts[1], 'queued', reason, undefined],
          [posts[0], 'queued', reason, undefined],
        ],
        acc,
      );
      assert.equal((await account(s, acc)).nextWindow, null);
      assert.equal((await account(s, acc)).queueDepth, 2);
    }
    const planned = await queue(s, active);
    assert.equal(planned[1]?.scheduledSlotStart, '2026-03-04T14:00:00.000Z');
    assert.equal(planned[1]?.notPlannedReason, undefined);

    // Resumed and reconnected, they go out in their order at the next window.
    assert.equal((await s.call('POST', `/v2/accounts/${paused}/resume`)).body.status, 'active');
    await reportOk(s, lost, { status: 'active' });
    await reportOk(s, pending, { status: 'warming_up' });
    const next = await queue(s, paused);
    assert.equal(next[0]?.postId, posts[1]);
    // The 11:00 window is still open and nothing went out in it for this account.
    assert.equal(next[0]?.scheduledSlotStart, '2026-03-04T11:00:00.000Z');
    assert.equal(next[0]?.notPlannedReason, undefined);
    t.clock.set('2026-03-04T11:00:15.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 3);
    const released = await t.ctx.db
      .selectFrom('queue_items')
      .select(['account_id', 'post_id'])
      .where('account_id', 'in', [pending, paused, lost])
      .where('status', '=', 'posting')
      .execute();
    assert.deepEqual(
      released.map((r) => r.post_id),
      [posts[1], posts[1], posts[1]],
      'the higher priority item first',
    );
  });

  test('a new account gets nothing released until its worker reports it', async () => {
    const t = get();
    const s = await setup(t, '2026-03-08', 1);
    const [acc] = s.accounts as [string];
    const image = await readyUpload(t, s.call, 'image.png');
    const res = await s.call('POST', '/v2/posts', {
      media: [image],
      accountIds: [acc],
      skipApproval: true,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    t.clock.set('2026-03-08T11:00:00.000Z');
    await releaseDue(t.ctx, t.clock.now());
    assert.deepEqual(await itemStatuses(t, [acc]), { [acc]: ['queued'] });
    const [item] = await queue(s, acc);
    assert.equal(item?.status, 'queued');
    assert.equal(item?.scheduledSlotStart, undefined);
    assert.equal(item?.notPlannedReason, 'account_pending_setup');
  });

  test('every change is kept with its time: GET status-history, newest first, paged', async () => {
    const t = get();
    const s = await setup(t, '2026-03-05', 1);
    const [acc] = s.accounts as [string];
    const at = (hhmm: string) => `2026-03-05T${hhmm}:00.000Z`;
    t.clock.set(at('10:01'));
    await reportOk(s, acc, { status: 'warming_up' });
    t.clock.set(at('10:02'));
    await reportOk(s, acc, { status: 'active' });
    t.clock.set(at('10:03'));
    await s.call('POST', `/v2/accounts/${acc}/pause`);
    t.clock.set(at('10:04'));
    await reportOk(s, acc, { status: 'disconnected', reason: 'checkpoint' });
    t.clock.set(at('10:05'));
    await s.call('POST', `/v2/accounts/${acc}/resume`);
    await s.call('POST', `/v2/accounts/${acc}/resume`); // no change, no entry

    const expected = [
      {
        status: 'disconnected',
        reportedStatus: 'disconnected',
        source: 'company',
        reason: null,
        at: at('10:05'),
      },
      {
        status: 'paused',
        reportedStatus: 'disconnected',
        source: 'worker',
        reason: 'checkpoint',
        at: at('10:04'),
      },
      {
        status: 'paused',
        reportedStatus: 'active',
        source: 'company',
        reason: null,
        at: at('10:03'),
      },
      {
        status: 'active',
        reportedStatus: 'active',
        source: 'worker',
        reason: null,
        at: at('10:02'),
      },
      {
        status: 'warming_up',
        reportedStatus: 'warming_up',
        source: 'worker',
        reason: null,
        at: at('10:01'),
      },
      {
        status: 'pending_setup',
        reportedStatus: 'pending_setup',
        source: 'system',
        reason: null,
        at: at('10:00'),
      },
    ];
    const all = await s.call('GET', `/v2/accounts/${acc}/status-history`);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(all.body, { data: expected, nextCursor: null });
    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/v2/accounts/${acc}/status-history?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await s.call('GET', url);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      seen.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, expected);
    assert.equal((await account(s, acc)).statusSince, at('10:05'));

    const other = client(t, (await seedCompany(t)).key);
    assertApiError(
      await other('GET', `/v2/accounts/${acc}/status-history`),
      404,
      'account_not_found',
    );
    const postsOnly = client(t, await s.keyWith(['posts:read']));
    assertApiError(
      await postsOnly('GET', `/v2/accounts/${acc}/status-history`),
      403,
      'insufficient_scope',
    );
    assertApiError(
      await s.call('GET', `/v2/accounts/${acc}/status-history?cursor=nope`),
      400,
      'invalid_cursor',
    );
  });

  test('the simulator warms its accounts up, then reports them active', async () => {
    const t = get();
    t.clock.set('2026-03-06T06:00:00.000Z');
    const call = client(t, (await seedCompany(t)).key);
    const [acc] = (await makeAccounts(call, 1)) as [string];
    const sim = await createWorker(t.ctx.db, t.ctx.clock, {
      name: 'Sim',
      timezone: 'UTC',
      simulated: true,
    });
    await assignAccounts(t.ctx.db, t.ctx.clock, sim.workerId, [acc]);
    const status = async () => (await call('GET', `/v2/accounts/${acc}`)).body.status;
    assert.equal((await simulatePass(t.ctx, t.clock.now())).statusReports, 1);
    assert.equal(await status(), 'warming_up');
    t.clock.set('2026-03-06T06:00:30.000Z');
    assert.equal((await simulatePass(t.ctx, t.clock.now())).statusReports, 0);
    assert.equal(await status(), 'warming_up', 'still warming up after 30 s');
    t.clock.set('2026-03-06T06:01:00.000Z');
    assert.equal((await simulatePass(t.ctx, t.clock.now())).statusReports, 1);
    assert.equal(await status(), 'active');
    const history = (await call('GET', `/v2/accounts/${acc}/status-history`)).body.data;
    assert.deepEqual(
      history.map((h: { status: string; source: string; at: string }) => [
        h.status,
        h.source,
        h.at,
      ]),
      [
        ['active', 'worker', '2026-03-06T06:01:00.000Z'],
        ['warming_up', 'worker', '2026-03-06T06:00:00.000Z'],
        ['pending_setup', 'system', '2026-03-06T06:00:00.000Z'],
      ],
    );
  });

  test('the demo posts on its own: simulator and dispatcher passes only', async () => {
    const t = get();
    t.clock.set('2026-03-07T05:00:00.000Z');
    const demo = await seedDemo(t.ctx);
    const call = client(t, demo.apiKey);
    for (const id of demo.accountIds) {
      assert.equal((await call('GET', `/v2/accounts/${id}`)).body.status, 'pending_setup');
    }
    // The first window opens within 3 minutes of the seed.
    assert.ok(Date.parse(demo.nextWindow) - t.clock.now().getTime() <= 3 * 60_000);
    // The service runs both every few seconds; every minute is enough here.
    let posted = 0;
    const end = Date.parse(demo.nextWindow) + 10 * 60_000;
    for (let ms = t.clock.now().getTime(); ms <= end && posted === 0; ms += 60_000) {
      t.clock.set(new Date(ms).toISOString());
      await simulatePass(t.ctx, t.clock.now());
      await releaseDue(t.ctx, t.clock.now());
      const rows = await t.ctx.db
        .selectFrom('queue_items')
        .select('id')
        .where('account_id', 'in', demo.accountIds)
        .where('status', '=', 'posted')
        .execute();
      posted = rows.length;
    }
    assert.ok(posted >= 1, `a demo post went out by its first window (${demo.nextWindow})`);
    for (const id of demo.accountIds) {
      assert.equal((await call('GET', `/v2/accounts/${id}`)).body.status, 'active');
    }
  });
});
