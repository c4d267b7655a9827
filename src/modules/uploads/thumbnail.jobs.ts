// Thumbnails are made off the request path: a ready upload queues a job that
// renders a small JPEG, stores it beside the file and records it, after which
// the upload's `thumbnailUrl` appears (SPEC 2.1, DECISIONS 3).
import type { AppContext } from '../../context.ts';
import type { UploadsTable } from '../../db/types.ts';
import sharp from 'sharp';
import { ThumbnailError, imageThumbnail, videoThumbnail } from '../../media/thumbnails.ts';
import { IMAGE_LIMITS, VIDEO_LIMITS } from '../../media/probe/index.ts';
import { setThumbnail } from './uploads.repository.ts';
import { uploadThumbnailKey } from './uploads.service.ts';

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

/** What an upload shows when its thumbnail cannot be made. */
function thumbnailFailure(err: unknown): string {
  if (err instanceof ThumbnailError) {
    return err.reason === 'unavailable' || err.reason === 'timeout'
      ? `no thumbnail could be made (${err.reason}); the file itself is unaffected`
      : `the first frame could not be decoded (${err.reason}); the file itself is unaffected`;
  }
  return 'no thumbnail could be made; the file itself is unaffected';
}

/**
 * The thumbnail's JPEG. ffmpeg reads a file (with object storage, a bounded temporary
 * copy); images are decoded from memory.
 */
async function render(ctx: AppContext, row: UploadsTable): Promise<Buffer> {
  if (row.kind === 'video') {
    return ctx.blobs.withLocalFile(row.blob_key, VIDEO_LIMITS.maxBytes, (path) =>
      videoThumbnail(path),
    );
  }
  const bytes = await ctx.blobs.read(row.blob_key, IMAGE_LIMITS.maxBytes);
  if (!bytes) throw new Error(`the stored bytes of upload ${row.id} are missing`);
  return imageThumbnail(bytes);
}

/**
 * Renders and stores the thumbnail of one ready upload. A failure is recorded on the
 * upload (thumbnailStatus `failed`), so no view waits for a thumbnail that will not
 * come, and is then rethrown for the log.
 */
export async function makeThumbnail(ctx: AppContext, row: UploadsTable): Promise<void> {
  let jpeg: Buffer;
  try {
    try {
      jpeg = await render(ctx, row);
    } catch (err) {
      if (!(err instanceof ThumbnailError && err.reason === 'unsupported')) throw err;
      jpeg = await placeholder(row);
    }
  } catch (err) {
    const at = ctx.clock.now().toISOString();
    await setThumbnail(ctx.db, row.id, { thumbnail_error: thumbnailFailure(err) }, at);
    throw err;
  }
  const key = uploadThumbnailKey(row.id);
  await ctx.blobs.put(key, jpeg, { contentType: 'image/jpeg' });
  await setThumbnail(
    ctx.db,
    row.id,
    { thumbnail_key: key, thumbnail_error: null },
    ctx.clock.now().toISOString(),
  );
}

/** The hook the upload routes call when an upload becomes ready. */
export function thumbnailScheduler(ctx: AppContext): (row: UploadsTable) => void {
  return (row) => {
    try {
      ctx.thumbnails.enqueue(() => makeThumbnail(ctx, row));
    } catch {
      // A full or closing queue makes no thumbnail; the upload says so rather than wait.
      const error = 'no thumbnail was made (the service was busy); the file itself is unaffected';
      setThumbnail(ctx.db, row.id, { thumbnail_error: error }, ctx.clock.now().toISOString()).catch(
        () => {},
      );
    }
  };
}
