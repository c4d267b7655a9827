// Daily caps and plan quotas (SPEC 8, DECISIONS 1 and 7). Daily caps count per
// company and UTC day and answer `rate_limited` with Retry-After to the next
// UTC midnight; plan quotas answer `quota_exceeded` or `account_limit_reached`.
import { ApiError } from '../../errors.ts';
import { secondsToUtcMidnight, utcDay, utcMonth } from '../../lib/clock.ts';
import type { DbOrTx } from '../../db/types.ts';
import type { Plan, PlanTable } from '../../plans.ts';
import * as repo from './usage.repository.ts';

export type DailyMetric = 'api_requests' | 'posts' | 'uploads' | 'account_creations';

const DAILY_CAP: Record<DailyMetric, keyof Plan> = {
  api_requests: 'apiRequestsPerDay',
  posts: 'postsPerDay',
  uploads: 'uploadsPerDay',
  account_creations: 'accountCreationsPerDay',
};

const DAILY_LABEL: Record<DailyMetric, string> = {
  api_requests: 'API requests',
  posts: 'posts',
  uploads: 'uploads',
  account_creations: 'account creations',
};

export function planOf(plans: PlanTable, defaultPlan: string, name: string): Plan {
  return (plans[name] ?? plans[defaultPlan]) as Plan;
}

export interface DailyResult {
  count: number;
  limit: number;
  resetSeconds: number;
}

/** Counts `n` units of a daily metric, or throws `rate_limited` when the cap is reached. */
export async function consumeDaily(
  db: DbOrTx,
  plan: Plan,
  companyId: string,
  metric: DailyMetric,
  now: Date,
  n = 1,
): Promise<DailyResult> {
  const limit = plan[DAILY_CAP[metric]] as number;
  const count = await repo.consume(db, companyId, metric, utcDay(now), n, limit);
  const resetSeconds = secondsToUtcMidnight(now);
  if (count === null) throw dailyCapReached(metric, limit, resetSeconds);
  return { count, limit, resetSeconds };
}

function dailyCapReached(metric: DailyMetric, limit: number, resetSeconds: number): ApiError {
  return new ApiError(
    'rate_limited',
    `Daily cap of ${limit} ${DAILY_LABEL[metric]} per UTC day is reached`,
    {
      headers: {
        'retry-after': String(resetSeconds),
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(resetSeconds),
      },
    },
  );
}

function postCreditsReached(plan: Plan, n: number): ApiError {
  return new ApiError(
    'quota_exceeded',
    `Plan limit of ${plan.postCredits} post credits this month is reached (${n} needed)`,
    { hint: 'Wait for next month, cancel queued items you do not need, or upgrade the plan.' },
  );
}

/**
 * `n` queue items against both the daily posts cap and the month's post
 * credits, in one statement: the same outcome as `consumeDaily(..., 'posts',
 * ..., n)` followed by `consumePostCredits`, the daily cap reported first.
 * Runs inside the caller's transaction, which a thrown error abandons.
 */
export async function consumePostQuota(
  db: DbOrTx,
  plan: Plan,
  companyId: string,
  now: Date,
  n: number,
): Promise<void> {
  const [daily, credits] = await repo.consumeTwo(
    db,
    companyId,
    { metric: 'posts', period: utcDay(now), n, cap: plan.postsPerDay },
    { metric: 'post_credits', period: utcMonth(now), n, cap: plan.postCredits },
  );
  if (daily === null) throw dailyCapReached('posts', plan.postsPerDay, secondsToUtcMidnight(now));
  if (credits === null) throw postCreditsReached(plan, n);
}

/**
 * What `consumePostQuota` would answer for `n` more queue items, read without counting
 * anything: the same error (daily cap first, then post credits), or null when both caps
 * hold. A dry run's answer: a create that follows may still meet a cap other creates
 * reached in between.
 */
export async function postQuotaProblem(
  db: DbOrTx,
  plan: Plan,
  companyId: string,
  now: Date,
  n: number,
): Promise<ApiError | null> {
  const day = utcDay(now);
  const month = utcMonth(now);
  const counters = await repo.readCounters(db, companyId, [
    { metric: 'posts', period: day },
    { metric: 'post_credits', period: month },
  ]);
  // The conditional upserts' rule (usage.repository.ts): counted only while count + n <= cap.
  const passes = (count: number | undefined, cap: number) => (count ?? 0) + n <= cap;
  if (!passes(counters.get(`posts@${day}`), plan.postsPerDay)) {
    return dailyCapReached('posts', plan.postsPerDay, secondsToUtcMidnight(now));
  }
  if (!passes(counters.get(`post_credits@${month}`), plan.postCredits)) {
    return postCreditsReached(plan, n);
  }
  return null;
}

export async function refundDaily(
  db: DbOrTx,
  companyId: string,
  metric: DailyMetric,
  now: Date,
  n = 1,
): Promise<void> {
  await repo.refund(db, companyId, metric, utcDay(now), n);
}

