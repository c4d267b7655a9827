// The one place where queue items change status: every change goes through
// here, inside the caller's transaction, and refreshes the post's derived status.
import type { DbOrTx } from '../../db/types.ts';
import { derivePostStatus, type PostStatus } from './posts.status.ts';

export async function refreshPostStatus(
  tx: DbOrTx,
  postId: string,
  at: string,
): Promise<PostStatus> {
  const items = await tx
    .selectFrom('queue_items')
    .select('status')
    .where('post_id', '=', postId)
    .execute();
  const status = derivePostStatus(items);
  await tx.updateTable('posts').set({ status, updated_at: at }).where('id', '=', postId).execute();
  return status;
}
