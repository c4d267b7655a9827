// Thumbnails are made off the request path: a ready upload queues a job that
// renders a small JPEG, stores it beside the file and records it, after which
// the upload's `thumbnailUrl` appears (SPEC 2.1, DECISIONS 3).
import type { AppContext } from '../../context.ts';
import type { UploadsTable } from '../../db/types.ts';
import { imageThumbnail, videoThumbnail } from '../../media/thumbnails.ts';
import { setThumbnail } from './uploads.repository.ts';

export function thumbnailKeyOf(row: Pick<UploadsTable, 'blob_key'>): string {
  return `${row.blob_key}.thumb.jpg`;
}

/** Renders and stores the thumbnail of one ready upload. */
export async function makeThumbnail(ctx: AppContext, row: UploadsTable): Promise<void> {
  const path = ctx.blobs.localPath(row.blob_key);
  if (!path) throw new Error('thumbnails need a local blob path');
  const jpeg = row.kind === 'video' ? await videoThumbnail(path) : await imageThumbnail(path);
  const key = thumbnailKeyOf(row);
  await ctx.blobs.put(key, jpeg);
  await setThumbnail(ctx.db, row.id, key, ctx.clock.now().toISOString());
}

/** The hook the upload routes call when an upload becomes ready. */
export function thumbnailScheduler(ctx: AppContext): (row: UploadsTable) => void {
  return (row) => {
    try {
      ctx.thumbnails.enqueue(() => makeThumbnail(ctx, row));
    } catch {
      // A full or closing queue leaves this upload without a thumbnail; the file is fine.
    }
  };
}
