// Uploads (SPEC 2.1, 3, 4.1; DECISIONS 3). Signed form: create, PUT the bytes
// to the signed URL, complete. Every state change of an upload happens here,
// each one conditional on the status it starts from, so concurrent requests
// cannot both move the same upload.
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { ByteSource } from '../../media/probe/index.ts';
import type { AppContext } from '../../context.ts';
import type { DbOrTx, UploadsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { REDIRECT_URL_MS, storedMedia, type MediaAnswer } from '../../media/media-urls.ts';
import {
  IMAGE_LIMITS,
  VIDEO_LIMITS,
  checkDeclaredImage,
  checkDeclaredVideo,
  inspectImageSource,
  inspectVideoSource,
  type MediaRejection,
} from '../../media/probe/index.ts';
import type { Principal } from '../../access.ts';
import { consumeDaily, consumeVideoQuota, planOf, videosUploaded } from '../usage/index.ts';
import type { CreateUploadInput, CreatedUploadOut, UploadOut } from './uploads.schemas.ts';
import * as repo from './uploads.repository.ts';
import { adoptIncoming, incomingKey } from './upload-incoming.service.ts';
import { markUploadFailed, markUploadReady } from './uploads.state.ts';
import { bytesPath, uploadBinding } from './upload-bytes.service.ts';

export {
  bytesPath,
  receiveBytes,
  storeUploadBytes,
  type IncomingBytes,
} from './upload-bytes.service.ts';
export { incomingKey } from './upload-incoming.service.ts';

/** DECISIONS 3: upload URLs expire after an hour; so do media URLs handed out on reads. */
const UPLOAD_URL_MS = 60 * 60 * 1000;
const MEDIA_URL_MS = 60 * 60 * 1000;

export type UploadKind = 'video' | 'image';

export interface MediaInfo {
  width: number;
  height: number;
  durationSeconds?: number;
  videoCodec?: string;
  audioCodec?: string | null;
  frameRate?: number;
  format?: string;
}

export const maxBytes = (kind: UploadKind) =>
  kind === 'video' ? VIDEO_LIMITS.maxBytes : IMAGE_LIMITS.maxBytes;

export function mediaPath(uploadId: string, thumbnail = false): string {
  return `/v2/media/uploads/${encodeURIComponent(uploadId)}${thumbnail ? '/thumbnail' : ''}`;
}

export function rejection(r: MediaRejection, pointer?: string): ApiError {
  return new ApiError(r.code, pointer ? `${pointer}: ${r.error}` : r.error);
}

function notFound(uploadId: string): ApiError {
  return new ApiError('upload_not_found', `Upload ${uploadId} does not exist`);
}

export function toUpload(ctx: AppContext, row: UploadsTable): UploadOut {
  const out: UploadOut = {
    uploadId: row.id,
    kind: row.kind as UploadKind,
    status: row.status as UploadOut['status'],
    filename: row.filename,
    contentType: row.content_type,
    createdAt: row.created_at,
  };
  if (row.size_bytes !== null) out.sizeBytes = row.size_bytes;
  if (row.status === 'ready') {
    const expires = new Date(ctx.clock.now().getTime() + MEDIA_URL_MS);
    out.url = ctx.media.url(
      { path: mediaPath(row.id), key: row.blob_key, contentType: row.content_type },
      expires,
    );
    if (row.sha256) out.sha256 = row.sha256;
    if (row.thumbnail_key) {
      out.thumbnailUrl = ctx.media.url(
        { path: mediaPath(row.id, true), key: row.thumbnail_key, contentType: 'image/jpeg' },
        expires,
      );
      out.thumbnailStatus = 'ready';
    } else if (row.thumbnail_error) {
      out.thumbnailStatus = 'failed';
      out.thumbnailError = row.thumbnail_error;
    } else {
      out.thumbnailStatus = 'pending';
    }
  }
  if (row.status === 'failed' && row.error) out.error = row.error;
  if (row.media_info) {
    const info = JSON.parse(row.media_info) as MediaInfo;
    out.width = info.width;
    out.height = info.height;
    if (info.durationSeconds !== undefined) out.durationSeconds = info.durationSeconds;
  }
  return out;
}

export async function checkVideoQuotaRoom(ctx: AppContext, principal: Principal): Promise<void> {
  const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, principal.plan);
  if ((await videosUploaded(ctx.db, principal.companyId)) >= plan.videoQuota) {
    throw new ApiError(
      'quota_exceeded',
      `Plan video quota of ${plan.videoQuota} videos is reached`,
      {
        hint: 'Upgrade the plan to upload more videos.',
      },
    );
  }
}

