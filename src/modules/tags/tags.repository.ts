import { sql } from 'kysely';
import type { ContentTagsTable, Db, DbOrTx } from '../../db/types.ts';
import { param, prepared } from '../../db/prepared.ts';

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

function pageQuery(withAfter: boolean) {
  return prepared((db: Db) => {
    let q = db.selectFrom('content_tags').selectAll().where('company_id', '=', param('company'));
    if (withAfter) {
      q = q.where((eb) =>
        eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(param('afterAt'), param('afterId'))),
      );
    }
    return q
      .orderBy('created_at')
      .orderBy('id')
      .limit(sql<number>`${param('limit')}`);
  });
}
const FIRST_PAGE = pageQuery(false);
const NEXT_PAGE = pageQuery(true);

export async function pageTags(
  db: DbOrTx,
  companyId: string,
  opts: { after?: [string, string]; limit: number },
): Promise<ContentTagsTable[]> {
  return (opts.after ? NEXT_PAGE : FIRST_PAGE)(db, {
    company: companyId,
    afterAt: opts.after?.[0],
    afterId: opts.after?.[1],
    limit: opts.limit,
  });
}
