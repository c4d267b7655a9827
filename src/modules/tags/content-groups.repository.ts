// The post_content_groups table: the reporting groups (tags, template provenance) of each
// post (SPEC 2.2 content-group rules), in the order they were attributed.
import { bind, param, params, perLength, prepared } from '../../db/prepared.ts';
import type { Db, DbOrTx, PostContentGroupsTable } from '../../db/types.ts';

const insertGroupsQuery = perLength((n) =>
  prepared((db: Db) =>
    db.insertInto('post_content_groups').values(
      Array.from({ length: n }, (_, i) => ({
        post_id: param(`post_id${i}`),
        company_id: param(`company_id${i}`),
        group_id: param(`group_id${i}`),
        created_at: param(`created_at${i}`),
      })),
    ),
  ),
);

export async function insertGroups(
  db: DbOrTx,
  rows: readonly PostContentGroupsTable[],
): Promise<void> {
  if (rows.length === 0) return;
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    values[`post_id${i}`] = row.post_id;
    values[`company_id${i}`] = row.company_id;
    values[`group_id${i}`] = row.group_id;
    values[`created_at${i}`] = row.created_at;
  });
  await insertGroupsQuery(rows.length)(db, values);
}

const groupsQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('post_content_groups')
      .selectAll()
      .where('post_id', 'in', params('id', n))
      .orderBy('created_at')
      .orderBy('group_id'),
  ),
);

export function groupsOfPosts(
  db: DbOrTx,
  postIds: readonly string[],
): Promise<PostContentGroupsTable[]> {
  if (postIds.length === 0) return Promise.resolve([]);
  return groupsQuery(postIds.length)(db, bind('id', postIds, {}));
}

export async function groupsOfPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<PostContentGroupsTable[]> {
  return db
    .selectFrom('post_content_groups')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId)
    .execute();
}

export async function deleteGroupsOfPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
  groupIds: string[],
): Promise<void> {
  if (groupIds.length === 0) return;
  await db
    .deleteFrom('post_content_groups')
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId)
    .where('group_id', 'in', groupIds)
    .execute();
}

/** Removes one group from every post of the company; returns how many posts had it. */
export async function deleteGroupEverywhere(
  db: DbOrTx,
  companyId: string,
  groupId: string,
): Promise<number> {
  const res = await db
    .deleteFrom('post_content_groups')
    .where('company_id', '=', companyId)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** How many of the company's posts carry the group. */
export async function countPostsInGroup(
  db: DbOrTx,
  companyId: string,
  groupId: string,
): Promise<number> {
  const row = await db
    .selectFrom('post_content_groups')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
