import type { ContentTagsTable, DbOrTx } from '../../db/types.ts';

export async function findTag(
  db: DbOrTx,
  companyId: string,
  tagId: string,
): Promise<ContentTagsTable | undefined> {
  return db
    .selectFrom('content_tags')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', tagId)
    .executeTakeFirst();
}

export async function findTagByName(
  db: DbOrTx,
  companyId: string,
  nameKey: string,
): Promise<ContentTagsTable | undefined> {
  return db
    .selectFrom('content_tags')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('name_key', '=', nameKey)
    .executeTakeFirst();
}

export async function insertTag(db: DbOrTx, row: ContentTagsTable): Promise<void> {
  await db.insertInto('content_tags').values(row).execute();
}

export async function updateTag(
  db: DbOrTx,
  companyId: string,
  tagId: string,
  patch: Partial<ContentTagsTable>,
): Promise<void> {
  await db
    .updateTable('content_tags')
    .set(patch)
    .where('company_id', '=', companyId)
    .where('id', '=', tagId)
    .execute();
}

export async function deleteTag(db: DbOrTx, companyId: string, tagId: string): Promise<boolean> {
  const res = await db
    .deleteFrom('content_tags')
    .where('company_id', '=', companyId)
    .where('id', '=', tagId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function pageTags(
  db: DbOrTx,
  companyId: string,
  opts: { after?: [string, string]; limit: number },
): Promise<ContentTagsTable[]> {
  let q = db.selectFrom('content_tags').selectAll().where('company_id', '=', companyId);
  if (opts.after) {
    const [createdAt, id] = opts.after;
    q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(createdAt, id)));
  }
  return q.orderBy('created_at').orderBy('id').limit(opts.limit).execute();
}