/** The signed form of POST /v2/uploads. */
export async function createSignedUpload(
  ctx: AppContext,
  principal: Principal,
  input: CreateUploadInput,
): Promise<CreatedUploadOut> {
  for (const field of ['filename', 'contentType', 'sizeBytes'] as const) {
    if (input[field] === undefined) {
      throw new ApiError(
        'invalid_request',
        `/${field} is required (or send sourceUrl for a remote upload)`,
        {
          hint: 'Send kind, filename, contentType and sizeBytes, or kind and sourceUrl.',
        },
      );
    }
  }
  const filename = input.filename as string;
  const contentType = input.contentType as string;
  const sizeBytes = input.sizeBytes as number;
  const limit = maxBytes(input.kind);
  if (sizeBytes > limit) {
    throw new ApiError(
      'file_too_large',
      `/sizeBytes ${sizeBytes} exceeds the ${input.kind} limit of ${limit} bytes`,
    );
  }
  const declared = { filename, contentType, sizeBytes };
  const problem =
    input.kind === 'video' ? checkDeclaredVideo(declared) : checkDeclaredImage(declared);
  if (problem) {
    throw rejection(problem, /filename/i.test(problem.error) ? '/filename' : '/contentType');
  }
  if (input.kind === 'video') await checkVideoQuotaRoom(ctx, principal);

  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + UPLOAD_URL_MS);
  const id = newId('upl', now.getTime());
  // With object storage the caller PUTs straight to the bucket, under a key no later
  // step reads as content: `complete` copies it to a key no URL can write.
  const incoming = incomingKey(principal.companyId, id);
  const presigned = await ctx.blobs.presignPut(incoming, {
    size: sizeBytes,
    contentType,
    expiresInSeconds: UPLOAD_URL_MS / 1000,
  });
  const row: UploadsTable = {
    id,
    company_id: principal.companyId,
    kind: input.kind,
    status: 'pending',
    source: 'signed',
    source_url: null,
    filename,
    content_type: contentType,
    size_bytes: sizeBytes,
    stored_bytes: null,
    // Replaced by the file of the PUT attempt that wins (receiveBytes), or by the
    // copy `complete` makes of the bucket's incoming object.
    blob_key: presigned ? incoming : `uploads/${principal.companyId}/${id}`,
    sha256: null,
    thumbnail_key: null,
    thumbnail_error: null,
    error: null,
    media_info: null,
    expires_at: expiresAt.toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    completed_at: null,
  };
  const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, principal.plan);
  await ctx.db.transaction().execute(async (tx) => {
    await consumeDaily(tx, plan, principal.companyId, 'uploads', now);
    await repo.insertUpload(tx, row);
  });
  return {
    uploadId: id,
    uploadUrl: presigned ?? ctx.signer.sign(bytesPath(id), expiresAt, uploadBinding(row)),
    expiresAt: expiresAt.toISOString(),
  };
}

/** Validates stored bytes; the upload becomes ready, or failed with the reason. */
async function inspectStored(
  ctx: AppContext,
  row: UploadsTable,
): Promise<{ ok: true; info: MediaInfo } | MediaRejection> {
  const source = await ctx.blobs.openSource(row.blob_key);
  if (!source) throw new Error(`the stored bytes of upload ${row.id} are missing`);
  try {
    return await inspectSource(source, row);
  } finally {
    await source.close().catch(() => undefined);
  }
}

async function inspectSource(
  source: ByteSource,
  row: UploadsTable,
): Promise<{ ok: true; info: MediaInfo } | MediaRejection> {
  const declared = {
    filename: row.filename,
    contentType: row.content_type,
    ...(row.size_bytes !== null ? { sizeBytes: row.size_bytes } : {}),
  };
  if (row.kind === 'video') {
    const r = await inspectVideoSource(source, declared);
    if (!r.ok) return r;
    const i = r.info;
    return {
      ok: true,
      info: {
        width: i.width,
        height: i.height,
        durationSeconds: Math.round(i.durationSeconds * 1000) / 1000,
        videoCodec: i.videoCodec,
        audioCodec: i.audioCodec,
        frameRate: Math.round(i.frameRate * 100) / 100,
      },
    };
  }
  const r = await inspectImageSource(source, declared);
  if (!r.ok) return r;
  return { ok: true, info: { width: r.info.width, height: r.info.height, format: r.info.format } };
}

export async function completeUpload(
  ctx: AppContext,
  principal: Principal,
  uploadId: string,
): Promise<UploadOut> {
  const row = await repo.findUpload(ctx.db, principal.companyId, uploadId);
  if (!row) throw notFound(uploadId);
  if (row.status !== 'pending') {
    throw new ApiError(
      'upload_already_completed',
      row.status === 'failed'
        ? `Upload ${uploadId} already failed validation: ${row.error ?? 'unknown reason'}`
        : `Upload ${uploadId} is already complete`,
    );
  }
  if (row.stored_bytes === null && row.blob_key === incomingKey(row.company_id, row.id)) {
    return finishUpload(ctx, principal, await adoptIncoming(ctx, row));
  }
  if (row.stored_bytes === null) {
    throw new ApiError('upload_incomplete', `No bytes have been sent to upload ${uploadId} yet`);
  }
  return finishUpload(ctx, principal, row);
}

