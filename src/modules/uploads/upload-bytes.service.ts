// PUT {uploadUrl} with the embedded store (DECISIONS 3): the bytes of a signed upload
// stream through the service to local disk. With object storage the URL is a presigned
// PUT to the bucket instead (upload-incoming.service.ts) and only storeUploadBytes runs here.
import { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import type { UploadsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { randomToken } from '../../lib/ids.ts';
import { BlobSizeError, type StoredBlob } from '../../media/blob-store.ts';
import type { ReceivedBytesOut } from './uploads.schemas.ts';
import * as repo from './uploads.repository.ts';
import { incomingKey } from './upload-incoming.service.ts';

export function bytesPath(uploadId: string): string {
  return `/v2/uploads/${encodeURIComponent(uploadId)}/bytes`;
}

/** What an upload URL is bound to besides its path: the declared size and type. */
export function uploadBinding(row: Pick<UploadsTable, 'size_bytes' | 'content_type'>): string {
  return `${row.size_bytes ?? ''}\n${row.content_type}`;
}

export interface IncomingBytes {
  expires: number;
  signature: string;
  contentType: string | undefined;
  contentLength: number | undefined;
  body: Readable;
}

/** Refuses a body of another type or length than the upload declared. */
function checkDeclared(
  row: UploadsTable,
  contentType: string | undefined,
  contentLength: number | undefined,
): void {
  const declaredType = row.content_type.split(';')[0]?.trim().toLowerCase();
  const sentType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (sentType !== declaredType) {
    throw new ApiError(
      'unsupported_media_type',
      `Content-Type must be ${row.content_type}, as declared when the upload was created (got ${contentType ?? 'none'})`,
    );
  }
  const size = row.size_bytes as number;
  if (contentLength !== undefined && contentLength !== size) {
    throw contentLength > size
      ? new ApiError(
          'file_too_large',
          `Content-Length ${contentLength} exceeds the declared sizeBytes ${size}`,
          {
            hint: 'Send exactly sizeBytes bytes, or create a new upload with the right size.',
          },
        )
      : new ApiError(
          'invalid_request',
          `Content-Length ${contentLength} is less than the declared sizeBytes ${size}`,
          {
            hint: 'Send exactly sizeBytes bytes, or create a new upload with the right size.',
          },
        );
  }
}

/** A body the blob store refused for its length, as the caller's error. */
function sizeRefusal(err: unknown, size: number): unknown {
  if (!(err instanceof BlobSizeError)) return err;
  return err.kind === 'too_large'
    ? new ApiError('file_too_large', `Body is longer than the declared sizeBytes ${size}`, {
        hint: 'Send exactly sizeBytes bytes.',
      })
    : new ApiError(
        'invalid_request',
        `Body has ${err.received} bytes; sizeBytes declared ${size}`,
        {
          hint: 'Send exactly sizeBytes bytes.',
        },
      );
}

/**
 * PUT {uploadUrl}: streams the body straight to the blob store, exactly `sizeBytes`
 * long. The first complete body becomes the upload's content; the same bytes again are
 * accepted as a retry, other bytes or bytes arriving after `complete` are refused (409)
 * and their file deleted, so the validated content never changes.
 */
export async function receiveBytes(
  ctx: AppContext,
  uploadId: string,
  incoming: IncomingBytes,
): Promise<ReceivedBytesOut> {
  const row = await repo.findUploadById(ctx.db, uploadId);
  const check = row
    ? ctx.signer.check(
        bytesPath(uploadId),
        incoming.expires,
        incoming.signature,
        ctx.clock.now(),
        uploadBinding(row),
      )
    : 'invalid';
  if (check === 'invalid' || !row) {
    throw new ApiError('invalid_signature', 'This upload URL’s signature is not valid');
  }
  if (check === 'expired') {
    throw new ApiError('invalid_signature', 'This upload URL has expired', {
      hint: 'Create a new upload with POST /v2/uploads.',
    });
  }
  if (row.status !== 'pending') {
    throw new ApiError('upload_already_completed', `Upload ${uploadId} is already ${row.status}`);
  }
  return storeBody(ctx, row, incoming);
}

/**
 * Streams one attempt's body to a file of its own and makes it the upload's content,
 * unless another attempt or `complete` came first (see receiveBytes).
 */
async function storeBody(
  ctx: AppContext,
  row: UploadsTable,
  incoming: Omit<IncomingBytes, 'expires' | 'signature'>,
): Promise<ReceivedBytesOut> {
  const uploadId = row.id;
  checkDeclared(row, incoming.contentType, incoming.contentLength);
  const size = row.size_bytes as number;
  // Each attempt writes a file of its own; it becomes the content only through setContent.
  const key = `uploads/${row.company_id}/${row.id}.${randomToken(6).toLowerCase()}`;
  let stored: StoredBlob;
  try {
    stored = await ctx.blobs.put(key, incoming.body, { exactBytes: size });
  } catch (err) {
    throw sizeRefusal(err, size);
  }
  ctx.metrics.uploadBytes(stored.size);
  const content = { blob_key: key, stored_bytes: stored.size, sha256: stored.sha256 };
  if (await repo.setContent(ctx.db, uploadId, content, ctx.clock.now().toISOString())) {
    return { uploadId, status: 'pending', receivedBytes: size, sha256: stored.sha256 };
  }
  // Another attempt or `complete` came first: this file never becomes the content.
  await ctx.blobs.delete(key);
  const now = await repo.findUploadById(ctx.db, uploadId);
  if (now?.status === 'pending' && now.sha256 === stored.sha256) {
    // The same bytes again (a retry whose first answer was lost): nothing changes.
    return { uploadId, status: 'pending', receivedBytes: size, sha256: stored.sha256 };
  }
  if (now?.status === 'pending') {
    throw new ApiError(
      'upload_content_conflict',
      `Upload ${uploadId} already has its bytes (SHA-256 ${now.sha256 ?? 'unknown'}); other bytes cannot replace them`,
    );
  }
  throw new ApiError(
    'upload_already_completed',
    `Upload ${uploadId} was completed while these bytes were arriving; its content is unchanged`,
  );
}

/**
 * The bytes of a signed upload that the service holds itself (`slotline seed demo`),
 * stored where the caller's `PUT {uploadUrl}` would have put them and under the same
 * checks: with object storage the bucket's incoming key, which `complete` adopts; with
 * the embedded store a file of its own, as receiveBytes does. No URL is involved, so
 * this works whichever store signed `uploadUrl`.
 */
export async function storeUploadBytes(
  ctx: AppContext,
  companyId: string,
  uploadId: string,
  bytes: { contentType: string; body: Buffer },
): Promise<void> {
  const row = await repo.findUpload(ctx.db, companyId, uploadId);
  if (!row) throw new ApiError('upload_not_found', `Upload ${uploadId} does not exist`);
  if (row.expires_at !== null && Date.parse(row.expires_at) <= ctx.clock.now().getTime()) {
    throw new ApiError('invalid_signature', 'This upload URL has expired', {
      hint: 'Create a new upload with POST /v2/uploads.',
    });
  }
  if (row.status !== 'pending') {
    throw new ApiError('upload_already_completed', `Upload ${uploadId} is already ${row.status}`);
  }
  const body = { contentType: bytes.contentType, contentLength: bytes.body.length };
  if (row.blob_key !== incomingKey(row.company_id, row.id)) {
    await storeBody(ctx, row, { ...body, body: Readable.from([bytes.body]) });
    return;
  }
  // What the bucket checks of a presigned PUT: the signed Content-Type and Content-Length.
  checkDeclared(row, body.contentType, body.contentLength);
  const size = row.size_bytes as number;
  try {
    await ctx.blobs.put(row.blob_key, bytes.body, {
      exactBytes: size,
      contentType: row.content_type,
    });
  } catch (err) {
    throw sizeRefusal(err, size);
  }
}
