// Runs the dispatcher on a timer in the service process (or alone, `slotline
// dispatch`). One pass at a time; a failed pass is reported and the next one runs.
// A pass releases what is due, then fails released tasks past their report deadline.
import type { AppContext } from '../context.ts';
import { startPeriodic, type PassReport, type Periodic } from '../lib/periodic.ts';
import { failOverdueTasks, type DeadlineResult } from './deadlines.ts';
import { releaseDue, type DispatchResult } from './dispatcher.ts';

export interface PassResult extends DispatchResult {
  overdue: DeadlineResult;
}

/** One dispatcher pass at `now`: releases, then report deadlines. */
export async function dispatchPass(ctx: AppContext, now: Date): Promise<PassResult> {
  const released = await releaseDue(ctx, now);
  return { ...released, overdue: await failOverdueTasks(ctx, now) };
}

export type DispatchLoop = Periodic;

export function startDispatchLoop(
  ctx: AppContext,
  intervalMs: number,
  report: PassReport<PassResult>,
): DispatchLoop {
  return startPeriodic(() => dispatchPass(ctx, ctx.clock.now()), intervalMs, report);
}
