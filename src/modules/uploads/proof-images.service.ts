// Screenshots a worker sends as proof of a post: an image checked exactly as an image
// upload is (real PNG, JPEG, WebP or HEIC content, at most 8192 px a side), stored as a
// ready upload of the post's company, so its bytes are signed and served like any other
// media. Proof is part of the delivery, so it counts against no upload quota.
import type { AppContext } from '../../context.ts';
import type { UploadsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { bufferSource, inspectImageSource } from '../../media/probe/index.ts';
import * as repo from './uploads.repository.ts';

/** The largest screenshot accepted (a phone's full-page capture stays far below it). */
export const PROOF_MAX_BYTES = 15 * 1024 * 1024;

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
};

/**
 * Validates `bytes` as an image of `contentType` and stores it as a ready upload of the
 * company; returns the upload's id. Refuses with the upload codes: 415 for another type or
 * content, 413 past PROOF_MAX_BYTES, 422 past the image limits.
 */
export async function storeProofImage(
  ctx: AppContext,
  companyId: string,
  image: { contentType: string | undefined; bytes: Buffer },
  onReady: (row: UploadsTable) => void = () => {},
): Promise<string> {
  const contentType = image.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = EXTENSIONS[contentType];
  if (!extension) {
    throw new ApiError(
      'unsupported_media_type',
      `A screenshot must be sent as image/png, image/jpeg, image/webp or image/heic (got ${image.contentType ?? 'no Content-Type'})`,
      { hint: 'Send the image file itself as the body, with its Content-Type.' },
    );
  }
  if (image.bytes.length > PROOF_MAX_BYTES) {
    throw new ApiError(
      'file_too_large',
      `A screenshot may be at most ${PROOF_MAX_BYTES} bytes (got ${image.bytes.length})`,
    );
  }
  const filename = `proof.${extension}`;
  const inspected = await inspectImageSource(bufferSource(image.bytes), {
    filename,
    contentType,
    sizeBytes: image.bytes.length,
  });
  if (!inspected.ok) throw new ApiError(inspected.code, `Screenshot: ${inspected.error}`);
  const now = ctx.clock.now().toISOString();
  const id = newId('upl', Date.parse(now));
  const key = `uploads/${companyId}/${id}`;
  const stored = await ctx.blobs.put(key, image.bytes, { exactBytes: image.bytes.length });
  const row: UploadsTable = {
    id,
    company_id: companyId,
    kind: 'image',
    status: 'ready',
    source: 'proof',
    source_url: null,
    filename,
    content_type: contentType,
    size_bytes: image.bytes.length,
    stored_bytes: stored.size,
    blob_key: key,
    sha256: stored.sha256,
    thumbnail_key: null,
    thumbnail_error: null,
    error: null,
    media_info: JSON.stringify({
      width: inspected.info.width,
      height: inspected.info.height,
      format: inspected.info.format,
    }),
    expires_at: null,
    created_at: now,
    updated_at: now,
    completed_at: now,
  };
  try {
    await repo.insertUpload(ctx.db, row);
  } catch (err) {
    await ctx.blobs.delete(key).catch(() => undefined);
    throw err;
  }
  ctx.metrics.uploadBytes(stored.size);
  // Its thumbnail follows off the request path, as for every ready upload.
  onReady(row);
  return id;
}