/** Marks a pending upload failed with `error`; false when another request moved it first. */
export async function failUpload(
  db: Db,
  clock: Clock,
  uploadId: string,
  error: string,
): Promise<boolean> {
  return markUploadFailed(db, uploadId, error, clock.now().toISOString());
}

/**
 * Validates the stored bytes of a pending upload (SPEC 2.1) and moves it to
 * `ready` (counting the video against the plan) or to `failed`, answering the
 * validation error. Shared by the signed and the remote form.
 */
export async function finishUpload(
  ctx: AppContext,
  principal: Principal,
  row: UploadsTable,
): Promise<UploadOut> {
  const outcome = await inspectStored(ctx, row);
  if (!outcome.ok) {
    if (!(await failUpload(ctx.db, ctx.clock, row.id, outcome.error))) {
      throw new ApiError('upload_already_completed', `Upload ${row.id} was completed meanwhile`);
    }
    ctx.metrics.uploadCompleted(row.kind, 'failed');
    throw new ApiError(outcome.code, outcome.error);
  }
  const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, principal.plan);
  const at = ctx.clock.now().toISOString();
  const ready = {
    status: 'ready',
    media_info: JSON.stringify(outcome.info),
    updated_at: at,
    completed_at: at,
  } satisfies Partial<UploadsTable>;
  await ctx.db.transaction().execute(async (tx) => {
    const moved = await markUploadReady(tx, row.id, ready);
    if (!moved)
      throw new ApiError('upload_already_completed', `Upload ${row.id} was completed meanwhile`);
    if (row.kind === 'video') await consumeVideoQuota(tx, plan, principal.companyId);
  });
  ctx.metrics.uploadCompleted(row.kind, 'ready');
  const updated = { ...row, ...ready };
  return toUpload(ctx, updated);
}

export async function getUpload(
  ctx: AppContext,
  companyId: string,
  uploadId: string,
): Promise<UploadOut> {
  const row = await repo.findUpload(ctx.db, companyId, uploadId);
  if (!row) throw notFound(uploadId);
  return toUpload(ctx, row);
}

/** GET of a signed media URL: the upload's bytes or its thumbnail. */
export async function openUploadMedia(
  ctx: AppContext,
  uploadId: string,
  thumbnail: boolean,
  expires: number,
  signature: string,
): Promise<MediaAnswer> {
  const check = ctx.signer.check(
    mediaPath(uploadId, thumbnail),
    expires,
    signature,
    ctx.clock.now(),
  );
  if (check === 'expired') throw new ApiError('invalid_signature', 'This URL has expired');
  if (check === 'invalid')
    throw new ApiError('invalid_signature', 'This URL’s signature is not valid');
  const row = await repo.findUploadById(ctx.db, uploadId);
  const key = row && (thumbnail ? row.thumbnail_key : row.status === 'ready' ? row.blob_key : null);
  if (!row || !key) throw notFound(uploadId);
  const contentType = thumbnail ? 'image/jpeg' : row.content_type;
  const until = new Date(ctx.clock.now().getTime() + REDIRECT_URL_MS);
  const redirect = ctx.media.direct(
    { path: mediaPath(uploadId, thumbnail), key, contentType },
    until,
  );
  if (redirect) return { redirect };
  return storedMedia(ctx.blobs, key, contentType, () => notFound(uploadId));
}

export type { MediaUpload } from './uploads.repository.ts';

/** The company's uploads among `ids` (distinct), as post creation checks them. */
export function findMediaUploads(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<repo.MediaUpload[]> {
  return repo.findMedia(db, companyId, ids);
}

/** Which of the uploads (distinct ids) have a thumbnail. */
export function uploadsWithThumbnail(db: DbOrTx, ids: readonly string[]): Promise<string[]> {
  return repo.withThumbnail(db, ids);
}

/** Where the company's uploads among `ids` keep their bytes. */
export function uploadBlobKeys(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<{ id: string; blob_key: string }[]> {
  return repo.blobKeys(db, companyId, ids);
}

/** Per upload of the company among `ids` (a video's): its length in seconds, when probed. */
export function uploadDurations(db: DbOrTx, companyId: string, ids: readonly string[]) {
  return repo.durations(db, companyId, ids);
}

/** Content type, SHA-256 and stored key of each upload a task's media is made of. */
export function uploadFacts(db: DbOrTx, ids: readonly string[]) {
  return repo.contentFacts(db, ids);
}
