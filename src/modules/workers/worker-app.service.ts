// Reads of the workers' app (the phone pages under /dashboard/worker): the accounts a worker
// operates with what setting them up takes (the requested profile, the warm-up search terms),
// their next window and last statistics; the posting window each task was released into;
// the tasks the worker posted lately and the figures it last entered for one. The worker
// API answers with less; each read here is scoped to the worker exactly as the API's are.
import type { WorkerPrincipal } from '../../access.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { accountsOfWorker, getAccount, type WorkerAccountRow } from '../accounts/index.ts';
import { accountStatsOf, getPostAnalytics, lastSnapshotTimes } from '../analytics/index.ts';
import { deliveryRecordRows, findTasks, postedByWorker } from '../items/index.ts';
import { loadTask, visibleTo } from './tasks.service.ts';
import { toTasks } from './tasks.view.ts';
import type { TaskOut, WorkerAccountOut } from './workers.schemas.ts';

const DAY_MS = 24 * 3_600_000;
/** How far back the app lists the worker's posted tasks, and how many at most. */
const RECENT_DAYS = 7;
const RECENT_MAX = 20;
/** Pages of a post's analytics history read at most to find one task's latest snapshot. */
const HISTORY_PAGES = 10;

/** An account's statistics as its worker last reported them. */
export interface AccountFigures {
  followers: number;
  posts: number;
  engagement: number;
  views: number;
  likes: number;
  comments: number;
  scannedPosts: number;
  updatedAt: string;
}

/** An account the worker operates, with the profile its company asked for. */
export interface WorkerAppAccount {
  accountId: string;
  platform: WorkerAccountOut['platform'];
  username: string;
  displayName: string;
  bio: string;
  bioUrl: string | null;
  profilePictureUrl: string;
  status: WorkerAccountOut['status'];
  statusSince: string;
  /** What the worker said with its last report (why it is disconnected, say). */
  statusReason: string | null;
  reportedStatus: WorkerAccountOut['reportedStatus'];
  timezone: string;
  /** Start of its next posting window; null while nothing is released to it. */
  nextWindow: string | null;
  /** Approved items waiting for a window. */
  queueDepth: number;
  searchTerms: string[];
  stats: AccountFigures | null;
}

/** The window or make-up slot a task was released into, and until when posting is on time. */
export interface TaskWindow {
  start: string;
  /** The slot's local time, `HH:mm` in the account's timezone. */
  label: string;
  kind: 'window' | 'makeup';
  onTimeUntil: string;
}

/** A task the worker posted, with when it last entered figures for it. */
export interface PostedTask {
  task: TaskOut;
  lastFiguresAt: string | null;
}

/** The latest analytics snapshot the worker entered for a task. */
export interface TaskFigures {
  views: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
  collectedAt: string;
}

async function appAccount(ctx: AppContext, row: WorkerAccountRow): Promise<WorkerAppAccount> {
  const [account, stats] = await Promise.all([
    getAccount(ctx.db, ctx.clock, row.company_id, row.id),
    accountStatsOf(ctx.db, row.company_id, row.id),
  ]);
  return {
    accountId: account.accountId,
    platform: account.platform,
    username: account.username,
    displayName: account.displayName,
    bio: account.bio,
    bioUrl: account.bioUrl,
    profilePictureUrl: account.profilePictureUrl,
    status: account.status,
    statusSince: account.statusSince,
    statusReason: account.statusReason,
    reportedStatus: row.worker_status as WorkerAccountOut['reportedStatus'],
    timezone: account.timezone,
    nextWindow: account.nextWindow,
    queueDepth: account.queueDepth,
    searchTerms: account.warmup.searchTerms,
    stats: stats
      ? {
          followers: Number(stats.followers),
          posts: Number(stats.posts),
          engagement: Number(stats.engagement),
          views: Number(stats.views),
          likes: Number(stats.likes),
          comments: Number(stats.comments),
          scannedPosts: Number(stats.scanned_posts),
          updatedAt: stats.updated_at,
        }
      : null,
  };
}

/** Every account the worker operates, with its profile, window and statistics. */
export async function workerAppAccounts(
  ctx: AppContext,
  worker: WorkerPrincipal,
): Promise<WorkerAppAccount[]> {
  const rows = await accountsOfWorker(ctx.db, worker.workerId);
  return Promise.all(rows.map((row) => appAccount(ctx, row)));
}

