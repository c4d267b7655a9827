// Screenshots a worker sends as proof of a post: an image checked exactly as an image
// upload is (real PNG, JPEG, WebP or HEIC content, at most 8192 px a side), stored as a
// ready upload of the post's company, so its bytes are signed and served like any other
// media. Proof is part of the delivery, so it counts against no upload quota.
import type { AppContext } from '../../context.ts';
import type { DbOrTx, UploadsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { decodeWholeImage } from '../../media/image-decode.ts';
import { bufferSource, inspectImageSource } from '../../media/probe/index.ts';
import * as repo from './uploads.repository.ts';
import { addThumbnailJob } from './thumbnail.jobs.ts';

/** The largest screenshot accepted (a phone's full-page capture stays far below it). */
export const PROOF_MAX_BYTES = 15 * 1024 * 1024;
const PROOF_MAX_MIB = PROOF_MAX_BYTES / 1024 / 1024;

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
};

/** The answer to a screenshot past PROOF_MAX_BYTES, with the proof limit in both its parts. */
export function proofTooLarge(sizeBytes?: number): ApiError {
  const got = sizeBytes === undefined ? '' : ` (got ${sizeBytes})`;
  return new ApiError(
    'file_too_large',
    `The screenshot may be at most ${PROOF_MAX_BYTES} bytes (${PROOF_MAX_MIB} MiB)${got}`,
    {
      hint: `Send a screenshot of at most ${PROOF_MAX_MIB} MiB: a PNG or JPEG capture of the screen is far smaller.`,
    },
  );
}

/** What a refused screenshot's answer tells the worker to do, by code. */
const REFUSAL_HINTS: Record<string, string> = {
  unsupported_media_type: 'Send a PNG, JPEG, WebP or HEIC image, with its own Content-Type.',
  invalid_media_specs:
    'Send the screenshot whole, as the phone saved it: at most 8192 px a side, every byte of the file.',
};

/**
 * Stores a screenshot as proof of whatever `attach` records, in one transaction: `bytes` are
 * checked as an image of `contentType` (415 for another type or content, 413 past
 * PROOF_MAX_BYTES, 422 past the image limits or when its pixels do not decode), written to
 * the blob store under a key no row names yet, and only then recorded as a ready upload of
 * the company, in the transaction where `attach(tx, uploadId)` links it to what it proves.
 * When `attach` answers false, or anything in the transaction throws, nothing of the
 * screenshot is kept (the row rolls back, the blob is deleted); answers whether it was kept.
 */
export async function storeProofImage(
  ctx: AppContext,
  companyId: string,
  image: { contentType: string | undefined; bytes: Buffer },
  attach: (tx: DbOrTx, uploadId: string) => Promise<boolean>,
): Promise<boolean> {
  const row = await checkedProof(ctx.clock, companyId, image);
  const stored = await ctx.blobs.put(row.blob_key, image.bytes, { exactBytes: image.bytes.length });
  row.stored_bytes = stored.size;
  row.sha256 = stored.sha256;
  let kept = false;
  try {
    kept = await ctx.db.transaction().execute(async (tx) => {
      await repo.insertUpload(tx, row);
      // Its thumbnail follows off the request path, as for every ready upload.
      await addThumbnailJob(tx, row, row.created_at);
      if (await attach(tx, row.id)) return true;
      throw NOT_ATTACHED;
    });
  } catch (err) {
    if (err !== NOT_ATTACHED) {
      await discard(ctx, row.blob_key);
      throw err;
    }
  }
  if (!kept) {
    await discard(ctx, row.blob_key);
    return false;
  }
  ctx.metrics.uploadBytes(stored.size);
  return true;
}

/** Rolls back the transaction of a screenshot its `attach` did not take. */
const NOT_ATTACHED = new Error('proof not attached');

/**
 * Deletes the blob of a screenshot not kept. A failure is not the caller's: the blob is
 * named by no row, and media is only ever served through its upload's row, so it is never
 * shown; the refusal that led here is the answer.
 */
async function discard(ctx: AppContext, key: string): Promise<void> {
  await ctx.blobs.delete(key).catch(() => undefined);
}

/** The checks of a screenshot, before anything is written: its upload row, still unstored. */
async function checkedProof(
  clock: AppContext['clock'],
  companyId: string,
  image: { contentType: string | undefined; bytes: Buffer },
): Promise<UploadsTable> {
  const contentType = image.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = EXTENSIONS[contentType];
  if (!extension) {
    throw new ApiError(
      'unsupported_media_type',
      `A screenshot must be sent as image/png, image/jpeg, image/webp or image/heic (got ${image.contentType ?? 'no Content-Type'})`,
      { hint: 'Send the image file itself as the body, with its Content-Type.' },
    );
  }
  if (image.bytes.length > PROOF_MAX_BYTES) throw proofTooLarge(image.bytes.length);
  const filename = `proof.${extension}`;
  const inspected = await inspectImageSource(bufferSource(image.bytes), {
    filename,
    contentType,
    sizeBytes: image.bytes.length,
  });
  if (!inspected.ok) {
    throw new ApiError(inspected.code, `Screenshot: ${inspected.error}`, {
      ...(REFUSAL_HINTS[inspected.code] ? { hint: REFUSAL_HINTS[inspected.code] } : {}),
    });
  }
  const decoded = await decodeWholeImage(image.bytes, inspected.info.format);
  if (!decoded.ok) {
    throw new ApiError('invalid_media_specs', `Screenshot: ${decoded.reason}`, {
      hint: 'Send the screenshot whole, as the phone saved it: every byte of the file.',
    });
  }
  const now = clock.now().toISOString();
  const id = newId('upl', Date.parse(now));
  return {
    id,
    company_id: companyId,
    kind: 'image',
    status: 'ready',
    source: 'proof',
    source_url: null,
    filename,
    content_type: contentType,
    size_bytes: image.bytes.length,
    stored_bytes: 0,
    blob_key: `uploads/${companyId}/${id}`,
    sha256: null,
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
}
