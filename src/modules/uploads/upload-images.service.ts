// Images the service already holds, as uploads: a company's workspace image chosen in the
// dashboard's composer becomes an upload through the signed flow's own steps (create, store,
// complete), so it is checked and counted as any upload is; and a ready image upload's bytes
// are read back for a slide preview.
import type { Principal } from '../../access.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { IMAGE_LIMITS } from '../../media/probe/index.ts';
import { storeUploadBytes } from './upload-bytes.service.ts';
import * as repo from './uploads.repository.ts';
import type { UploadOut } from './uploads.schemas.ts';
import { completeUpload, createSignedUpload } from './uploads.service.ts';

export interface HeldImage {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** Makes an image upload of bytes the service holds; it is ready (or refused) on return. */
export async function uploadHeldImage(
  ctx: AppContext,
  principal: Principal,
  image: HeldImage,
): Promise<UploadOut> {
  const created = await createSignedUpload(ctx, principal, {
    kind: 'image',
    filename: image.filename,
    contentType: image.contentType,
    sizeBytes: image.bytes.length,
  });
  await storeUploadBytes(ctx, principal.companyId, created.uploadId, {
    contentType: image.contentType,
    body: image.bytes,
  });
  return completeUpload(ctx, principal, created.uploadId);
}

/** The bytes of one of the company's ready image uploads; another company's is unknown. */
export async function readImageUpload(
  ctx: AppContext,
  companyId: string,
  uploadId: string,
): Promise<{ bytes: Buffer; contentType: string }> {
  const row = await repo.findUpload(ctx.db, companyId, uploadId);
  if (!row) throw new ApiError('upload_not_found', `Upload ${uploadId} does not exist`);
  if (row.kind !== 'image') {
    throw new ApiError('invalid_media_set', `Upload ${uploadId} is a video, not an image`);
  }
  if (row.status !== 'ready') {
    throw new ApiError('upload_not_ready', `Upload ${uploadId} is ${row.status}, not ready`);
  }
  const bytes = await ctx.blobs.read(row.blob_key, IMAGE_LIMITS.maxBytes);
  if (!bytes) throw new Error(`the stored bytes of upload ${uploadId} are missing`);
  return { bytes, contentType: row.content_type };
}
