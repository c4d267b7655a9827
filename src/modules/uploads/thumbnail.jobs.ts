// Thumbnails are made off the request path: an upload becoming ready writes a media job
// (uploads.state.ts) that renders a small JPEG, stores it beside the file and records it,
// after which the upload's `thumbnailUrl` appears (SPEC 2.1, DECISIONS 3). A file that
// cannot give a thumbnail records why at once; storage that fails is tried again by the
// job, and recorded only once its attempts are spent.
import type { AppContext } from '../../context.ts';
import type { DbOrTx, UploadsTable } from '../../db/types.ts';
import { addMediaJob, type MediaOutcome } from '../media-jobs/index.ts';
import sharp from 'sharp';
import { ThumbnailError, imageThumbnail, videoThumbnail } from '../../media/thumbnails.ts';
import { IMAGE_LIMITS, VIDEO_LIMITS } from '../../media/probe/index.ts';

/**
 * Where an upload's thumbnail is stored: a function of the upload id alone, so views
 * that know only that the thumbnail exists (posts, tasks) can name it in a presigned URL.
 */
export function uploadThumbnailKey(uploadId: string): string {
  return `thumbnails/${uploadId}.thumb.jpg`;
}
import { findUpload, setThumbnail } from './uploads.repository.ts';

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
function thumbnailFailure(err: ThumbnailError): string {
  return `the first frame could not be decoded (${err.reason}); the file itself is unaffected`;
}

/**
 * The thumbnail's JPEG. ffmpeg reads a file (with object storage, a bounded temporary
 * copy); images are decoded from memory.
 */
async function render(ctx: AppContext, row: UploadsTable): Promise<Buffer | null> {
  if (row.kind === 'video') {
    return ctx.blobs.withLocalFile(row.blob_key, VIDEO_LIMITS.maxBytes, (path) =>
      videoThumbnail(path),
    );
  }
  const bytes = await ctx.blobs.read(row.blob_key, IMAGE_LIMITS.maxBytes);
  return bytes ? imageThumbnail(bytes) : null;
}

/** The thumbnail job of an upload that became ready, in the transaction that made it so. */
export function addThumbnailJob(
  tx: DbOrTx,
  row: Pick<UploadsTable, 'id' | 'company_id'>,
  at: string,
) {
  return addMediaJob(tx, { kind: 'thumbnail', subjectId: row.id, companyId: row.company_id, at });
}

/**
 * The thumbnail job of upload `uploadId`: renders and stores its thumbnail, or records why
 * none can be made (the upload shows thumbnailStatus `failed`, so no view waits for it).
 * An upload that has one already, or is gone, needs nothing. Throws what is worth trying
 * again (storage that did not answer).
 */
export async function runThumbnailJob(
  ctx: AppContext,
  companyId: string,
  uploadId: string,
  signal: AbortSignal,
): Promise<MediaOutcome> {
  const row = await findUpload(ctx.db, companyId, uploadId);
  if (!row || row.status !== 'ready' || row.thumbnail_key) return { ok: true };
  let jpeg: Buffer | null;
  try {
    jpeg = await render(ctx, row);
  } catch (err) {
    // ffmpeg that could not run or finish in time may well on the next attempt.
    if (
      !(err instanceof ThumbnailError) ||
      err.reason === 'unavailable' ||
      err.reason === 'timeout'
    )
      throw err;
    if (err.reason !== 'unsupported') return recordFailure(ctx, uploadId, thumbnailFailure(err));
    jpeg = await placeholder(row);
  }
  if (!jpeg)
    return recordFailure(ctx, uploadId, 'the stored file is missing; no thumbnail was made');
  signal.throwIfAborted();
  const key = uploadThumbnailKey(row.id);
  await ctx.blobs.put(key, jpeg, { contentType: 'image/jpeg' });
  await setThumbnail(
    ctx.db,
    row.id,
    { thumbnail_key: key, thumbnail_error: null },
    ctx.clock.now().toISOString(),
  );
  return { ok: true };
}

async function recordFailure(
  ctx: AppContext,
  uploadId: string,
  error: string,
): Promise<MediaOutcome> {
  await setThumbnail(ctx.db, uploadId, { thumbnail_error: error }, ctx.clock.now().toISOString());
  return { ok: false, reason: `upload ${uploadId}: ${error}` };
}

/** No thumbnail will be made after the job's attempts: the upload says so. */
export async function thumbnailGaveUp(
  ctx: AppContext,
  companyId: string,
  uploadId: string,
  why: string,
): Promise<void> {
  const row = await findUpload(ctx.db, companyId, uploadId);
  if (!row || row.thumbnail_key) return;
  await setThumbnail(
    ctx.db,
    uploadId,
    { thumbnail_error: `no thumbnail could be made (${why}); the file itself is unaffected` },
    ctx.clock.now().toISOString(),
  );
}
