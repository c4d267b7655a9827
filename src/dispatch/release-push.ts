// A released task is pushed to its worker's devices at once: in the release's transaction,
// one outbox row per device ("New task for @demo.kitchen, window 14:00, report by 16:00",
// in the worker's time), sent later by the push loop, so a release pass never waits on a
// push service. A tap opens the task in the workers' app. The tasks one pass releases to one
// worker go in one push ("3 new tasks: @a, @b, @c, window 14:00, report by 16:00", opening
// the task list): a phone buzzes once per pass, not once per account. At most one push per
// task and device, whichever dispatcher released it. Workers who turned new tasks off get none; a
// worker's quiet hours hold theirs until the hours end (one read of every worker's choices
// per chunk of tasks), and a push that would arrive after the task's report is due is not
// written at all.
import type { DbOrTx } from '../db/types.ts';
import { findAccountsByIds } from '../modules/accounts/index.ts';
import { recipientsFor } from '../modules/notify/index.ts';
import { queuePushes, type PushRequest } from '../modules/push/index.ts';

/** Where the workers' app shows a task, and the list of them. */
const TASK_PATH = '/dashboard/worker/tasks/';
const TASKS_PATH = '/dashboard/worker/tasks';
/** Accounts a grouped push names before "and N more". */
const NAMED = 3;

export interface ReleasedTask {
  itemId: string;
  accountId: string;
  companyId: string;
  /** When the window (or make-up slot) released into opened. */
  slotStart: string;
}

function clockTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** Writes the pushes of tasks just released; answers how many were written. */
export async function pushReleasedTasks(
  tx: DbOrTx,
  tasks: readonly ReleasedTask[],
  at: Date,
  reportTimeoutMs: number,
): Promise<number> {
  if (tasks.length === 0) return 0;
  const accounts = new Map(
    (await findAccountsByIds(tx, [...new Set(tasks.map((t) => t.accountId))])).map((a) => [
      a.id,
      a,
    ]),
  );
  const reportByMs = at.getTime() + reportTimeoutMs;
  const reportBy = new Date(reportByMs).toISOString();
  const workerIds = new Set<string>();
  for (const a of accounts.values()) if (a.worker_id) workerIds.add(a.worker_id);
  if (workerIds.size === 0) return 0;
  const sendAt = await recipientsFor(
    tx,
    { audience: 'worker', ownerIds: [...workerIds], kind: 'task_released', channel: 'push' },
    at,
  );
  // Each worker's tasks of this chunk, in the order released.
  const byWorker = new Map<string, { task: ReleasedTask; username: string; window: string }[]>();
  for (const task of tasks) {
    const account = accounts.get(task.accountId);
    if (!account?.worker_id) continue;
    const list = byWorker.get(account.worker_id) ?? [];
    if (list.length === 0) byWorker.set(account.worker_id, list);
    list.push({
      task,
      username: account.username,
      window: clockTime(task.slotStart, account.timezone),
    });
  }
  const requests: PushRequest[] = [];
  for (const [workerId, mine] of byWorker) {
    const dueAt = sendAt.get(workerId);
    if (!dueAt || dueAt.getTime() >= reportByMs) continue;
    const first = mine[0] as (typeof mine)[number];
    const timezone = accounts.get(first.task.accountId)?.timezone ?? 'UTC';
    const by = clockTime(reportBy, timezone);
    const one = mine.length === 1;
    const windows = [...new Set(mine.map((m) => m.window))].slice(0, NAMED);
    const companies = new Set(mine.map((m) => m.task.companyId));
    const names = mine.slice(0, NAMED).map((m) => `@${m.username}`);
    const more = mine.length > NAMED ? ` and ${mine.length - NAMED} more` : '';
    requests.push({
      audience: 'worker',
      ownerIds: [workerId],
      // A push about several companies' tasks is in none of their outboxes, only the console's.
      companyId: companies.size === 1 ? first.task.companyId : null,
      kind: 'task_released',
      notice: one
        ? {
            title: `New task for @${first.username}`,
            body: `New task for @${first.username}, window ${first.window}, report by ${by}`,
            url: `${TASK_PATH}${encodeURIComponent(first.task.itemId)}`,
            tag: `task-${first.task.itemId}`,
          }
        : {
            title: `${mine.length} new tasks`,
            body: `${mine.length} new tasks: ${names.join(', ')}${more}, window${windows.length > 1 ? 's' : ''} ${windows.join(', ')}, report by ${by}`,
            url: TASKS_PATH,
            tag: `task-${first.task.itemId}`,
          },
      // The first task's id keys the push: each task is released once, so the group is too.
      dedupeKey: `task_released:${first.task.itemId}`,
      // Kept for an offline phone until the report is due, counted from its sending.
      ttlSeconds: (reportByMs - Math.max(at.getTime(), dueAt.getTime())) / 1000,
      urgency: 'high',
      ...(dueAt.getTime() > at.getTime() ? { dueAt } : {}),
    });
  }
  return queuePushes(tx, requests, at);
}
