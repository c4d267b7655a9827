// What other modules ask of posts without viewing them.
import type { DbOrTx } from '../../db/types.ts';
import * as repo from './posts.repository.ts';

/** Whether the company has the post. */
export async function postExists(db: DbOrTx, companyId: string, postId: string): Promise<boolean> {
  return (await repo.findPost(db, companyId, postId)) !== undefined;
}
