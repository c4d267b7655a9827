import type {
  DbOrTx,
  PostContentGroupsTable,
  PostsTable,
  QueueItemsTable,
} from '../../db/types.ts';

export async function insertPost(db: DbOrTx, row: PostsTable): Promise<void> {
  await db.insertInto('posts').values(row).execute();
}

export async function findPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<PostsTable | undefined> {
  return db
    .selectFrom('posts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', postId)
    .executeTakeFirst();
}

/** Locks the post row on PostgreSQL so item changes of one post happen one at a time. */
export async function lockPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
  postgres: boolean,
): Promise<PostsTable | undefined> {
  let q = db
    .selectFrom('posts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', postId);
  if (postgres) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function updatePost(
  db: DbOrTx,
  postId: string,
  patch: Partial<PostsTable>,
): Promise<void> {
  await db.updateTable('posts').set(patch).where('id', '=', postId).execute();
}

export async function insertItems(db: DbOrTx, rows: QueueItemsTable[]): Promise<void> {
  if (rows.length) await db.insertInto('queue_items').values(rows).execute();
}

export interface ItemWithAccount extends QueueItemsTable {
  username: string;
  platform: string;
}

export async function itemsOfPosts(db: DbOrTx, postIds: string[]): Promise<ItemWithAccount[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('queue_items')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .selectAll('queue_items')
    .select(['accounts.username', 'accounts.platform'])
    .where('queue_items.post_id', 'in', postIds)
    .orderBy('queue_items.queued_at')
    .orderBy('queue_items.id')
    .execute();
}

export async function groupsOfPosts(
  db: DbOrTx,
  postIds: string[],
): Promise<PostContentGroupsTable[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('post_content_groups')
    .selectAll()
    .where('post_id', 'in', postIds)
    .orderBy('created_at')
    .orderBy('group_id')
    .execute();
}

export async function insertGroups(db: DbOrTx, rows: PostContentGroupsTable[]): Promise<void> {
  if (rows.length) await db.insertInto('post_content_groups').values(rows).execute();
}

/** Replaces the explicit tag groups of a post; template provenance stays. */
export async function replaceTagGroups(
  db: DbOrTx,
  postId: string,
  rows: PostContentGroupsTable[],
): Promise<void> {
  await db
    .deleteFrom('post_content_groups')
    .where('post_id', '=', postId)
    .where('group_id', 'like', 'tag:%')
    .execute();
  await insertGroups(db, rows);
}

export async function setItemsStatus(
  db: DbOrTx,
  itemIds: string[],
  from: string[],
  patch: Partial<QueueItemsTable>,
): Promise<number> {
  if (itemIds.length === 0) return 0;
  const res = await db
    .updateTable('queue_items')
    .set(patch)
    .where('id', 'in', itemIds)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
