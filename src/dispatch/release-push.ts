// A released task is pushed to its worker's devices at once: in the release's transaction,
// one outbox row per device ("New task for @demo.kitchen, window 14:00, report by 16:00",
// in the worker's time), sent later by the push loop, so a release pass never waits on a
// push service. A tap opens the task in the workers' app. At most one push per task and
// device, whichever dispatcher released it. Workers who turned new tasks off get none; a
// worker's quiet hours hold theirs until the hours end (one read of every worker's choices
// per chunk of tasks), and a push that would arrive after the task's report is due is not
// written at all.
import type { DbOrTx } from '../db/types.ts';
import { findAccountsByIds } from '../modules/accounts/index.ts';
import { recipientsFor } from '../modules/notify/index.ts';
import { queuePushes, type PushRequest } from '../modules/push/index.ts';

/** Where the workers' app shows a task. */
const TASK_PATH = '/dashboard/worker/tasks/';

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
  const requests: PushRequest[] = [];
  for (const task of tasks) {
    const account = accounts.get(task.accountId);
    if (!account?.worker_id) continue;
    const dueAt = sendAt.get(account.worker_id);
    if (!dueAt || dueAt.getTime() >= reportByMs) continue;
    const window = clockTime(task.slotStart, account.timezone);
    const by = clockTime(reportBy, account.timezone);
    requests.push({
      audience: 'worker',
      ownerIds: [account.worker_id],
      companyId: task.companyId,
      kind: 'task_released',
      notice: {
        title: `New task for @${account.username}`,
        body: `New task for @${account.username}, window ${window}, report by ${by}`,
        url: `${TASK_PATH}${encodeURIComponent(task.itemId)}`,
        tag: `task-${task.itemId}`,
      },
      dedupeKey: `task_released:${task.itemId}`,
      // Kept for an offline phone until the report is due, counted from its sending.
      ttlSeconds: (reportByMs - Math.max(at.getTime(), dueAt.getTime())) / 1000,
      urgency: 'high',
      ...(dueAt.getTime() > at.getTime() ? { dueAt } : {}),
    });
  }
  return queuePushes(tx, requests, at);
}
