// The built-in simulator worker (DECISIONS 6): plays the worker of every simulated worker
// (workers.simulated = 1, not revoked) for the demo and the tests. It goes through the same
// service functions as the worker API, with the worker's own principal, under the same rules
// as any worker: heartbeat, set up new accounts (report `warming_up` on first sight, `active`
// once `warmupMs` has passed; DECISIONS 7), claim the released tasks once their release time
// has come, report each one posted once `postDelayMs` has passed since its claim (never
// before its release), then report analytics snapshots and account statistics.
//
// Everything it reports is a pure function of ids and elapsed time (seeded from the task or
// account id), so passes can be repeated, run by two processes, or replayed in tests with a
// fake clock: the same task always gets the same postUrl (a repeated report is harmless) and
// figures that never decrease. A pass's clock may be behind what a dispatcher released (by
// `slotline dispatch --once --at` a later instant): a task released after the pass's clock
// is left alone until the clock reaches its release.
//
// A report the worker rules refuse is noted once (onRefused) and never sent again while the
// memory of refusals lives (a loop keeps one for the life of its process): a refused result
// leaves the task to its report deadline, which the dispatcher enforces.
import { DEFAULT_POST_URL_PATTERNS } from '../config.ts';
import { createHash } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { startPeriodic, type PassReport, type Periodic } from '../lib/periodic.ts';
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

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Tasks listed per call (the worker API's maximum). */
const TASK_PAGE = 100;
/** Recent posts an account's statistics cover, as a worker scanning its profile would. */
const SCANNED_POSTS = 30;
/** How often `slotline serve` runs a pass. */
export const SIMULATOR_INTERVAL_MS = 10_000;

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
const WORKER_CALLS = {
  heartbeat,
  claimTask,
  listTasks,
  reportResult,
  recordSnapshot,
  reportAccountStatus,
  reportAccountStats,
};
export type WorkerCalls = typeof WORKER_CALLS;

export interface SimulatorOptions extends SimulatorTimings {
  /**
   * Keys of the reports refused so far (see Refusal): none of them is sent again, and a pass
   * adds those it sees refused. A loop keeps one set for the life of its process; without
   * it, a pass remembers its own refusals only.
   */
  refused?: Set<string>;
  /** Called once for each report refused in the pass, when it is refused. */
  onRefused?: (refusal: Refusal) => void;
  /**
   * Calls to make instead of some of the worker services (a stricter rule in front of one,
   * say); the worker services themselves otherwise.
   */
  workerCalls?: Partial<WorkerCalls>;
}

/**
 * What a simulated worker sends: a claim, a task's result or snapshot, an account's status or
 * statistics.
 */
export type ReportKind = 'claim' | 'result' | 'snapshot' | 'account_status' | 'account_stats';

/** A report the worker rules refused (an ApiError other than a race). */
export interface Refusal {
  workerId: string;
  report: ReportKind;
  /** The task (claim, result, snapshot) or account (status, statistics) reported on. */
  subject: string;
  /** The error code and message the worker API would answer with. */
  code: string;
  message: string;
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
  /** Released tasks left alone because their release is after the pass's clock. */
  notYetReleased: number;
  /** Reports refused in this pass (each is refused once: it is not sent again). */
  refused: Refusal[];
}

/** Reports another process or a deadline settled first; the next pass sees the new state. */
const RACES = new Set<string>([
  'task_not_found',
  'task_not_claimed',
  'task_already_reported',
  // The account went to another worker since the heartbeat.
  'account_not_found',
]);

const REFUSED_WHAT: Record<ReportKind, string> = {
  claim: 'the claim of task',
  result: 'the result of task',
  snapshot: 'a snapshot of task',
  account_status: 'the status report of account',
  account_stats: 'the statistics report of account',
};

const REFUSED_THEN: Record<ReportKind, string> = {
  claim: 'the task is left to its report deadline',
  result: 'the task is left to its report deadline',
  snapshot: 'no more snapshots of the task are sent',
  account_status: 'the status is not reported again',
  account_stats: 'no more statistics of the account are sent',
};

/** One line saying what was refused, why, and what happens to it. */
export function describeRefusal(r: Refusal): string {
  const message = r.message.replace(/\s+/g, ' ').trim();
  return (
    `simulated worker ${r.workerId}: ${REFUSED_WHAT[r.report]} ${r.subject} was refused ` +
    `(${r.code}: ${message}); ${REFUSED_THEN[r.report]}`
  );
}

/**
 * A refused report handed to a loop's onError (when its report has no onRefused): an
 * expected outcome of the worker rules, so it carries no stack trace, only its one line
 * and the refusal's fields.
 */
export class SimulatorRefusal extends Error {
  readonly workerId: string;
  readonly report: ReportKind;
  readonly subject: string;
  readonly code: string;
  constructor(refusal: Refusal) {
    super(describeRefusal(refusal));
    this.name = 'SimulatorRefusal';
    this.workerId = refusal.workerId;
    this.report = refusal.report;
    this.subject = refusal.subject;
    this.code = refusal.code;
    this.stack = `${this.name}: ${this.message}`;
  }
}

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

/**
 * Where a simulated post "went out", fixed by the task id: the platform's post URL as the
 * service is configured to check it (POST_URL_PATTERN_*), or the default one where it is not.
 */
export function simulatedPostUrl(
  taskId: string,
  platform: string,
  username: string,
  template?: string,
): string {
  let id: string;
  if (platform === 'platformB') {
    const h = createHash('sha256').update(`${taskId}\ncode`).digest();
    id = [...h.subarray(0, 11)].map((b) => CODE_CHARS[b % 64]).join('');
  } else {
    id = `7${digits(taskId, 18)}`;
  }
  const pattern =
    template ?? DEFAULT_POST_URL_PATTERNS[platform === 'platformB' ? 'platformB' : 'platformA'];
  return pattern.replaceAll('{username}', encodeURIComponent(username)).replaceAll('{id}', id);
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

interface Pass {
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

async function driveWorker(pass: Pass): Promise<void> {
  const { ctx, worker, now, timings, calls, result } = pass;
  const beat = await calls.heartbeat(ctx, worker);

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
      calls.recordSnapshot(ctx, worker, task.taskId, figures),
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

/**
 * One pass over every simulated worker at `now`. The services run on a clock fixed at `now`,
 * so what they stamp (claims, reports, snapshots) agrees with the simulator's own timing.
 */
export async function simulatePass(
  ctx: AppContext,
  now: Date,
  options: SimulatorOptions = {},
): Promise<SimulatorResult> {
  const timings: Required<SimulatorTimings> = {
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
    notYetReleased: 0,
    refused: [],
  };
  const calls: WorkerCalls = { ...WORKER_CALLS, ...options.workerCalls };
  const refused = options.refused ?? new Set<string>();
  for (const worker of await simulatedWorkers(fixed)) {
    result.workers++;
    await driveWorker({
      ctx: fixed,
      worker,
      now: at,
      timings,
      calls,
      refused,
      onRefused: options.onRefused,
      result,
    });
  }
  return result;
}

export type SimulatorLoop = Periodic;

export interface SimulatorReport extends PassReport<SimulatorResult> {
  /**
   * Each refused report, once for the life of the loop. Without it, onError gets each one as
   * a SimulatorRefusal (its message alone, no stack trace).
   */
  onRefused?: (refusal: Refusal) => void;
}

/**
 * Runs passes on a timer, one at a time, like the dispatch loop; a failed pass is reported.
 * The loop remembers the reports refused for as long as it runs, so none is sent (or
 * reported) twice.
 */
export function startSimulator(
  ctx: AppContext,
  intervalMs: number,
  report: SimulatorReport,
  options: SimulatorOptions = {},
): SimulatorLoop {
  const refused = options.refused ?? new Set<string>();
  const onRefused =
    report.onRefused ??
    options.onRefused ??
    ((r: Refusal) => report.onError(new SimulatorRefusal(r)));
  return startPeriodic(
    () => simulatePass(ctx, ctx.clock.now(), { ...options, refused, onRefused }),
    intervalMs,
    report,
  );
}