/** One account the worker operates; account_not_found (404) for any other. */
export async function workerAppAccount(
  ctx: AppContext,
  worker: WorkerPrincipal,
  accountId: string,
): Promise<WorkerAppAccount> {
  const row = (await accountsOfWorker(ctx.db, worker.workerId)).find((a) => a.id === accountId);
  if (!row) {
    throw new ApiError('account_not_found', `Account ${accountId} is not operated by this worker`);
  }
  return appAccount(ctx, row);
}

/**
 * The window each of the worker's tasks was released into, by task id; a task released
 * before windows were recorded has none.
 */
export async function taskWindows(
  ctx: AppContext,
  worker: WorkerPrincipal,
  taskIds: readonly string[],
): Promise<Map<string, TaskWindow>> {
  const rows = (await findTasks(ctx.db, taskIds)).filter((r) => visibleTo(r, worker));
  const ids = new Set(rows.map((r) => r.id));
  const posts = new Map(rows.map((r) => [`${r.company_id}\n${r.post_id}`, r]));
  const out = new Map<string, TaskWindow>();
  const grace = ctx.config.deliveryGraceMs;
  await Promise.all(
    [...posts.values()].map(async (r) => {
      for (const d of await deliveryRecordRows(ctx.db, r.company_id, r.post_id)) {
        if (!ids.has(d.id) || !d.slot_start || !d.slot_label || !d.slot_kind) continue;
        out.set(d.id, {
          start: d.slot_start,
          label: d.slot_label,
          kind: d.slot_kind === 'makeup' ? 'makeup' : 'window',
          onTimeUntil: new Date(Date.parse(d.slot_start) + grace).toISOString(),
        });
      }
    }),
  );
  return out;
}

/**
 * The tasks the worker reported posted in the last week, newest first (at most 20), each
 * with when it last entered figures for it: where the app offers analytics entry.
 */
export async function recentlyPostedTasks(
  ctx: AppContext,
  worker: WorkerPrincipal,
): Promise<PostedTask[]> {
  const now = ctx.clock.now().getTime();
  const postedSince = new Date(now - RECENT_DAYS * DAY_MS).toISOString();
  // A task is posted at most its report deadline after its release.
  const releasedSince = new Date(
    now - RECENT_DAYS * DAY_MS - ctx.config.taskReportTimeoutMs,
  ).toISOString();
  const posted = (await postedByWorker(ctx.db, worker.workerId, postedSince, releasedSince))
    .sort(
      (a, b) => (b.posted_at ?? '').localeCompare(a.posted_at ?? '') || a.id.localeCompare(b.id),
    )
    .slice(0, RECENT_MAX);
  if (posted.length === 0) return [];
  const byCompany = new Map<string, typeof posted>();
  for (const p of posted) byCompany.set(p.company_id, [...(byCompany.get(p.company_id) ?? []), p]);
  const [tasks, ...times] = await Promise.all([
    findTasks(
      ctx.db,
      posted.map((p) => p.id),
    ).then((rows) => toTasks(ctx, rows)),
    ...[...byCompany].map(([companyId, rows]) =>
      lastSnapshotTimes(
        ctx.db,
        companyId,
        [...new Set(rows.map((r) => r.post_id))],
        rows.map((r) => r.id),
      ),
    ),
  ]);
  const last = new Map(times.flatMap((m) => [...m]));
  return tasks
    .sort(
      (a, b) =>
        (b.postedAt ?? '').localeCompare(a.postedAt ?? '') || a.taskId.localeCompare(b.taskId),
    )
    .map((task) => {
      const at = last.get(task.taskId);
      return { task, lastFiguresAt: at === undefined ? null : new Date(at).toISOString() };
    });
}

/** The latest snapshot entered for the worker's posted task, or null before the first. */
export async function latestTaskFigures(
  ctx: AppContext,
  worker: WorkerPrincipal,
  taskId: string,
): Promise<TaskFigures | null> {
  const row = await loadTask(ctx.db, worker, taskId);
  if (row.status !== 'posted') return null;
  // The post's history pages every account's snapshots newest first: the task's latest is
  // the first of its own met on the way.
  let cursor: string | undefined;
  for (let page = 0; page < HISTORY_PAGES; page++) {
    const { history, nextCursor } = await getPostAnalytics(ctx, row.company_id, row.post_id, {
      limit: 100,
      ...(cursor ? { cursor } : {}),
    });
    const found = history.find((s) => s.taskId === row.id);
    if (found) {
      const { views, likes, comments, shares, saves, collectedAt } = found;
      return { views, likes, comments, shares, saves, collectedAt };
    }
    if (!nextCursor) return null;
    cursor = nextCursor;
  }
  return null;
}
