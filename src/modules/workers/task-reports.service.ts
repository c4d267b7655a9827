// A worker's reports on a task it claimed (DECISIONS 6): the outcome, a screenshot as proof
// of the post, and analytics snapshots once it is posted. Every status change goes through
// items.state.ts.
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import { createHash } from 'node:crypto';
import { matchPostUrl } from '../../lib/post-url-pattern.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { attachProof, finishItem, UNCONFIRMED_REASON } from '../items/index.ts';
import type * as items from '../items/index.ts';
import type { WorkerPrincipal } from '../../access.ts';
import { notePosted } from '../accounts/index.ts';
import { storeSnapshot } from '../analytics/index.ts';
import { storeProofImage, uploadFacts } from '../uploads/index.ts';
import { getTask, loadTask } from './tasks.service.ts';
import { stateOf } from './tasks.view.ts';
import type { ResultInput, SnapshotInput, TaskOut } from './workers.schemas.ts';

/** Reports may carry times slightly ahead of the service's clock. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** A screenshot a worker sends as proof. */
export interface ProofSent {
  image: { contentType: string | undefined; bytes: Buffer };
}

/** Whether `bytes` are the screenshot the task keeps already. */
async function sameProof(ctx: AppContext, row: items.TaskRow, bytes: Buffer): Promise<boolean> {
  if (!row.proof_upload_id) return false;
  const sha = createHash('sha256').update(bytes).digest('hex');
  const current = (await uploadFacts(ctx.db, [row.proof_upload_id])).get(row.proof_upload_id);
  return current?.sha256 === sha;
}

/**
 * Keeps a screenshot as proof of the task's post (PUT .../proof): an image checked like any
 * image upload, decoded whole, and stored with the post's company in the transaction that
 * links it to the task. The task must be claimed by this worker and not failed: a screenshot
 * sent before the report waits with the task and is shown to the company once the task is
 * reported posted. Sending the same image again changes nothing; another one replaces it.
 */
export async function attachTaskProof(
  ctx: AppContext,
  worker: WorkerPrincipal,
  taskId: string,
  image: ProofSent['image'],
): Promise<TaskOut> {
  const row = await loadTask(ctx.db, worker, taskId);
  if (row.claimed_by !== worker.workerId) {
    throw new ApiError(
      'task_not_claimed',
      row.claimed_by
        ? `Task ${taskId} is claimed by another worker`
        : `Task ${taskId} is not claimed yet; claim it before sending its proof`,
    );
  }
  if (row.status === 'failed') {
    throw new ApiError(
      'task_already_reported',
      `Task ${taskId} is failed; a screenshot is kept only as proof of a posted task`,
      {
        hint:
          row.failure_reason === UNCONFIRMED_REASON
            ? 'If the post went out, report the task posted first, then send its screenshot.'
            : 'A failed task takes no proof; read it with GET /worker/v1/tasks/{taskId}.',
      },
    );
  }
  if (await sameProof(ctx, row, image.bytes)) return getTask(ctx, worker, taskId);
  const at = ctx.clock.now().toISOString();
  await storeProofImage(ctx, row.company_id, image, (tx, uploadId) =>
    attachProof(tx, row.id, uploadId, at),
  );
  return getTask(ctx, worker, taskId);
}

function sameOutcome(row: items.TaskRow, input: ResultInput): boolean {
  if (input.outcome === 'posted') return row.status === 'posted' && row.post_url === input.postUrl;
  return row.status === 'failed' && row.failure_reason === input.reason;
}

const PLATFORMS = ['platformA', 'platformB'] as const;

/**
 * A reported post's URL must be a post of the task's account on its platform, as the
 * configured patterns describe them (POST_URL_PATTERN_*): a URL of another platform, or of
 * another account, is refused with what it is and what was expected.
 */
function checkPostUrl(
  ctx: AppContext,
  task: { platform: string; username: string },
  url: string,
): void {
  const platform = task.platform as (typeof PLATFORMS)[number];
  const pattern = ctx.config.postUrlPatterns[platform];
  if (!pattern) return;
  const expected = pattern.template.replace('{username}', task.username).replace('{id}', '...');
  const hint = `Send the address of the published post, like ${expected}`;
  const match = matchPostUrl(pattern, url);
  if (match) {
    if (match.username === null || match.username.toLowerCase() === task.username.toLowerCase()) {
      return;
    }
    throw new ApiError(
      'invalid_request',
      `/postUrl is a post of @${match.username}, not of this task's account @${task.username}`,
      { hint },
    );
  }
  const other = PLATFORMS.find((p) => {
    const otherPattern = p !== platform ? ctx.config.postUrlPatterns[p] : null;
    return otherPattern ? matchPostUrl(otherPattern, url) !== null : false;
  });
  throw new ApiError(
    'invalid_request',
    other
      ? `/postUrl is a ${other} post, but this task's account @${task.username} is on ${platform}`
      : `/postUrl is not the address of a ${platform} post`,
    { hint },
  );
}

/**
 * Records the outcome of a claimed task, with `proof` (a screenshot, for `posted` only) kept
 * in the same transaction. Repeating the same report is harmless (the task comes back
 * unchanged, taking a screenshot sent with it); a different outcome for a finished task is
 * refused. A task that
 * failed only because its report was overdue can still be confirmed as posted by the worker
 * that claimed it: that report settles what really happened.
 */
