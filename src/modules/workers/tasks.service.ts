// The worker side of releases (DECISIONS 6): a worker claims the released items (tasks) of
// the accounts it operates, downloads their media through signed URLs, reports each outcome,
// and pushes analytics. Every status change goes through items.state.ts. A worker sees only
// tasks of accounts it operates now, or tasks it claimed itself; anything else is not found.
import { createHash } from 'node:crypto';
import { matchPostUrl } from '../../lib/post-url-pattern.ts';
import * as accountWorkers from '../accounts/index.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { cursorScope } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import {
  attachProof,
  claimItem,
  claimItems,
  finishItem,
  UNCONFIRMED_REASON,
} from '../items/index.ts';
import { postMediaItems, readyThumbnails, thumbnailUrlUntil } from '../posts/index.ts';
import type { SoundInput } from '../posts/index.ts';
import type { WorkerPrincipal } from '../../access.ts';
import * as workers from './workers.repository.ts';
import { accountNotFound, toWorkerAccount } from './worker-accounts.service.ts';
import { changeStatus, noteFollowers, notePosted } from '../accounts/index.ts';
import * as items from '../items/index.ts';
import { storeAccountStats, storeSnapshot } from '../analytics/index.ts';
import { mediaPath, storeProofImage, uploadFacts } from '../uploads/index.ts';
import type {
  AccountStatsInput,
  ClaimInput,
  HeartbeatOut,
  ResultInput,
  SnapshotInput,
  TaskListInput,
  TaskOut,
} from './workers.schemas.ts';

/** Signed media URLs of a task live at least this long (and until its report deadline). */
const MIN_URL_MS = 60 * 60 * 1000;
/** Reports may carry times slightly ahead of the service's clock. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

function taskNotFound(taskId: string): ApiError {
  return new ApiError('task_not_found', `Task ${taskId} does not exist for this worker`);
}

/** Account engagement is a percentage kept to two decimals, like engagementRate (DECISIONS 7). */
function twoDecimals(value: number): number {
  return Math.round(value * 100) / 100;
}

function stateOf(row: items.TaskRow): TaskOut['state'] {
  if (row.status === 'posting') return row.claimed_at ? 'claimed' : 'released';
  return row.status === 'posted' ? 'posted' : 'failed';
}

/** A task is the worker's while it operates the account, and always if it claimed it. */
export function visibleTo(row: items.TaskRow, worker: WorkerPrincipal): boolean {
  if (!['posting', 'posted', 'failed'].includes(row.status)) return false;
  return row.worker_id === worker.workerId || row.claimed_by === worker.workerId;
}

function deadline(ctx: AppContext, row: items.TaskRow): string | null {
  if (row.status !== 'posting') return null;
  const from = Date.parse(row.claimed_at ?? (row.released_at as string));
  return new Date(from + ctx.config.taskReportTimeoutMs).toISOString();
}

/** Tasks as the worker API shows them, with media URLs signed afresh. */
export async function toTasks(ctx: AppContext, rows: readonly items.TaskRow[]): Promise<TaskOut[]> {
  const uploads = rows.flatMap((r) => [
    ...(r.media_keys ? [] : (JSON.parse(r.media_upload_ids) as string[])),
    ...(r.proof_upload_id ? [r.proof_upload_id] : []),
  ]);
  const [facts, ready] = await Promise.all([
    uploadFacts(ctx.db, [...new Set(uploads)]),
    readyThumbnails(ctx, rows),
  ]);
  const now = ctx.clock.now().getTime();
  return rows.map((r) => {
    const reportBy = deadline(ctx, r);
    const expires = new Date(Math.max(now + MIN_URL_MS, reportBy ? Date.parse(reportBy) : 0));
    const items = postMediaItems(
      ctx,
      { id: r.post_id, media_keys: r.media_keys, media_upload_ids: r.media_upload_ids },
      facts,
      expires,
    );
    // The post's own thumbnail: its rendered cover, or its upload's once that exists.
    const thumbnailUrl = thumbnailUrlUntil(
      ctx,
      {
        id: r.post_id,
        carousel: r.slides !== null,
        thumbnail_key: r.thumbnail_key,
        thumbnail_upload_id: r.thumbnail_upload_id,
      },
      r.thumbnail_upload_id !== null && ready.has(r.thumbnail_upload_id),
      expires,
    );
    return {
      taskId: r.id,
      postId: r.post_id,
      accountId: r.account_id,
      platform: r.platform as TaskOut['platform'],
      username: r.username,
      state: stateOf(r),
      caption: r.caption,
      hashtags: JSON.parse(r.hashtags) as string[],
      sound: r.sound ? (JSON.parse(r.sound) as SoundInput) : null,
      platformBPostFormat: r.platformb_post_format as 'reel' | 'post',
      media: {
        kind: r.media_keys ? 'carousel' : r.media_kind === 'video' ? 'video' : 'images',
        items,
        thumbnailUrl,
        expiresAt: new Date(Math.floor(expires.getTime() / 1000) * 1000).toISOString(),
      },
      releasedAt: r.released_at as string,
      claimedAt: r.claimed_at,
      reportBy,
      postedAt: r.posted_at,
      postUrl: r.post_url,
      failureReason: r.failure_reason,
      // A failed task shows no proof: a screenshot is proof of a post, and there is none.
      proofScreenshotUrl:
        r.status === 'failed' ? null : proofUrl(ctx, r.proof_upload_id, facts, expires),
    };
  });
}

function proofUrl(
  ctx: AppContext,
  uploadId: string | null,
  facts: Awaited<ReturnType<typeof uploadFacts>>,
  expires: Date,
): string | null {
  const fact = uploadId ? facts.get(uploadId) : undefined;
  if (!uploadId || !fact) return null;
  return ctx.media.url(
    { path: mediaPath(uploadId), key: fact.blob_key, contentType: fact.content_type },
    expires,
  );
}

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
  const row = await loadTask(ctx, worker, taskId);
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

/** A task the worker may see (task_not_found otherwise), as stored. */
export async function loadTask(
  ctx: AppContext,
  worker: WorkerPrincipal,
  taskId: string,
): Promise<items.TaskRow> {
  const [row] = await items.findTasks(ctx.db, [taskId]);
  if (!row || !visibleTo(row, worker)) throw taskNotFound(taskId);
  return row;
}

/** Notes the worker as seen and tells it which accounts it operates and what is open. */
export async function heartbeat(ctx: AppContext, worker: WorkerPrincipal): Promise<HeartbeatOut> {
  const now = ctx.clock.now();
  await workers.touchWorker(ctx.db, worker.workerId, now.toISOString());
  const [accounts, openTasks] = await Promise.all([
    accountWorkers.accountsOfWorker(ctx.db, worker.workerId),
    items.openTaskCounts(ctx.db, worker.workerId),
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
  const row = await loadTask(ctx, worker, taskId);
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
  const current = await loadTask(ctx, worker, taskId);
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
  const [task] = await toTasks(ctx, [await loadTask(ctx, worker, taskId)]);
  return task as TaskOut;
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
  const row = await loadTask(ctx, worker, taskId);
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
    const current = await loadTask(ctx, worker, taskId);
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
  ctx: AppContext,
  worker: WorkerPrincipal,
  taskId: string,
  input: SnapshotInput,
) {
  const now = ctx.clock.now();
  const row = await loadTask(ctx, worker, taskId);
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
  const stored = await storeSnapshot(ctx.db, snapshot, now.toISOString());
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
