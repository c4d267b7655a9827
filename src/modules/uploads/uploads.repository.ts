import { bind, param, params, perLength, prepared } from '../../db/prepared.ts';
import type { Db, DbOrTx, UploadsTable } from '../../db/types.ts';

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

/**
 * Moves an upload on only from the status the caller saw; returns what its event needs of
 * the row moved, or undefined when another request won.
 */
export async function transition(
  db: DbOrTx,
  uploadId: string,
  from: string,
  patch: Partial<UploadsTable>,
): Promise<Pick<UploadsTable, 'id' | 'company_id' | 'kind' | 'error'> | undefined> {
  return db
    .updateTable('uploads')
    .set(patch)
    .where('id', '=', uploadId)
    .where('status', '=', from)
    .returning(['id', 'company_id', 'kind', 'error'])
    .executeTakeFirst();
}

/**
 * Pending uploads past their deadline: remote ones whose `expires_at` is at or before
 * `now`, signed ones whose URL expired at or before `signedBefore`; oldest first.
 */
export async function expiredPending(
  db: DbOrTx,
  now: string,
  signedBefore: string,
  limit: number,
): Promise<Pick<UploadsTable, 'id' | 'kind' | 'source'>[]> {
  return db
    .selectFrom('uploads')
    .select(['id', 'kind', 'source'])
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .where((eb) => eb.or([eb('source', '=', 'remote'), eb('expires_at', '<=', signedBefore)]))
    .orderBy('expires_at')
    .limit(limit)
    .execute();
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

/** What post creation needs to know about an upload it uses. */
export type MediaUpload = Pick<
  UploadsTable,
  'id' | 'kind' | 'status' | 'content_type' | 'thumbnail_key'
>;

const mediaQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('uploads')
      .select(['id', 'kind', 'status', 'content_type', 'thumbnail_key'])
      .where('company_id', '=', param('company'))
      .where('id', 'in', params('id', n)),
  ),
);

/** The company's uploads among `ids` (distinct). */
export function findMedia(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<MediaUpload[]> {
  // `in ()` is no SQL: an empty list (a dry run of an empty body) names nothing.
  if (ids.length === 0) return Promise.resolve([]);
  return mediaQuery(ids.length)(db, bind('id', ids, { company: companyId }));
}

const thumbnailsQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('uploads')
      .select('id')
      .where('id', 'in', params('id', n))
      .where('thumbnail_key', 'is not', null),
  ),
);

/** Which of the uploads (distinct ids) have a thumbnail. */
export async function withThumbnail(db: DbOrTx, uploadIds: readonly string[]): Promise<string[]> {
  if (uploadIds.length === 0) return [];
  const rows = await thumbnailsQuery(uploadIds.length)(db, bind('id', uploadIds, {}));
  return rows.map((r) => r.id);
}

/** Where the company's uploads among `ids` keep their bytes. */
export async function blobKeys(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<{ id: string; blob_key: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('uploads')
    .select(['id', 'blob_key'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Content type, SHA-256 and stored key of each upload a task's media is made of. */
/** The company's uploads among `ids` whose probe found a length, with it in seconds. */
export async function durations(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('uploads')
    .select(['id', 'media_info'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .where('media_info', 'is not', null)
    .execute();
  const out = new Map<string, number>();
  for (const r of rows) {
    const info = JSON.parse(r.media_info as string) as { durationSeconds?: unknown };
    if (typeof info.durationSeconds === 'number') out.set(r.id, info.durationSeconds);
  }
  return out;
}

export async function contentFacts(db: DbOrTx, ids: readonly string[]) {
  type Facts = { content_type: string; sha256: string | null; blob_key: string };
  if (ids.length === 0) return new Map<string, Facts>();
  const rows = await db
    .selectFrom('uploads')
    .select(['id', 'content_type', 'sha256', 'blob_key'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map<string, Facts>(rows.map((r) => [r.id, r]));
}
