// The one place where queue items change status: every change goes through
// here, inside the caller's transaction, and refreshes the post's derived status.
import type { DbOrTx } from '../../db/types.ts';
import { CANCELLABLE, derivePostStatus, type PostStatus } from './posts.status.ts';

/**
 * Touching the post row first takes its lock (PostgreSQL), so the items are
 * read only after every other transaction refreshing this post has committed:
 * the last writer of `posts.status` has always seen every item change before
 * it. Releases, renders and cancels change items first and refresh last, so
 * they lock items before the post; edit and queue lock the post first but
 * change no item those hold (queue revives only failed or cancelled items),
 * so no two wait on each other in a cycle.
 */
export async function refreshPostStatus(
  tx: DbOrTx,
  postId: string,
  at: string,
): Promise<PostStatus> {
  await tx.updateTable('posts').set({ updated_at: at }).where('id', '=', postId).execute();
  const items = await tx
    .selectFrom('queue_items')
    .select('status')
    .where('post_id', '=', postId)
    .execute();
  const status = derivePostStatus(items);
  await tx.updateTable('posts').set({ status, updated_at: at }).where('id', '=', postId).execute();
  return status;
}

/**
 * Moves the given items of a post to `cancelled` (DECISIONS 2: only from
 * `processing`, `pending_approval` or `queued`). The update is conditional on
 * the status at write time, so an item a release moved to `posting` meanwhile
 * keeps that status; the caller learns which items were really cancelled.
 * Refreshes the post's status in the same transaction.
 */
export async function cancelItems(
  tx: DbOrTx,
  companyId: string,
  postId: string,
  itemIds: readonly string[],
  at: string,
): Promise<{ cancelled: string[]; status: PostStatus }> {
  const rows = itemIds.length
    ? await tx
        .updateTable('queue_items')
        .set({ status: 'cancelled', updated_at: at })
        .where('company_id', '=', companyId)
        .where('post_id', '=', postId)
        .where('id', 'in', [...itemIds])
        .where('status', 'in', [...CANCELLABLE])
        .returning('id')
        .execute()
    : [];
  const status = await refreshPostStatus(tx, postId, at);
  return { cancelled: rows.map((r) => r.id), status };
}
