// The worker side of releases (DECISIONS 6): a worker claims the released items (tasks) of
// the accounts it operates and reads them, their media behind signed URLs (tasks.view.ts);
// its reports on them are task-reports.service.ts. Every status change goes through
// items.state.ts. A worker sees only tasks of accounts it operates now, or tasks it claimed
// itself; anything else is not found.
import { createHash } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { cursorScope } from '../../lib/cursor.ts';
import * as accountWorkers from '../accounts/index.ts';
import { claimItem, claimItems } from '../items/index.ts';
import * as items from '../items/index.ts';
import type { WorkerPrincipal } from '../../access.ts';
import * as workers from './workers.repository.ts';
import { accountNotFound, toWorkerAccount } from './worker-accounts.service.ts';
import { toTasks } from './tasks.view.ts';
import type { ClaimInput, HeartbeatOut, TaskListInput, TaskOut } from './workers.schemas.ts';

function taskNotFound(taskId: string): ApiError {
  return new ApiError('task_not_found', `Task ${taskId} does not exist for this worker`);
}

/** A task is the worker's while it operates the account, and always if it claimed it. */
export function visibleTo(row: items.TaskRow, worker: WorkerPrincipal): boolean {
  if (!['posting', 'posted', 'failed'].includes(row.status)) return false;
  return row.worker_id === worker.workerId || row.claimed_by === worker.workerId;
}

/** A task the worker may see (task_not_found otherwise), as stored. */
export async function loadTask(
  db: Db,
  worker: WorkerPrincipal,
  taskId: string,
): Promise<items.TaskRow> {
  const [row] = await items.findTasks(db, [taskId]);
  if (!row || !visibleTo(row, worker)) throw taskNotFound(taskId);
  return row;
}

/** Notes the worker as seen and tells it which accounts it operates and what is open. */
export async function heartbeat(
  db: Db,
  clock: Clock,
  worker: WorkerPrincipal,
): Promise<HeartbeatOut> {
  const now = clock.now();
  await workers.touchWorker(db, worker.workerId, now.toISOString());
  const [accounts, openTasks] = await Promise.all([
    accountWorkers.accountsOfWorker(db, worker.workerId),
    items.openTaskCounts(db, worker.workerId),
  ]);
  return {
    workerId: worker.workerId,
    name: worker.name,
    timezone: worker.timezone,
    serverTime: now.toISOString(),
    accounts: accounts.map(toWorkerAccount),
    openTasks,
  };
}

/** Claims up to `limit` released tasks of the worker's accounts; each is claimed only once. */
export async function claimTasks(
  ctx: AppContext,
  worker: WorkerPrincipal,
  input: ClaimInput,
): Promise<TaskOut[]> {
  const at = ctx.clock.now().toISOString();
  // DECISIONS 1: an id in the body naming no account of the caller is a 400 account_not_found.
  const only = input.accountId;
  if (
    only !== undefined &&
    !(await accountWorkers.findWorkerAccount(ctx.db, worker.workerId, only))
  ) {
    throw accountNotFound(only, true);
  }
  const ids = await ctx.db
    .transaction()
    .execute((tx) =>
      claimItems(
        tx,
        { id: worker.workerId, ...(input.accountId ? { accountId: input.accountId } : {}) },
        input.limit ?? 10,
        at,
      ),
    );
  await workers.touchWorker(ctx.db, worker.workerId, at);
  return toTasks(ctx, await items.findTasks(ctx.db, ids));
}

/**
 * Claims one released task of the worker's accounts by id (the workers' page starts the task
 * a person opened, not the oldest one). A task it claimed already comes back unchanged; one
 * claimed by another worker or already reported is refused as the report would be.
 */
export async function claimTask(
  ctx: AppContext,
  worker: WorkerPrincipal,
  taskId: string,
): Promise<TaskOut> {
  const at = ctx.clock.now().toISOString();
  const row = await loadTask(ctx.db, worker, taskId);
  if (row.status === 'posting' && row.claimed_by === null) {
    // loadTask admitted an unclaimed task only on an account this worker operates.
    const claimed = await ctx.db
      .transaction()
      .execute((tx) => claimItem(tx, row.id, worker.workerId, at));
    if (claimed) {
      await workers.touchWorker(ctx.db, worker.workerId, at);
      return getTask(ctx, worker, taskId);
    }
  }
  const current = await loadTask(ctx.db, worker, taskId);
  if (current.status !== 'posting') {
    throw new ApiError(
      'task_already_reported',
      `Task ${taskId} is already ${current.status}; its outcome cannot change`,
    );
  }
  if (current.claimed_by !== worker.workerId) {
    throw new ApiError('task_not_claimed', `Task ${taskId} is claimed by another worker`);
  }
  return getTask(ctx, worker, taskId);
}

/**
 * Open tasks of the worker, oldest release first, with a cursor: those waiting for a claim on
 * the accounts it operates and those it claimed.
 */
export async function listTasks(
  ctx: AppContext,
  worker: WorkerPrincipal,
  query: TaskListInput,
): Promise<{ data: TaskOut[]; nextCursor: string | null }> {
  const now = ctx.clock.now();
  const limit = query.limit ?? 25;
  const scope = cursorScope(worker.workerId, 'worker-tasks', { state: query.state });
  const after = query.cursor
    ? (ctx.cursors.decode(scope, query.cursor, now, 2) as [string, string])
    : undefined;
  const ids = await items.openTaskIds(ctx.db, worker.workerId, {
    ...(query.state ? { claimed: query.state === 'claimed' } : {}),
    ...(after ? { after } : {}),
    limit: limit + 1,
  });
  const rows = await items.findTasks(ctx.db, ids.slice(0, limit));
  const last = rows[rows.length - 1];
  return {
    data: await toTasks(ctx, rows),
    nextCursor:
      ids.length > limit && last
        ? ctx.cursors.encode(scope, [last.released_at as string, last.id], now)
        : null,
  };
}

export async function getTask(
  ctx: AppContext,
  worker: WorkerPrincipal,
  taskId: string,
): Promise<TaskOut> {
  const [task] = await toTasks(ctx, [await loadTask(ctx.db, worker, taskId)]);
  return task as TaskOut;
}

/** Tasks a version covers: more than the app's first page shows. */
const VERSION_SPAN = 100;

/**
 * What the worker's open tasks are now, as a short token that changes when a task is
 * released to the worker, started, reported or taken away: the workers' app asks for it
 * every little while and reloads its list only when it changed.
 */
export async function taskListVersion(
  ctx: AppContext,
  worker: WorkerPrincipal,
): Promise<{ version: string; open: number }> {
  const [released, claimed] = await Promise.all([
    items.openTaskIds(ctx.db, worker.workerId, { claimed: false, limit: VERSION_SPAN }),
    items.openTaskIds(ctx.db, worker.workerId, { claimed: true, limit: VERSION_SPAN }),
  ]);
  const version = createHash('sha256')
    .update(`${released.join(',')}|${claimed.join(',')}`)
    .digest('base64url')
    .slice(0, 16);
  return { version, open: released.length + claimed.length };
}
