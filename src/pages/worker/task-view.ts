// The task page of the workers' app, as every route that shows it renders it: the task's
// media, caption and hashtags, its window and deadline, and the forms it offers in its state
// (start, report posted or failed, add a screenshot, enter figures), with what a refused
// form sent and why, next to the field.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { UNCONFIRMED_REASON } from '../../modules/items/index.ts';
import { latestTaskFigures, taskWindows, type TaskOut } from '../../modules/workers/index.ts';
import { sessionOf, workerPage, type FieldErrors } from './layout.ts';

/** Which form of the task page a refusal belongs to. */
export type TaskForm = 'posted' | 'failed' | 'proof' | 'figures';

/** A refused form: what it sent, and why, by field (`''` for the form as a whole). */
export interface TaskFormState {
  form: TaskForm;
  values: Record<string, string>;
  errors: FieldErrors;
}

/** Hashtags as they are posted: each with its `#`, one space apart. */
export function hashtagText(tags: readonly string[]): string {
  return tags
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((t) => (t.startsWith('#') ? t : `#${t}`))
    .join(' ');
}

/** Whether the worker may still report the task: open, or failed only for want of a report. */
export function reportable(task: TaskOut): boolean {
  return task.state === 'released' || task.state === 'claimed' || lateReport(task);
}

function lateReport(task: TaskOut): boolean {
  return (
    task.state === 'failed' && task.failureReason === UNCONFIRMED_REASON && task.claimedAt !== null
  );
}

export async function taskPage(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  task: TaskOut,
  state: TaskFormState | null = null,
  notice: string | null = null,
) {
  const { worker } = sessionOf(req);
  const now = ctx.clock.now();
  const [windows, figures] = await Promise.all([
    taskWindows(ctx, worker, [task.taskId]),
    task.state === 'posted' ? latestTaskFigures(ctx, worker, task.taskId) : null,
  ]);
  const errors = state?.errors ?? {};
  return workerPage(req, reply, now, 'task.eta', `@${task.username}: task`, {
    task,
    window: windows.get(task.taskId) ?? null,
    open: reportable(task),
    late: lateReport(task),
    hashtags: hashtagText(task.hashtags),
    figures,
    // The moment the figures form was opened: sent back with it, so a resent form is the
    // same snapshot; a refused form keeps the one it carried.
    collectedAt: state?.form === 'figures' ? (state.values.collectedAt ?? '') : now.toISOString(),
    form: state?.form ?? null,
    values: state?.values ?? {},
    errors,
    problem: Object.keys(errors).length > 0,
    notice,
  });
}
