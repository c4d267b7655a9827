// The status changes of an upload: `pending` becomes `ready` or `failed`, once, each change
// conditional on the upload still being pending and recording its webhook event in the
// same transaction.
import type { Db, DbOrTx, UploadsTable } from '../../db/types.ts';
import { recordEvents } from '../webhooks/index.ts';
import * as repo from './uploads.repository.ts';
import { addThumbnailJob } from './thumbnail.jobs.ts';

type Outcome = Partial<UploadsTable> & { status: 'ready' | 'failed'; updated_at: string };

async function settle(tx: DbOrTx, uploadId: string, patch: Outcome): Promise<boolean> {
  const row = await repo.transition(tx, uploadId, 'pending', patch);
  if (!row) return false;
  const data = {
    uploadId: row.id,
    kind: row.kind as 'video' | 'image',
    status: patch.status,
    error: row.error,
  };
  const companyId = row.company_id;
  // Every ready upload gets a thumbnail: its job is written with the move.
  if (patch.status === 'ready') await addThumbnailJob(tx, row, patch.updated_at);
  await recordEvents(
    tx,
    [
      patch.status === 'ready'
        ? { companyId, type: 'upload.ready', data }
        : { companyId, type: 'upload.failed', data },
    ],
    patch.updated_at,
  );
  return true;
}

/**
 * `pending` -> `ready` with the validated upload's fields, in the caller's transaction;
 * false when another request moved it first.
 */
export function markUploadReady(
  tx: DbOrTx,
  uploadId: string,
  ready: Partial<UploadsTable> & { updated_at: string },
): Promise<boolean> {
  return settle(tx, uploadId, { ...ready, status: 'ready' });
}

/** `pending` -> `failed` with `error`; false when another request moved it first. */
export function markUploadFailed(
  db: Db,
  uploadId: string,
  error: string,
  at: string,
): Promise<boolean> {
  return db
    .transaction()
    .execute((tx) =>
      settle(tx, uploadId, { status: 'failed', error, updated_at: at, completed_at: at }),
    );
}
