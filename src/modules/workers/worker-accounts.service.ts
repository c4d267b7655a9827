// The accounts a worker operates, as the worker API shows them, and the worker's status and
// statistics reports on them (DECISIONS 7). The change itself belongs to the accounts module.
import type { Db } from '../../db/types.ts';
import * as accountWorkers from '../accounts/index.ts';
import type { AppContext } from '../../context.ts';
import type { AccountStatsTable } from '../../db/types.ts';
import { accountStatsOf, storeAccountStats } from '../analytics/index.ts';
import { ApiError } from '../../errors.ts';
import { changeStatus, noteFollowers, reportWorkerStatus } from '../accounts/index.ts';
import type { WorkerPrincipal } from '../../access.ts';
import type { AccountStatsInput, AccountStatusInput, WorkerAccountOut } from './workers.schemas.ts';

type WorkerAccountRow = accountWorkers.WorkerAccountRow;

export function toWorkerAccount(a: WorkerAccountRow): WorkerAccountOut {
  return {
    accountId: a.id,
    platform: a.platform as WorkerAccountOut['platform'],
    username: a.username,
    timezone: a.timezone,
    status: a.status as WorkerAccountOut['status'],
    statusSince: a.status_since,
    reportedStatus: a.worker_status as WorkerAccountOut['reportedStatus'],
    reportedAt: a.reported_at,
    warmup: { searchTerms: JSON.parse(a.warmup_search_terms) as string[] },
  };
}

export function accountNotFound(accountId: string, inBody: boolean): ApiError {
  return new ApiError(
    'account_not_found',
    `${inBody ? '/accountId: a' : 'A'}ccount ${accountId} is not operated by this worker`,
    {
      inBody,
      hint: 'Use an accountId listed by POST /worker/v1/heartbeat.',
    },
  );
}

/** PUT /worker/v1/accounts/{accountId}/status: the worker's report on an account it operates. */
export async function reportAccountStatus(
  ctx: AppContext,
  worker: WorkerPrincipal,
  accountId: string,
  input: AccountStatusInput,
): Promise<WorkerAccountOut> {
  const account = await accountWorkers.findWorkerAccount(ctx.db, worker.workerId, accountId);
  if (!account) throw accountNotFound(accountId, false);
  const row = await reportWorkerStatus(
    ctx,
    account.company_id,
    accountId,
    input.status,
    input.reason,
  );
  return toWorkerAccount(row);
}

/** Account engagement is a percentage kept to two decimals, like engagementRate (DECISIONS 7). */
function twoDecimals(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Replaces the statistics of an account the worker operates (SPEC 2.8). */
export async function reportAccountStats(
  ctx: AppContext,
  worker: WorkerPrincipal,
  accountId: string,
  input: AccountStatsInput,
) {
  const at = ctx.clock.now().toISOString();
  const account = await accountWorkers.findWorkerAccount(ctx.db, worker.workerId, accountId);
  if (!account) throw accountNotFound(accountId, false);
  const engagement = twoDecimals(input.engagement);
  const figures = {
    followers: input.followers,
    posts: input.posts,
    engagement,
    views: input.views,
    likes: input.likes,
    comments: input.comments,
    scanned_posts: input.scannedPosts,
    updated_at: at,
  };
  await ctx.db.transaction().execute(async (tx) => {
    await storeAccountStats(tx, {
      account_id: accountId,
      company_id: account.company_id,
      ...figures,
    });
    await noteFollowers(tx, accountId, input.followers, at);
    // A status sent with the figures is a status report like any other (DECISIONS 7).
    if (input.status) {
      const change = { source: 'worker', status: input.status } as const;
      await changeStatus(ctx, tx, account.company_id, accountId, change, at);
    }
  });
  return {
    accountId,
    followers: input.followers,
    posts: input.posts,
    engagement,
    analytics: { views: input.views, likes: input.likes, comments: input.comments },
    scannedPosts: input.scannedPosts,
  };
}

/**
 * When an account the worker operates was created, and the statistics last reported for
 * it; null when the worker does not operate it (any more).
 */
export async function workerAccountFacts(
  db: Db,
  worker: WorkerPrincipal,
  accountId: string,
): Promise<{ createdAt: string; stats: AccountStatsTable | undefined } | null> {
  const account = await accountWorkers.findWorkerAccount(db, worker.workerId, accountId);
  if (!account) return null;
  const stats = await accountStatsOf(db, account.company_id, accountId);
  return { createdAt: account.created_at, stats };
}
