// The simulator worker on both databases, driven by the fake clock: release, claim, post
// after the delay, then snapshots and account statistics that the analytics API shows; tasks
// released after the simulator's clock, refused reports, and the `simulate` and `dispatch`
// commands run with `--at`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { useCli, type CliRun } from '../helpers/cli.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { makeAccounts, readyUpload, setAccountStatus, type CallFn } from '../helpers/posts.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { dispatchPass } from '../../src/dispatch/loop.ts';
import { ApiError } from '../../src/errors.ts';
import {
  describeRefusal,
  SimulatorRefusal,
  simulatedFigures,
  simulatedPostUrl,
  simulatePass,
  startSimulator,
  type Refusal,
  type SimulatorResult,
  type WorkerCalls,
} from '../../src/simulator/simulator.ts';
import {
  claimTask,
  listSimulatedWorkers,
  reportAccountStats,
  reportResult,
  assignAccounts,
  createWorker,
  revokeWorker,
} from '../../src/modules/workers/index.ts';

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

/** Items of the accounts with the times a worker's reports are checked against. */
async function taskTimes(t: TestApp, accountIds: string[]) {
  return t.ctx.db
    .selectFrom('queue_items')
    .select(['id', 'account_id', 'status', 'released_at', 'claimed_at', 'posted_at'])
    .where('account_id', 'in', accountIds)
    .orderBy('account_id')
    .execute();
}

