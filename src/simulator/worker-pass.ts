// One simulated worker's pass (see simulator.ts): its heartbeat, the status of its new
// accounts, its claims and results, then snapshots of its posts and the statistics of its
// accounts, each report sent through the worker services under the worker rules.
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import {
  claimTask,
  heartbeat,
  listTasks,
  recordSnapshot,
  reportAccountStats,
  reportResult,
  reportAccountStatus,
  workerAccountFacts,
  listSimulatedWorkers,
} from '../modules/workers/index.ts';
import type { WorkerPrincipal } from '../access.ts';
import { postedByWorker, postedOfAccount } from '../modules/items/index.ts';
import { engagementRate, lastSnapshotTimes } from '../modules/analytics/index.ts';
import { DAY_MS } from '../schedule/local-time.ts';
import { simulatedFigures, simulatedFollowers, simulatedPostUrl } from './figures.ts';
import { RACES, type Refusal, type ReportKind } from './refusals.ts';

/** Tasks listed per call (the worker API's maximum). */
const TASK_PAGE = 100;
/** Recent posts an account's statistics cover, as a worker scanning its profile would. */
const SCANNED_POSTS = 30;

/** The timing of a simulated worker. */
export interface SimulatorTimings {
  /** How long a new account warms up before it is reported active (default 1 min). */
  warmupMs?: number;
  /** Time from a claim to the post going out (default 20 s). */
  postDelayMs?: number;
  /** Least time between two snapshots of one task (default 15 min). */
  snapshotEveryMs?: number;
  /** How long after posting snapshots keep coming (default 3 days). */
  snapshotForMs?: number;
}

/** The worker service calls the simulator makes. */
export const WORKER_CALLS = {
  heartbeat,
  claimTask,
  listTasks,
  reportResult,
  recordSnapshot,
  reportAccountStatus,
  reportAccountStats,
};
export type WorkerCalls = typeof WORKER_CALLS;

export interface SimulatorResult {
  /** Simulated workers driven. */
  workers: number;
  /** Account status reports (`warming_up`, `active`). */
  statusReports: number;
  claimed: number;
  posted: number;
  snapshots: number;
  /** Accounts whose statistics changed and were reported. */
  accountStats: number;
  /** Released tasks left alone because their release is after the pass's clock. */
  notYetReleased: number;
  /** Reports refused in this pass (each is refused once: it is not sent again). */
  refused: Refusal[];
}

// ---- Reads the worker API has no call for --------------------------------------------------

export async function simulatedWorkers(ctx: AppContext): Promise<WorkerPrincipal[]> {
  return listSimulatedWorkers(ctx.db);
}

/** Tasks the worker claimed and posted since `since`, with the time of their last snapshot. */
async function recentlyPosted(ctx: AppContext, workerId: string, since: number) {
  // The simulator posts within seconds of the release, so a day's margin on the release
  // time only narrows the index range without losing its own tasks.
  const rows = await postedByWorker(
    ctx.db,
    workerId,
    new Date(since).toISOString(),
    new Date(since - DAY_MS).toISOString(),
  );
  const last = new Map<string, number>();
  const byCompany = new Map<string, typeof rows>();
  for (const r of rows) {
    const list = byCompany.get(r.company_id) ?? [];
    if (list.length === 0) byCompany.set(r.company_id, list);
    list.push(r);
  }
  for (const [companyId, list] of byCompany) {
    const times = await lastSnapshotTimes(
      ctx.db,
      companyId,
      [...new Set(list.map((r) => r.post_id))],
      list.map((r) => r.id),
    );
    for (const [id, at] of times) last.set(id, at);
  }
  return rows.map((r) => ({
    taskId: r.id,
    postedAt: Date.parse(r.posted_at as string),
    lastSnapshotAt: last.get(r.id) ?? null,
  }));
}

/** Posted count, the most recent posts and the stored statistics of one account. */
async function accountFacts(ctx: AppContext, worker: WorkerPrincipal, accountId: string) {
  const [posted, facts] = await Promise.all([
    postedOfAccount(ctx.db, accountId, SCANNED_POSTS),
    workerAccountFacts(ctx.db, worker, accountId),
  ]);
  return {
    posted: posted.count,
    recent: posted.recent,
    createdAt: facts?.createdAt ?? null,
    stats: facts?.stats,
  };
}

// ---- One pass ----------------------------------------------------------------------------

export interface Pass {
  ctx: AppContext;
  worker: WorkerPrincipal;
  /** The pass's clock, in ms. */
  now: number;
  timings: Required<SimulatorTimings>;
  calls: WorkerCalls;
  refused: Set<string>;
  onRefused: ((refusal: Refusal) => void) | undefined;
  result: SimulatorResult;
}

/**
 * Sends one report. Null when it was not made: refused before (it is not sent again), a race
 * another process or a deadline settled first (the next pass sees the new state), or refused
 * now by the worker rules (noted, once). Anything else is a fault and fails the pass.
 */
