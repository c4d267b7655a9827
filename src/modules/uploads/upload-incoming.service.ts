// Signed uploads with object storage (DECISIONS 3): the caller PUTs the bytes straight
// to the bucket through a presigned URL, under an "incoming" key. That URL stays valid
// for its hour, so what `complete` validates is a server-side copy under a key no URL
// can write: a later PUT can never change validated content.
import type { AppContext } from '../../context.ts';
import type { UploadsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { randomToken } from '../../lib/ids.ts';
import * as repo from './uploads.repository.ts';
import { markUploadFailed } from './uploads.state.ts';

/** Where the presigned PUT of a signed upload stores its bytes. */
export function incomingKey(companyId: string, uploadId: string): string {
  return `incoming/${companyId}/${uploadId}`;
}

async function failWrongSize(
  ctx: AppContext,
  row: UploadsTable,
  size: number,
  keys: string[],
): Promise<never> {
  const declared = row.size_bytes as number;
  const message = `The stored file has ${size} bytes; sizeBytes declared ${declared}`;
  await markUploadFailed(ctx.db, row.id, message, ctx.clock.now().toISOString());
  ctx.metrics.uploadCompleted(row.kind, 'failed');
  await Promise.all(keys.map((k) => ctx.blobs.delete(k).catch(() => undefined)));
  throw size > declared
    ? new ApiError('file_too_large', message, {
        hint: 'Create a new upload and send exactly sizeBytes bytes.',
      })
    : new ApiError('invalid_request', message, {
        hint: 'Create a new upload and send exactly sizeBytes bytes.',
      });
}

/**
 * Checks the incoming object's size, copies it to the upload's content key and records
 * that key; the row returned is ready for validation. `upload_incomplete` while nothing
 * was PUT yet.
 */
export async function adoptIncoming(ctx: AppContext, row: UploadsTable): Promise<UploadsTable> {
  const incoming = row.blob_key;
  const found = await ctx.blobs.stat(incoming);
  if (!found) {
    throw new ApiError('upload_incomplete', `No bytes have been sent to upload ${row.id} yet`);
  }
  const declared = row.size_bytes as number;
  // A bucket that enforces the signed Content-Length never holds another size.
  if (found.size !== declared) return failWrongSize(ctx, row, found.size, [incoming]);
  const key = `uploads/${row.company_id}/${row.id}.${randomToken(6).toLowerCase()}`;
  await ctx.blobs.copy(incoming, key);
  // A PUT may have replaced the object between the HEAD and the copy: check the copy.
  const copied = await ctx.blobs.stat(key);
  if (copied?.size !== declared) return failWrongSize(ctx, row, copied?.size ?? 0, [key, incoming]);
  // No SHA-256: it would take reading every byte of the object back through the
  // service, which presigned uploads exist to avoid. `sha256` is optional in the API.
  const content = { blob_key: key, stored_bytes: declared, sha256: null };
  if (!(await repo.setContent(ctx.db, row.id, content, ctx.clock.now().toISOString()))) {
    await ctx.blobs.delete(key).catch(() => undefined);
    throw new ApiError('upload_already_completed', `Upload ${row.id} was completed meanwhile`);
  }
  // The bytes went straight to the bucket; they count as stored once adopted.
  ctx.metrics.uploadBytes(declared);
  await ctx.blobs.delete(incoming).catch(() => undefined);
  return { ...row, ...content };
}