/** A simulated worker operating new accounts that receive releases (`active`). */
async function simulatedSetup(t: TestApp, name: string, n: number) {
  const call = client(t, (await seedCompany(t)).key);
  const accounts = await makeAccounts(call, n, 'platformA');
  const worker = await createWorker(t.ctx.db, t.ctx.clock, {
    name,
    timezone: 'Europe/Berlin',
    simulated: true,
  });
  await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, accounts);
  await setAccountStatus(t, accounts);
  const principal = (await listSimulatedWorkers(t.ctx.db)).find(
    (w) => w.workerId === worker.workerId,
  );
  assert.ok(principal, 'the worker is simulated');
  const video = await readyUpload(t, call, 'h264-noaudio.mp4');
  await post(call, video, accounts);
  return { accounts, principal };
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
  test('a task released ahead of the simulator clock waits, then posts after its release', async () => {
    const t = get();
    // 06:00 UTC is 07:00 in Berlin; the accounts' 08:00 window is an hour away.
    t.clock.set('2026-03-16T06:00:00.000Z');
    const { accounts, principal } = await simulatedSetup(t, 'Sim behind', 2);
    const [a, b] = accounts as [string, string];
    // A dispatcher run as if at 08:00:05 Berlin (`slotline dispatch --once --at`) releases
    // both tasks now, stamped with that later instant.
    const releasedAt = '2026-03-16T07:00:05.000Z';
    assert.equal((await releaseDue(t.ctx, new Date(releasedAt))).released, 2);
    // A claim made before the release, as by a worker whose clock is behind the dispatcher's.
    const early = await taskTimes(t, [b]);
    await claimTask(t.ctx, principal, early[0]?.id as string);

    for (const at of ['2026-03-16T06:00:00.000Z', '2026-03-16T07:00:04.999Z']) {
      t.clock.set(at);
      const r = await pass(t);
      assert.equal(r.claimed, 0, `nothing is claimed before the release (${at})`);
      assert.equal(r.posted, 0, `nothing is posted before the release (${at})`);
      assert.equal(r.notYetReleased, 2, `both tasks wait for their release: ${JSON.stringify(r)}`);
      assert.deepEqual(r.refused, [], 'nothing is reported that the worker rules refuse');
    }
    let rows = await taskTimes(t, [a, b]);
    assert.deepEqual(
      rows.map((r) => [r.status, r.claimed_at]),
      [
        ['posting', null],
        ['posting', '2026-03-16T06:00:00.000Z'],
      ],
    );

    t.clock.set(releasedAt);
    const claimed = await pass(t);
    assert.equal(claimed.claimed, 1, 'the unclaimed task is claimed once released');
    assert.equal(claimed.posted, 0, 'and posted only after the post delay');
    assert.equal(claimed.notYetReleased, 0);

    t.clock.set('2026-03-16T07:00:24.999Z');
    assert.equal((await pass(t)).posted, 0, 'the delay runs from the release when claimed before');
    t.clock.set('2026-03-16T07:00:25.000Z');
    const posted = await pass(t);
    assert.equal(posted.posted, 2, JSON.stringify(posted));
    assert.deepEqual(posted.refused, []);
    rows = await taskTimes(t, [a, b]);
    for (const row of rows) {
      assert.equal(row.status, 'posted');
      assert.equal(row.released_at, releasedAt);
      assert.equal(row.posted_at, '2026-03-16T07:00:25.000Z', 'posted 20 s after the release');
      assert.ok(
        Date.parse(row.posted_at) >= Date.parse(row.released_at),
        'never posted before its release',
      );
    }
  });

  test('a refused report is noted once and not sent again on the next passes', async () => {
    const t = get();
    t.clock.set('2026-03-23T06:00:00.000Z');
    const { accounts, principal } = await simulatedSetup(t, 'Sim refused', 1);
    t.clock.set('2026-03-23T07:00:05.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
    const [task] = await taskTimes(t, accounts);
    const taskId = task?.id as string;

    // A stricter rule in front of the result report: the worker API refuses this task's.
    let sent = 0;
    const workerCalls: Partial<WorkerCalls> = {
      reportResult: async (ctx, worker, id, input) => {
        if (id !== taskId) return reportResult(ctx, worker, id, input);
        sent++;
        throw new ApiError('invalid_request', '/postUrl is not a post of this account');
      },
    };
    const seen: Refusal[] = [];
    const options = {
      refused: new Set<string>(),
      onRefused: (r: Refusal) => seen.push(r),
      workerCalls,
    };

    assert.equal((await simulatePass(t.ctx, t.clock.now(), options)).claimed, 1);
    t.clock.set('2026-03-23T07:00:30.000Z');
    const first = await simulatePass(t.ctx, t.clock.now(), options);
    assert.equal(sent, 1, 'the report was sent');
    assert.equal(first.posted, 0);
    const refusal = {
      workerId: principal.workerId,
      report: 'result',
      subject: taskId,
      code: 'invalid_request',
      message: '/postUrl is not a post of this account',
    };
    assert.deepEqual(first.refused, [refusal]);
    assert.deepEqual(seen, [refusal], 'noted once, when it was refused');
    const line = describeRefusal(seen[0] as Refusal);
    assert.ok(!line.includes('\n'), 'one line');
    assert.match(
      line,
      new RegExp(
        `^simulated worker ${principal.workerId}: the result of task ${taskId} was refused ` +
          '\\(invalid_request: /postUrl is not a post of this account\\); the task is left to its report deadline$',
      ),
    );

    for (const at of ['2026-03-23T07:00:40.000Z', '2026-03-23T07:15:00.000Z']) {
      t.clock.set(at);
      const next = await simulatePass(t.ctx, t.clock.now(), options);
      assert.deepEqual(next.refused, [], `not refused again (${at})`);
    }
    assert.equal(sent, 1, 'a refused report is not sent again');
    assert.equal(seen.length, 1, 'nor noted again');
    const [still] = await taskTimes(t, accounts);
    assert.equal(still?.status, 'posting', 'the task is left as it was');

    // Its report deadline fails it (outcome unconfirmed); the simulator leaves it be.
    t.clock.set(Date.parse(still?.claimed_at as string) + t.ctx.config.taskReportTimeoutMs + 1000);
    const overdue = await dispatchPass(t.ctx, t.clock.now());
    assert.equal(overdue.overdue.unconfirmed, 1, JSON.stringify(overdue));
    await simulatePass(t.ctx, t.clock.now(), options);
    const [failed] = await taskTimes(t, accounts);
    assert.equal(failed?.status, 'failed');
    assert.equal(sent, 1);
  });

  test('the service loop reports a refusal once, as one line; a crash with its error', async () => {
    const t = get();
    t.clock.set('2026-03-30T06:00:00.000Z');
    const { accounts } = await simulatedSetup(t, 'Sim loop', 1);
    const [account] = accounts as [string];
    let sent = 0;
    const workerCalls: Partial<WorkerCalls> = {
      reportAccountStats: async (ctx, worker, id, input) => {
        if (id !== account) return reportAccountStats(ctx, worker, id, input);
        sent++;
        throw new ApiError('invalid_request', '/followers must not fall');
      },
    };
    // As the service runs it (src/main.ts): onPass and onError, no onRefused.
    const errors: unknown[] = [];
    const passes: SimulatorResult[] = [];
    let twoPasses: () => void = () => {};
    const done = new Promise<void>((resolve) => (twoPasses = resolve));
    const loop = startSimulator(
      t.ctx,
      3_600_000,
      {
        onPass: (r) => {
          passes.push(r);
          if (passes.length === 2) twoPasses();
        },
        onError: (err) => errors.push(err),
      },
      { workerCalls },
    );
    loop.kick(); // a second pass right after the first
    await done;
    await loop.stop();
    assert.equal(sent, 1, 'the refused statistics are not sent again');
    assert.equal(errors.length, 1, 'reported once over two passes');
    const err = errors[0] as SimulatorRefusal;
    assert.ok(err instanceof SimulatorRefusal);
    assert.equal(err.subject, account);
    assert.equal(err.report, 'account_stats');
    assert.ok(!(err.stack ?? '').includes('\n'), `no stack trace: ${err.stack}`);
    assert.match(
      err.message,
      /the statistics report of account .+ was refused \(invalid_request: /,
    );

    // Anything else fails the pass, reported with its error (and its stack).
    const crashes: unknown[] = [];
    let crashed: () => void = () => {};
    const failed = new Promise<void>((resolve) => (crashed = resolve));
    const broken = startSimulator(
      t.ctx,
      3_600_000,
      {
        onError: (e) => {
          crashes.push(e);
          crashed();
        },
      },
      {
        workerCalls: {
          heartbeat: async () => {
            throw new Error('the database went away');
          },
        },
      },
    );
    await failed;
    await broken.stop();
    assert.equal(crashes.length, 1);
    assert.ok(!(crashes[0] instanceof SimulatorRefusal));
    assert.equal((crashes[0] as Error).message, 'the database went away');
    assert.match((crashes[0] as Error).stack ?? '', /\n\s+at /);
  });
});

