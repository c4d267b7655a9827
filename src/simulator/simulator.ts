// The built-in simulator worker (DECISIONS 6): plays the worker of every simulated worker
// (workers.simulated = 1, not revoked) for the demo and the tests. It goes through the same
// service functions as the worker API, with the worker's own principal: heartbeat, set up
// new accounts (report `warming_up` on first sight, `active` once `warmupMs` has passed;
// DECISIONS 7), claim the released tasks, report each one posted once `postDelayMs` has
// passed since its claim, then report analytics snapshots and account statistics.
//
// Everything it reports is a pure function of ids and elapsed time (seeded from the task or
// account id), so passes can be repeated, run by two processes, or replayed in tests with a
// fake clock: the same task always gets the same postUrl (a repeated report is harmless) and
// figures that never decrease.
import { createHash } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { startPeriodic, type PassReport, type Periodic } from '../lib/periodic.ts';
import {
  claimTasks,
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

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Tasks claimed per call (the worker API's maximum). */
const CLAIM_BATCH = 50;
/** Recent posts an account's statistics cover, as a worker scanning its profile would. */
const SCANNED_POSTS = 30;
/** How often `slotline serve` runs a pass. */
export const SIMULATOR_INTERVAL_MS = 10_000;

export interface SimulatorOptions {
  /** How long a new account warms up before it is reported active (default 1 min). */
  warmupMs?: number;
  /** Time from a claim to the post going out (default 20 s). */
  postDelayMs?: number;
  /** Least time between two snapshots of one task (default 15 min). */
  snapshotEveryMs?: number;
  /** How long after posting snapshots keep coming (default 3 days). */
  snapshotForMs?: number;
}

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
}

/** Reports another process or a deadline settled first; the next pass sees the new state. */
const RACES = new Set([
  'task_not_found',
  'task_not_claimed',
  'task_already_reported',
  // The account went to another worker since the heartbeat.
  'account_not_found',
]);

// ---- Deterministic figures ---------------------------------------------------------------

/** A uniform number in [0, 1) derived from `seed` and `label`. */
function unit(seed: string, label: string): number {
  const h = createHash('sha256').update(`${seed}\n${label}`).digest();
  return h.readUIntBE(0, 6) / 2 ** 48;
}

function digits(seed: string, n: number): string {
  const h = createHash('sha256').update(`${seed}\nurl`).digest();
  let out = '';
  for (let i = 0; out.length < n; i++) out += String((h[i % h.length] as number) % 10);
  return out;
}

const CODE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** Where a simulated post "went out", fixed by the task id. */
export function simulatedPostUrl(taskId: string, platform: string, username: string): string {
  if (platform === 'platformB') {
    const h = createHash('sha256').update(`${taskId}\ncode`).digest();
    const code = [...h.subarray(0, 11)].map((b) => CODE_CHARS[b % 64]).join('');
    return `https://platform-b.example/p/${code}/`;
  }
  return `https://platform-a.example/@${encodeURIComponent(username)}/video/7${digits(taskId, 18)}`;
}

export interface SimulatedFigures {
  views: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
}

/**
 * The figures of a simulated post `elapsedMs` after it went out: views rise fast and flatten
 * towards a ceiling (between ~400 and ~100k, seeded), the rest are fixed fractions of views.
 * Non-decreasing in `elapsedMs`.
 */
export function simulatedFigures(taskId: string, elapsedMs: number): SimulatedFigures {
  const ceiling = 400 * 10 ** (2.4 * unit(taskId, 'ceiling'));
  const halfLifeMs = (2 + 10 * unit(taskId, 'pace')) * HOUR_MS;
  // A few minutes' head start so the first snapshot, taken right after posting, is not all zeros.
  const t = Math.max(0, elapsedMs) + 5 * MINUTE_MS;
  const views = Math.floor(ceiling * (1 - 2 ** (-t / halfLifeMs)));
  const share = (label: string, from: number, span: number) =>
    Math.floor(views * (from + span * unit(taskId, label)));
  return {
    views,
    likes: share('likes', 0.03, 0.09),
    comments: share('comments', 0.002, 0.012),
    shares: share('shares', 0.002, 0.015),
    saves: share('saves', 0.004, 0.02),
  };
}

/**
 * Followers of a simulated account: a seeded base, a steady daily gain since the account
 * was created, and a bump per post. Non-decreasing over time and posts.
 */
function simulatedFollowers(accountId: string, createdAt: string, now: number, posts: number) {
  const base = Math.floor(300 + 20_000 * unit(accountId, 'followers') ** 2);
  const perDay = 5 + 60 * unit(accountId, 'daily');
  const perPost = 3 + 40 * unit(accountId, 'per-post');
  const days = Math.max(0, now - Date.parse(createdAt)) / DAY_MS;
  return base + Math.floor(days * perDay) + Math.floor(posts * perPost);
}

// ---- Reads the worker API has no call for --------------------------------------------------

async function simulatedWorkers(ctx: AppContext): Promise<WorkerPrincipal[]> {
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
    workerAccountFacts(ctx, worker, accountId),
  ]);
  return {
    posted: posted.count,
    recent: posted.recent,
    createdAt: facts?.createdAt ?? null,
    stats: facts?.stats,
  };
}

