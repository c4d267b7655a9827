import type { ContentTagsTable, Db, DbOrTx } from '../../db/types.ts';
import { bind, param, params, perLength, prepared } from '../../db/prepared.ts';
import { keysetPage, keysetParams, keysetValues } from '../../db/keyset.ts';

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

const pageQuery = (withAfter: boolean) =>
  prepared((db: Db) =>
    keysetPage(
      db.selectFrom('content_tags').selectAll().where('company_id', '=', param('company')),
      keysetParams(withAfter),
    ),
  );
const FIRST_PAGE = pageQuery(false);
const NEXT_PAGE = pageQuery(true);

/** One page of the company's tags in creation order. */
export async function pageTags(
  db: DbOrTx,
  companyId: string,
  opts: { after?: [string, string]; limit: number },
): Promise<ContentTagsTable[]> {
  return (opts.after ? NEXT_PAGE : FIRST_PAGE)(db, { company: companyId, ...keysetValues(opts) });
}

function liveQuery(lock: boolean) {
  return perLength((n) =>
    prepared((db: Db) => {
      const q = db
        .selectFrom('content_tags')
        .select(['id', 'archived'])
        .where('company_id', '=', param('company'))
        .where('id', 'in', params('id', n));
      return lock ? q.forShare() : q;
    }),
  );
}
const liveQueries = { plain: liveQuery(false), locked: liveQuery(true) };

/**
 * The company's tags among `ids` (distinct) with whether they are archived; `lock` holds
 * them against archiving until the transaction ends (PostgreSQL).
 */
export function findTagStates(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
  lock: boolean,
): Promise<{ id: string; archived: number }[]> {
  const query = (lock ? liveQueries.locked : liveQueries.plain)(ids.length);
  return query(db, bind('id', ids, { company: companyId }));
}
