// Report deadlines of released tasks (DECISIONS 6): a task no worker claimed, or claimed and
// never reported, fails once TASK_REPORT_TIMEOUT_SECONDS have passed, with a reason saying
// which. It is never put back in the queue on its own: a worker may have posted without
// reporting, and releasing it again could post it twice. A claimed task failed so is an
// outcome (unconfirmed), told in the same transaction (outcomes.ts). Pending uploads past
// their deadline fail too (upload-expiry.service.ts). Runs with each dispatcher pass.
import type { AppContext } from '../context.ts';
import { failUnreported } from '../modules/items/index.ts';
import { failExpiredUploads } from '../modules/uploads/index.ts';
import { tellOutcomes } from './outcomes.ts';

/** Items failed per transaction. */
const CHUNK = 500;

export interface DeadlineResult {
  /** Tasks failed because no worker claimed them in time (nothing was posted). */
  unclaimed: number;
  /** Tasks failed because their claim was never reported (outcome unconfirmed). */
  unconfirmed: number;
}

export async function failOverdueTasks(ctx: AppContext, now: Date): Promise<DeadlineResult> {
  const cutoff = new Date(now.getTime() - ctx.config.taskReportTimeoutMs).toISOString();
  const at = now.toISOString();
  const result: DeadlineResult = { unclaimed: 0, unconfirmed: 0 };
  for (;;) {
    const failed = await ctx.db.transaction().execute(async (tx) => {
      const moved = await failUnreported(tx, cutoff, at, CHUNK);
      await tellOutcomes(
        ctx,
        tx,
        moved
          .filter((f) => f.claimed)
          .map((f) => ({
            kind: 'task_unconfirmed' as const,
            companyId: f.companyId,
            subjectId: f.id,
            occasion: f.releasedAt,
            reason: null,
          })),
        now,
      );
      return moved;
    });
    for (const f of failed) result[f.claimed ? 'unconfirmed' : 'unclaimed']++;
    if (failed.length < CHUNK) return result;
  }
}

/**
 * Fails pending uploads whose request is gone: a remote fetch cut off by a crash, a signed
 * upload never sent or completed. No post waits on them (posts take ready uploads only),
 * so nothing else changes. The number failed.
 */
export function failStalledUploads(ctx: AppContext, now: Date): Promise<number> {
  return failExpiredUploads(ctx, now);
}
