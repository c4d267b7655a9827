// Runs the dispatcher on a timer in the service process (or alone, `slotline
// dispatch`). One pass at a time; a failed pass is reported and the next one runs.
// A pass releases what is due, then fails released tasks past their report deadline and
// pending uploads past theirs, then reminds approvers of items whose window is near and
// checks the hand-offs (tasks not claimed, reports due soon) and the daily summaries.
import type { AppContext } from '../context.ts';
import { startPeriodic, type PassReport, type Periodic } from '../lib/periodic.ts';
import { failOverdueTasks, failStalledUploads, type DeadlineResult } from './deadlines.ts';
import { remindApprovalsNow, type ApprovalReminderResult } from './approval-reminders.ts';
import { releaseDue, type DispatchResult } from './dispatcher.ts';
import { checkHandoffsNow, type HandoffResult } from './handoff.ts';
import { sendDailySummariesNow } from './daily-summary.ts';

/** What a pass reports; the per-release lags go to the metrics only, not to logs. */
export interface PassResult extends Omit<DispatchResult, 'lagSeconds'> {
  overdue: DeadlineResult;
  /** Pending uploads failed because their deadline passed. */
  expiredUploads: number;
  /** Approval reminders written this pass; null when the last minute's pass covered it. */
  approvals: ApprovalReminderResult | null;
  /** Hand-off notices written this pass; null when the last minute's pass covered it. */
  handoffs: HandoffResult | null;
  /** Companies sent their daily summary this pass; null when the last minute's pass ran. */
  summaries: number | null;
}

/** One dispatcher pass at `now`: releases, then report and upload deadlines. */
export async function dispatchPass(ctx: AppContext, now: Date): Promise<PassResult> {
  const started = performance.now();
  try {
    const { lagSeconds, ...released } = await releaseDue(ctx, now);
    const overdue = await failOverdueTasks(ctx, now);
    const expiredUploads = await failStalledUploads(ctx, now);
    const approvals = await remindApprovalsNow(ctx, now);
    const handoffs = await checkHandoffsNow(ctx, now);
    const summaries = await sendDailySummariesNow(ctx, now);
    ctx.metrics.dispatchPass(
      { released: released.released, lagSeconds, deadlinesMissed: overdue },
      (performance.now() - started) / 1000,
    );
    return { ...released, overdue, expiredUploads, approvals, handoffs, summaries };
  } catch (err) {
    ctx.metrics.dispatchFailed();
    throw err;
  }
}

export type DispatchLoop = Periodic;

export function startDispatchLoop(
  ctx: AppContext,
  intervalMs: number,
  report: PassReport<PassResult>,
): DispatchLoop {
  return startPeriodic(() => dispatchPass(ctx, ctx.clock.now()), intervalMs, report);
}
