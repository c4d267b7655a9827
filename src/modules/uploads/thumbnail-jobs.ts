// Thumbnails are made off the request path: a ready upload queues a job that
// renders a small JPEG, stores it beside the file and records it, after which
// the upload's `thumbnailUrl` appears (SPEC 2.1, DECISIONS 3).
import type { AppContext } from '../../context.ts';
import type { UploadsTable } from '../../db/types.ts';
import sharp from 'sharp';
import { ThumbnailError, imageThumbnail, videoThumbnail } from '../../media/thumbnails.ts';
import { setThumbnail } from './uploads.repository.ts';

export function thumbnailKeyOf(row: Pick<UploadsTable, 'blob_key'>): string {
  return `${row.blob_key}.thumb.jpg`;
}

/**
 * A neutral tile in the image's proportions, for valid images this build cannot
 * decode (HEVC-coded HEIC), so every ready upload still has a thumbnail.
 */
async function placeholder(row: UploadsTable): Promise<Buffer> {
  const info = row.media_info
    ? (JSON.parse(row.media_info) as { width: number; height: number })
    : null;
  const scale = info ? 480 / Math.max(info.width, info.height) : 1;
  const width = info ? Math.max(16, Math.round(info.width * scale)) : 480;
  const height = info ? Math.max(16, Math.round(info.height * scale)) : 480;
  const label = row.content_type.split('/')[1]?.toUpperCase() ?? 'IMAGE';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#334155"/>
    <text x="50%" y="50%" fill="#e2e8f0" font-family="sans-serif" font-size="${Math.max(10, Math.round(Math.min(width, height) / 6))}"
      text-anchor="middle" dominant-baseline="middle">${label}</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** Renders and stores the thumbnail of one ready upload. */
export async function makeThumbnail(ctx: AppContext, row: UploadsTable): Promise<void> {
  const path = ctx.blobs.localPath(row.blob_key);
  if (!path) throw new Error('thumbnails need a local blob path');
  let jpeg: Buffer;
  try {
    jpeg = row.kind === 'video' ? await videoThumbnail(path) : await imageThumbnail(path);
  } catch (err) {
    if (!(err instanceof ThumbnailError && err.reason === 'unsupported')) throw err;
    jpeg = await placeholder(row);
  }
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