async function send<T>(
  pass: Pass,
  report: ReportKind,
  subject: string,
  work: () => Promise<T>,
  variant = '',
): Promise<T | null> {
  const key = `${pass.worker.workerId} ${report} ${subject}${variant ? ` ${variant}` : ''}`;
  if (pass.refused.has(key)) return null;
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (RACES.has(err.code)) return null;
    pass.refused.add(key);
    const refusal: Refusal = {
      workerId: pass.worker.workerId,
      report,
      subject,
      code: err.code,
      message: err.message,
    };
    pass.result.refused.push(refusal);
    pass.onRefused?.(refusal);
    return null;
  }
}

export async function driveWorker(pass: Pass): Promise<void> {
  const { ctx, worker, now, timings, calls, result } = pass;
  const beat = await calls.heartbeat(ctx.db, ctx.clock, worker);

  // The lifecycle of a new account: a short warm-up with its search terms, then active.
  for (const account of beat.accounts) {
    let status: 'warming_up' | 'active' | null = null;
    if (account.reportedStatus === 'pending_setup') status = 'warming_up';
    else if (
      account.reportedStatus === 'warming_up' &&
      now - Date.parse(account.reportedAt ?? account.statusSince) >= timings.warmupMs
    ) {
      status = 'active';
    }
    if (status === null) continue;
    const reported = await send(
      pass,
      'account_status',
      account.accountId,
      () => calls.reportAccountStatus(ctx, worker, account.accountId, { status }),
      status,
    );
    if (reported) result.statusReports++;
  }

  // Released tasks are claimed once their release time has come (oldest release first); a
  // task released after the pass's clock waits for a pass whose clock has reached it.
  let cursor: string | undefined;
  do {
    const page = await calls.listTasks(ctx, worker, {
      state: 'released',
      limit: TASK_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const task of page.data) {
      if (Date.parse(task.releasedAt) > now) {
        result.notYetReleased++;
        continue;
      }
      const claimed = await send(pass, 'claim', task.taskId, () =>
        calls.claimTask(ctx, worker, task.taskId),
      );
      if (claimed) result.claimed++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);

  // Claimed tasks whose post delay is over go out, at the moment the delay ended: counted
  // from the claim, or from the release when that came later (a claim made before it).
  cursor = undefined;
  do {
    const page = await calls.listTasks(ctx, worker, {
      state: 'claimed',
      limit: TASK_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const task of page.data) {
      const releasedAt = Date.parse(task.releasedAt);
      const from = Math.max(Date.parse(task.claimedAt as string), releasedAt);
      const postedAt = from + timings.postDelayMs;
      if (releasedAt > now) result.notYetReleased++;
      if (postedAt > now) continue;
      const done = await send(pass, 'result', task.taskId, () =>
        calls.reportResult(ctx, worker, task.taskId, {
          outcome: 'posted',
          postUrl: simulatedPostUrl(
            task.taskId,
            task.platform,
            task.username,
            ctx.config.postUrlPatterns[task.platform]?.template,
          ),
          postedAt: new Date(postedAt).toISOString(),
        }),
      );
      if (done) result.posted++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);

  for (const task of await recentlyPosted(ctx, worker.workerId, now - timings.snapshotForMs)) {
    // Posted after the pass's clock (by a pass run at a later instant): not yet to be seen.
    if (task.postedAt > now) continue;
    if (task.lastSnapshotAt !== null && now - task.lastSnapshotAt < timings.snapshotEveryMs) {
      continue;
    }
    const figures = simulatedFigures(task.taskId, now - task.postedAt);
    const stored = await send(pass, 'snapshot', task.taskId, () =>
      calls.recordSnapshot(ctx.db, ctx.clock, worker, task.taskId, figures),
    );
    if (stored) result.snapshots++;
  }

  for (const account of beat.accounts) {
    const facts = await accountFacts(ctx, worker, account.accountId);
    if (facts.createdAt === null) continue;
    // Statistics reported by a pass at a later instant stand until the clock reaches it.
    if (facts.stats && Date.parse(facts.stats.updated_at) > now) continue;
    let views = 0;
    let likes = 0;
    let comments = 0;
    let shares = 0;
    let saves = 0;
    for (const r of facts.recent) {
      const f = simulatedFigures(
        r.id,
        Math.min(now - Date.parse(r.posted_at as string), timings.snapshotForMs),
      );
      views += f.views;
      likes += f.likes;
      comments += f.comments;
      shares += f.shares;
      saves += f.saves;
    }
    const stats = {
      followers: simulatedFollowers(account.accountId, facts.createdAt, now, facts.posted),
      posts: facts.posted,
      engagement: engagementRate(views, likes, comments, shares, saves),
      views,
      likes,
      comments,
      scannedPosts: facts.recent.length,
    };
    const s = facts.stats;
    // Followers grow by the hour; write only what changed.
    const unchanged =
      s &&
      Number(s.followers) === stats.followers &&
      Number(s.posts) === stats.posts &&
      Number(s.views) === stats.views &&
      Number(s.likes) === stats.likes &&
      Number(s.comments) === stats.comments &&
      Number(s.scanned_posts) === stats.scannedPosts;
    if (unchanged) continue;
    const reported = await send(pass, 'account_stats', account.accountId, () =>
      calls.reportAccountStats(ctx, worker, account.accountId, stats),
    );
    if (reported) result.accountStats++;
  }
}