// ---- One pass ----------------------------------------------------------------------------

async function skipRaces<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    // Matched by code: simulator/ does not import http/ (GUIDE, rules of direction).
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && RACES.has(code)) return null;
    throw err;
  }
}

async function driveWorker(
  ctx: AppContext,
  worker: WorkerPrincipal,
  now: number,
  opts: Required<SimulatorOptions>,
  result: SimulatorResult,
): Promise<void> {
  const beat = await heartbeat(ctx, worker);

  // The lifecycle of a new account: a short warm-up with its search terms, then active.
  for (const account of beat.accounts) {
    let status: 'warming_up' | 'active' | null = null;
    if (account.reportedStatus === 'pending_setup') status = 'warming_up';
    else if (
      account.reportedStatus === 'warming_up' &&
      now - Date.parse(account.reportedAt ?? account.statusSince) >= opts.warmupMs
    ) {
      status = 'active';
    }
    if (status === null) continue;
    const reported = await skipRaces(() =>
      reportAccountStatus(ctx, worker, account.accountId, { status }),
    );
    if (reported) result.statusReports++;
  }

  for (;;) {
    const claimed = await claimTasks(ctx, worker, { limit: CLAIM_BATCH });
    result.claimed += claimed.length;
    if (claimed.length < CLAIM_BATCH) break;
  }

  // Claimed tasks whose post delay is over go out, at the moment the delay ended.
  let cursor: string | undefined;
  do {
    const page = await listTasks(ctx, worker, {
      state: 'claimed',
      limit: 100,
      ...(cursor ? { cursor } : {}),
    });
    for (const task of page.data) {
      const postedAt = Date.parse(task.claimedAt as string) + opts.postDelayMs;
      if (postedAt > now) continue;
      const done = await skipRaces(() =>
        reportResult(ctx, worker, task.taskId, {
          outcome: 'posted',
          postUrl: simulatedPostUrl(task.taskId, task.platform, task.username),
          postedAt: new Date(postedAt).toISOString(),
        }),
      );
      if (done) result.posted++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);

  for (const task of await recentlyPosted(ctx, worker.workerId, now - opts.snapshotForMs)) {
    if (task.lastSnapshotAt !== null && now - task.lastSnapshotAt < opts.snapshotEveryMs) continue;
    const figures = simulatedFigures(task.taskId, now - task.postedAt);
    const stored = await skipRaces(() => recordSnapshot(ctx, worker, task.taskId, figures));
    if (stored) result.snapshots++;
  }

  for (const account of beat.accounts) {
    const facts = await accountFacts(ctx, worker, account.accountId);
    if (facts.createdAt === null) continue;
    let views = 0;
    let likes = 0;
    let comments = 0;
    let shares = 0;
    let saves = 0;
    for (const r of facts.recent) {
      const f = simulatedFigures(
        r.id,
        Math.min(now - Date.parse(r.posted_at as string), opts.snapshotForMs),
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
    const reported = await skipRaces(() =>
      reportAccountStats(ctx, worker, account.accountId, stats),
    );
    if (reported) result.accountStats++;
  }
}

/**
 * One pass over every simulated worker at `now`. The services run on a clock fixed at `now`,
 * so what they stamp (claims, reports, snapshots) agrees with the simulator's own timing.
 */
export async function simulatePass(
  ctx: AppContext,
  now: Date,
  options: SimulatorOptions = {},
): Promise<SimulatorResult> {
  const opts: Required<SimulatorOptions> = {
    warmupMs: options.warmupMs ?? MINUTE_MS,
    postDelayMs: options.postDelayMs ?? 20_000,
    snapshotEveryMs: options.snapshotEveryMs ?? 15 * MINUTE_MS,
    snapshotForMs: options.snapshotForMs ?? 3 * DAY_MS,
  };
  const at = now.getTime();
  const fixed: AppContext = { ...ctx, clock: { now: () => new Date(at) } };
  const result: SimulatorResult = {
    workers: 0,
    statusReports: 0,
    claimed: 0,
    posted: 0,
    snapshots: 0,
    accountStats: 0,
  };
  for (const worker of await simulatedWorkers(fixed)) {
    result.workers++;
    await driveWorker(fixed, worker, at, opts, result);
  }
  return result;
}

export type SimulatorLoop = Periodic;

/** Runs passes on a timer, one at a time, like the dispatch loop; a failed pass is reported. */
export function startSimulator(
  ctx: AppContext,
  intervalMs: number,
  report: PassReport<SimulatorResult>,
  options: SimulatorOptions = {},
): SimulatorLoop {
  return startPeriodic(() => simulatePass(ctx, ctx.clock.now(), options), intervalMs, report);
}