/** Post credits per UTC calendar month; one credit per queue item. */
export async function consumePostCredits(
  db: DbOrTx,
  plan: Plan,
  companyId: string,
  now: Date,
  n: number,
): Promise<void> {
  const count = await repo.consume(
    db,
    companyId,
    'post_credits',
    utcMonth(now),
    n,
    plan.postCredits,
  );
  if (count === null) throw postCreditsReached(plan, n);
}

/** Ready videos held by the company against the plan's video quota. */
export async function consumeVideoQuota(db: DbOrTx, plan: Plan, companyId: string): Promise<void> {
  const count = await repo.consume(db, companyId, 'videos', 'all', 1, plan.videoQuota);
  if (count === null) {
    throw new ApiError(
      'quota_exceeded',
      `Plan video quota of ${plan.videoQuota} videos is reached`,
      {
        hint: 'Upgrade the plan to upload more videos.',
      },
    );
  }
}

export interface Usage {
  plan: string;
  billingType: string;
  videoQuota: number;
  videoCount: number;
  postCredits: { limit: number; used: number };
  postsPerDay: number;
  apiRequestsToday: number;
  postsCreatedToday: number;
}

export async function readUsage(
  db: DbOrTx,
  planName: string,
  plan: Plan,
  companyId: string,
  now: Date,
): Promise<Usage> {
  const day = utcDay(now);
  const month = utcMonth(now);
  const counters = await repo.readCounters(db, companyId, [
    { metric: 'videos', period: 'all' },
    { metric: 'post_credits', period: month },
    { metric: 'api_requests', period: day },
    { metric: 'posts', period: day },
  ]);
  return {
    plan: planName,
    billingType: plan.billingType,
    videoQuota: plan.videoQuota,
    videoCount: counters.get('videos@all') ?? 0,
    postCredits: { limit: plan.postCredits, used: counters.get(`post_credits@${month}`) ?? 0 },
    postsPerDay: plan.postsPerDay,
    apiRequestsToday: counters.get(`api_requests@${day}`) ?? 0,
    postsCreatedToday: counters.get(`posts@${day}`) ?? 0,
  };
}

/**
 * Posts created today (UTC) by each of these companies, counted as `GET /v2/usage` counts
 * its `postsCreatedToday` (one per queue item created); 0 for a company without any.
 */
export async function postsCreatedToday(
  db: DbOrTx,
  companyIds: readonly string[],
  now: Date,
): Promise<Map<string, number>> {
  const counts = await repo.readCounterOf(db, [...new Set(companyIds)], 'posts', utcDay(now));
  return new Map(companyIds.map((id) => [id, counts.get(id) ?? 0]));
}

/** Videos the company has uploaded, all time: what its plan's video quota counts. */
export async function videosUploaded(db: DbOrTx, companyId: string): Promise<number> {
  const counters = await repo.readCounters(db, companyId, [{ metric: 'videos', period: 'all' }]);
  return counters.get('videos@all') ?? 0;
}

/** One limit of the plan and how much of it is used (the dashboard's usage page). */
export interface UsageMeter {
  label: string;
  used: number;
  limit: number;
  /** What the count covers: today (UTC), this month (UTC) or all time. */
  period: 'day' | 'month' | 'total';
}

export interface UsageDetail {
  plan: string;
  billingType: string;
  meters: UsageMeter[];
  /** The next UTC midnight, when the daily caps start again. */
  dayResetsAt: string;
  /** The first instant of the next UTC month, when post credits start again. */
  monthResetsAt: string;
}

const DAILY_TITLE: Record<DailyMetric, string> = {
  api_requests: 'API requests',
  posts: 'Queue items created',
  uploads: 'Uploads',
  account_creations: 'Accounts created',
};

/** Every daily cap and quota of the company's plan with its current count. */
export async function readUsageDetail(
  db: DbOrTx,
  planName: string,
  plan: Plan,
  companyId: string,
  now: Date,
): Promise<UsageDetail> {
  const day = utcDay(now);
  const month = utcMonth(now);
  const counters = await repo.readCounters(db, companyId, [
    { metric: 'api_requests', period: day },
    { metric: 'posts', period: day },
    { metric: 'uploads', period: day },
    { metric: 'account_creations', period: day },
    { metric: 'post_credits', period: month },
    { metric: 'videos', period: 'all' },
  ]);
  const daily = (metric: DailyMetric): UsageMeter => ({
    label: `${DAILY_TITLE[metric]} today`,
    used: counters.get(`${metric}@${day}`) ?? 0,
    limit: plan[DAILY_CAP[metric]] as number,
    period: 'day',
  });
  return {
    plan: planName,
    billingType: plan.billingType,
    meters: [
      daily('api_requests'),
      daily('posts'),
      daily('uploads'),
      daily('account_creations'),
      {
        label: 'Post credits this month',
        used: counters.get(`post_credits@${month}`) ?? 0,
        limit: plan.postCredits,
        period: 'month',
      },
      {
        label: 'Videos uploaded',
        used: counters.get('videos@all') ?? 0,
        limit: plan.videoQuota,
        period: 'total',
      },
    ],
    dayResetsAt: new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1),
    ).toISOString(),
    monthResetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
  };
}
