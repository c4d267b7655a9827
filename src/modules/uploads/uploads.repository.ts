import type { DbOrTx, UploadsTable } from '../../db/types.ts';

export async function insertUpload(db: DbOrTx, row: UploadsTable): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}

export async function findUpload(
  db: DbOrTx,
  companyId: string,
  uploadId: string,
): Promise<UploadsTable | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', uploadId)
    .executeTakeFirst();
}

/** For signed routes: the signature, not a key, authorizes the access. */
export async function findUploadById(
  db: DbOrTx,
  uploadId: string,
): Promise<UploadsTable | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirst();
}

/** Moves an upload on only from the status the caller saw; false when another request won. */
export async function transition(
  db: DbOrTx,
  uploadId: string,
  from: string,
  patch: Partial<UploadsTable>,
): Promise<boolean> {
  const res = await db
    .updateTable('uploads')
    .set(patch)
    .where('id', '=', uploadId)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * The one change that makes a stored file the upload's content: only while the upload
 * is pending and has no content yet, so a file validated by `complete` never changes.
 * False when another attempt or `complete` came first.
 */
export async function setContent(
  db: DbOrTx,
  uploadId: string,
  content: Pick<UploadsTable, 'blob_key' | 'stored_bytes' | 'sha256'>,
  at: string,
): Promise<boolean> {
  const res = await db
    .updateTable('uploads')
    .set({ ...content, updated_at: at })
    .where('id', '=', uploadId)
    .where('status', '=', 'pending')
    .where('stored_bytes', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function setThumbnail(
  db: DbOrTx,
  uploadId: string,
  outcome: { thumbnail_key: string; thumbnail_error: null } | { thumbnail_error: string },
  at: string,
): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ ...outcome, updated_at: at })
    .where('id', '=', uploadId)
    .execute();
}