// ---- The commands --------------------------------------------------------------------------

/** Local 04:xx now: an IANA zone (Etc/GMT±N) whose 08:00 is hours away. */
function zoneBefore8(): string {
  let offset = (4 - new Date().getUTCHours() + 24) % 24;
  if (offset > 14) offset -= 24;
  // Etc/GMT-N is UTC+N.
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** A command that ended on its own: exit 0, one line on stdout, nothing on stderr. */
function oneLineSuccess(r: CliRun, what: string): string {
  assert.equal(r.code, 0, `${what}: ${r.stderr}`);
  assert.equal(r.stderr, '', `${what} writes nothing on stderr`);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 1, `${what} prints one line: ${r.stdout}`);
  return lines[0] as string;
}

/** A command that failed: exit 1, nothing on stdout, one line on stderr, no stack trace. */
function oneLineFailure(r: CliRun, what: string): string {
  assert.equal(r.code, 1, `${what} exits 1: ${r.stdout}${r.stderr}`);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `${what} prints one line: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
  return lines[0] as string;
}

for (const dialect of DIALECTS) {
  describe(`slotline simulate and dispatch with --at [${dialect}]`, () => {
    const { cliJson, cliRun, withDb } = useCli(dialect);

    test(
      'dispatch --at a later instant, then simulate: the task waits; errors are one line',
      { timeout: 300_000 },
      async () => {
        const demo = (await cliJson('seed', 'demo', '--timezone', zoneBefore8())) as {
          accountIds: string[];
          accounts: { nextWindow: string }[];
        };
        const windowAt = Date.parse(demo.accounts.map((a) => a.nextWindow).sort()[0] as string);
        assert.ok(windowAt > Date.now() + 3_600_000, 'the first window is hours away');

        for (const [args, pattern] of [
          [['simulate', '--once', '--at', '2026-02-30T08:00:00Z'], /--at must be an RFC 3339/],
          [['simulate', '--once', '--at', 'tomorrow'], /--at must be an RFC 3339/],
          [['dispatch', '--once', '--at', '2026-03-04 08:00'], /--at must be an RFC 3339/],
          [['dispatch', '--at', '2026-03-04T08:00:00Z'], /--at needs --once/],
        ] as const) {
          const line = oneLineFailure(await cliRun([...args]), args.join(' '));
          assert.match(line, /^slotline: /);
          assert.match(line, pattern);
        }
        // A failure that is not the operator's input is one line too.
        const unreachable = { DATABASE_URL: 'postgres://slotline@127.0.0.1:1/none' };
        for (const command of ['simulate', 'dispatch']) {
          const line = oneLineFailure(await cliRun([command, '--once'], unreachable), command);
          assert.match(line, new RegExp(`^slotline: ${command} failed: .*ECONNREFUSED`));
        }

        // The simulator sets the demo accounts up, so their windows release.
        oneLineSuccess(await cliRun(['simulate', '--once']), 'simulate --once');
        // A dispatcher pass as if at the first window: its release lies ahead of the clock.
        const at = new Date(windowAt + 60_000).toISOString();
        const dispatched = oneLineSuccess(
          await cliRun(['dispatch', '--once', '--at', at]),
          'dispatch --once --at',
        );
        const released = Number(/^released (\d+) item\(s\)/.exec(dispatched)?.[1]);
        assert.ok(released >= 1, dispatched);

        for (let i = 0; i < 2; i++) {
          const line = oneLineSuccess(await cliRun(['simulate', '--once']), 'simulate --once');
          assert.match(
            line,
            new RegExp(
              `claimed 0, posted 0, .*, ${released} task\\(s\\) released after this pass's clock$`,
            ),
          );
        }
        const waiting = await withDb((ctx) =>
          ctx.db
            .selectFrom('queue_items')
            .select(['status', 'released_at', 'claimed_at'])
            .where('account_id', 'in', demo.accountIds)
            .where('released_at', 'is not', null)
            .execute(),
        );
        assert.equal(waiting.length, released);
        assert.ok(
          waiting.every((w) => w.status === 'posting' && w.released_at === at && !w.claimed_at),
          `left alone until the clock reaches the release: ${JSON.stringify(waiting)}`,
        );

        const claimedLine = oneLineSuccess(
          await cliRun(['simulate', '--once', '--at', at]),
          'simulate --once --at',
        );
        assert.match(claimedLine, new RegExp(`claimed ${released}, posted 0`));
        const postedAt = new Date(Date.parse(at) + 20_000).toISOString();
        const postedLine = oneLineSuccess(
          await cliRun(['simulate', '--once', '--at', postedAt]),
          'simulate --once --at',
        );
        assert.match(postedLine, new RegExp(`claimed 0, posted ${released}, `));
        const posted = await withDb((ctx) =>
          ctx.db
            .selectFrom('queue_items')
            .select(['status', 'released_at', 'posted_at'])
            .where('account_id', 'in', demo.accountIds)
            .where('released_at', 'is not', null)
            .execute(),
        );
        assert.ok(
          posted.every((p) => p.status === 'posted' && p.posted_at === postedAt),
          `posted 20 s after the release: ${JSON.stringify(posted)}`,
        );
      },
    );
  });
}