export async function reportResult(
  ctx: AppContext,
  worker: WorkerPrincipal,
  taskId: string,
  input: ResultInput,
  proof?: ProofSent,
): Promise<TaskOut> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const row = await loadTask(ctx.db, worker, taskId);
  const withProof = input.outcome === 'posted' ? proof : undefined;
  if (sameOutcome(row, input)) {
    // The same report again, with a screenshot: the posted task takes it as later proof.
    if (withProof) return attachTaskProof(ctx, worker, taskId, withProof.image);
    return getTask(ctx, worker, taskId);
  }
  const late =
    row.status === 'failed' &&
    row.claimed_by === worker.workerId &&
    row.failure_reason === UNCONFIRMED_REASON &&
    input.outcome === 'posted';
  if (row.status !== 'posting' && !late) {
    throw new ApiError(
      'task_already_reported',
      `Task ${taskId} is already ${row.status}; its outcome cannot change`,
    );
  }
  if (row.status === 'posting' && row.claimed_by !== worker.workerId) {
    throw new ApiError(
      'task_not_claimed',
      row.claimed_by
        ? `Task ${taskId} is claimed by another worker`
        : `Task ${taskId} is not claimed yet`,
    );
  }
  let outcome: Parameters<typeof finishItem>[2];
  if (input.outcome === 'posted') {
    const postedAt = input.postedAt ? new Date(input.postedAt) : now;
    if (postedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
      throw new ApiError('invalid_request', '/postedAt must not be in the future', {
        hint: 'Send the time the post went out, or leave postedAt out to use the current time.',
      });
    }
    if (postedAt.getTime() < Date.parse(row.released_at as string)) {
      throw new ApiError('invalid_request', '/postedAt must not be before the task was released', {
        hint: `The task was released at ${row.released_at as string}.`,
      });
    }
    checkPostUrl(ctx, row, input.postUrl);
    outcome = { outcome: 'posted', postUrl: input.postUrl, postedAt: postedAt.toISOString() };
  } else {
    outcome = { outcome: 'failed', reason: input.reason };
  }
  const finish = async (tx: Parameters<typeof finishItem>[0]) => {
    const ok = await finishItem(tx, { id: row.id, postId: row.post_id }, outcome, at, {
      fromUnconfirmed: late,
      graceMs: ctx.config.deliveryGraceMs,
    });
    if (ok && outcome.outcome === 'posted') {
      await notePosted(tx, row.account_id, outcome.postedAt, at);
    }
    // A failure is an outcome the company's people (and the operators) are told of, with it.
    if (ok && outcome.outcome === 'failed') {
      await ctx.outcomes?.tell(
        tx,
        [
          {
            kind: 'task_failed',
            companyId: row.company_id,
            subjectId: row.id,
            occasion: row.released_at as string,
            reason: outcome.reason,
          },
        ],
        now,
      );
    }
    return ok;
  };
  // A screenshot sent with the report is checked only once the report is known to be
  // acceptable, and stored in the report's own transaction: a refused report keeps nothing.
  const moved =
    withProof && !(await sameProof(ctx, row, withProof.image.bytes))
      ? await storeProofImage(
          ctx,
          row.company_id,
          withProof.image,
          async (tx, uploadId) => (await finish(tx)) && attachProof(tx, row.id, uploadId, at),
        )
      : await ctx.db.transaction().execute(finish);
  if (!moved) {
    // Another report or the deadline settled it between the read and the write.
    const current = await loadTask(ctx.db, worker, taskId);
    if (sameOutcome(current, input)) return getTask(ctx, worker, taskId);
    throw new ApiError(
      'task_already_reported',
      `Task ${taskId} is already ${current.status}; its outcome cannot change`,
    );
  }
  return getTask(ctx, worker, taskId);
}

/** Stores an analytics snapshot of a posted task (SPEC 2.7 history). */
export async function recordSnapshot(
  db: Db,
  clock: Clock,
  worker: WorkerPrincipal,
  taskId: string,
  input: SnapshotInput,
) {
  const now = clock.now();
  const row = await loadTask(db, worker, taskId);
  if (row.status !== 'posted') {
    throw new ApiError('task_not_posted', `Task ${taskId} is ${stateOf(row)}, not posted`);
  }
  const collectedAt = input.collectedAt ? new Date(input.collectedAt) : now;
  if (collectedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw new ApiError('invalid_request', '/collectedAt must not be in the future', {
      hint: 'Send the time the figures were read, or leave collectedAt out.',
    });
  }
  if (row.posted_at && collectedAt.getTime() < Date.parse(row.posted_at)) {
    throw new ApiError('invalid_request', '/collectedAt must not be before the post went out', {
      hint: `The task was posted at ${row.posted_at}.`,
    });
  }
  const snapshot = {
    id: newId('snp', now.getTime()),
    company_id: row.company_id,
    post_id: row.post_id,
    queue_item_id: row.id,
    account_id: row.account_id,
    platform: row.platform,
    post_url: row.post_url,
    views: input.views,
    likes: input.likes,
    comments: input.comments,
    shares: input.shares,
    saves: input.saves,
    collected_at: collectedAt.toISOString(),
  };
  const stored = await storeSnapshot(db, snapshot, now.toISOString());
  return {
    id: stored.id,
    videoId: row.post_id,
    accountId: row.account_id,
    platform: row.platform as 'platformA' | 'platformB',
    postUrl: row.post_url,
    views: Number(stored.views),
    likes: Number(stored.likes),
    comments: Number(stored.comments),
    shares: Number(stored.shares),
    saves: Number(stored.saves),
    collectedAt: stored.collected_at,
    taskId: row.id,
  };
}
