// The post row as the item state machine needs it: its lock, and the derived `status`
// column (DECISIONS 2: a post's status is its items' status, never set apart from them).
// Only items.state.ts writes `posts.status`, in the transaction of the item change.
import type { DbOrTx } from '../../db/types.ts';
import type { PostStatus } from './item-status.rules.ts';

/** A post's stored status, as a refresh finds it before writing the derived one. */
export type StoredStatus = { id: string; company_id: string; status: string };

/**
 * Touches the posts, which takes their row locks on PostgreSQL (see refreshPostStatus);
 * returns their stored statuses.
 */
export async function touchPosts(
  tx: DbOrTx,
  postIds: readonly string[],
  at: string,
): Promise<StoredStatus[]> {
  return tx
    .updateTable('posts')
    .set({ updated_at: at })
    .where('id', 'in', [...postIds])
    .returning(['id', 'company_id', 'status'])
    .execute();
}

/**
 * Locks the posts in id order (PostgreSQL), as refreshPostStatuses with `lock` needs;
 * returns their stored statuses.
 */
export async function lockPostsInOrder(
  tx: DbOrTx,
  postIds: readonly string[],
): Promise<StoredStatus[]> {
  return tx
    .selectFrom('posts')
    .select(['id', 'company_id', 'status'])
    .where('id', 'in', [...postIds])
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

export async function setStatus(
  tx: DbOrTx,
  postIds: readonly string[],
  status: PostStatus,
  at: string,
): Promise<void> {
  await tx
    .updateTable('posts')
    .set({ status, updated_at: at })
    .where('id', 'in', [...postIds])
    .execute();
}

/** The post (of the company, when given), locked for update on PostgreSQL. */
export async function lockPost(
  tx: DbOrTx,
  postId: string,
  companyId: string | undefined,
): Promise<{ id: string; company_id: string } | undefined> {
  let q = tx.selectFrom('posts').select(['id', 'company_id']).where('id', '=', postId);
  if (companyId !== undefined) q = q.where('company_id', '=', companyId);
  return q.forUpdate().executeTakeFirst();
}

/** Whether the company has the post (no lock: for changes that leave its status alone). */
export async function hasPost(tx: DbOrTx, postId: string, companyId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('posts')
    .select('id')
    .where('id', '=', postId)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row !== undefined;
}
