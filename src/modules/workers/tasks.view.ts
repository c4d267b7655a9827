// Tasks as the worker API shows them: a released item's state, its report deadline and its
// media behind URLs signed afresh on every read.
import type { AppContext } from '../../context.ts';
import type * as items from '../items/index.ts';
import { postMediaItems, readyThumbnails, thumbnailUrlUntil } from '../posts/index.ts';
import type { SoundInput } from '../posts/index.ts';
import { mediaPath, uploadFacts } from '../uploads/index.ts';
import type { TaskOut } from './workers.schemas.ts';

/** Signed media URLs of a task live at least this long (and until its report deadline). */
const MIN_URL_MS = 60 * 60 * 1000;

export function stateOf(row: items.TaskRow): TaskOut['state'] {
  if (row.status === 'posting') return row.claimed_at ? 'claimed' : 'released';
  return row.status === 'posted' ? 'posted' : 'failed';
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
