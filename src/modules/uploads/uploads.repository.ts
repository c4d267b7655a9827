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

export async function setStoredBytes(
  db: DbOrTx,
  uploadId: string,
  storedBytes: number,
  at: string,
): Promise<boolean> {
  const res = await db
    .updateTable('uploads')
    .set({ stored_bytes: storedBytes, updated_at: at })
    .where('id', '=', uploadId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function setThumbnail(
  db: DbOrTx,
  uploadId: string,
  thumbnailKey: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ thumbnail_key: thumbnailKey, updated_at: at })
    .where('id', '=', uploadId)
    .execute();
}
