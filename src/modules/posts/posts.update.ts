// PATCH /v2/posts/{postId} (SPEC 4.2, 3 rule 3; DECISIONS 2): metadata while
// the post is editable, content groups at any time.
import type { AppContext } from '../../context.ts';
import type { DbOrTx, PostsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { checkFeedFormat, checkGroups, readPost } from './posts.create.ts';
import { itemsOfPost } from '../items/items.service.ts';
import * as groupsRepo from './post-groups.repository.ts';
import * as repo from './posts.repository.ts';
import type { PostOut, UpdatePostInput } from './posts.schemas.ts';
import { isEditable } from '../items/items.status.ts';

function postNotFound(postId: string): ApiError {
  return new ApiError('post_not_found', `Post ${postId} does not exist`);
}

/** The metadata columns a PATCH body sets; `null` clears sound and notes. */
function metadataOf(input: UpdatePostInput): Partial<PostsTable> {
  const patch: Partial<PostsTable> = {};
  if (input.caption !== undefined) patch.caption = input.caption;
  if (input.hashtags !== undefined) patch.hashtags = JSON.stringify(input.hashtags);
  if (input.sound !== undefined)
    patch.sound = input.sound === null ? null : JSON.stringify(input.sound);
  if (input.notes !== undefined) patch.notes = input.notes;
  if (input.platformBPostFormat !== undefined)
    patch.platformb_post_format = input.platformBPostFormat;
  return patch;
}

export async function updatePost(
  ctx: AppContext,
  companyId: string,
  postId: string,
  input: UpdatePostInput,
): Promise<PostOut> {
  if (!(await repo.findPost(ctx.db, companyId, postId))) throw postNotFound(postId);
  await checkFeedFormat(ctx, companyId, input.platformBPostFormat);
  const patch = metadataOf(input);
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (tx) => {
    const post = await repo.lockPost(tx, companyId, postId, ctx.dialect === 'postgres');
    if (!post) throw postNotFound(postId);
    if (Object.keys(patch).length > 0) {
      const items = await itemsOfPost(tx, companyId, postId);
      if (!isEditable(items)) {
        throw new ApiError(
          'post_not_editable',
          `Post ${postId} is past editing (an item reached posting); only contentGroupIds can change`,
        );
      }
    }
    const groupsChanged =
      input.contentGroupIds !== undefined &&
      (await replaceTags(ctx, tx, companyId, postId, input.contentGroupIds, at));
    if (Object.keys(patch).length > 0 || groupsChanged) {
      await repo.updatePost(tx, postId, { ...patch, updated_at: at });
    }
  });
  return readPost(ctx, companyId, postId);
}

/**
 * SPEC 4.2: `contentGroupIds` replaces the explicit tags; template provenance
 * stays whatever the list says. Tags kept keep their place in the list. The
 * tags are checked inside the transaction (on PostgreSQL their rows are held
 * FOR SHARE) so a tag deleted meanwhile cannot be left attributed.
 */
async function replaceTags(
  ctx: AppContext,
  tx: DbOrTx,
  companyId: string,
  postId: string,
  wanted: readonly string[],
  at: string,
): Promise<boolean> {
  const current = await groupsRepo.groupsOfPost(tx, companyId, postId);
  const kept = new Set(current.map((g) => g.group_id));
  const groups = await checkGroups(ctx, companyId, wanted, {
    db: tx,
    kept,
    lock: ctx.dialect === 'postgres',
  });
  const next = new Set(groups.filter((g) => g.startsWith('tag:')));
  const removed = [...kept].filter((g) => g.startsWith('tag:') && !next.has(g));
  const added = [...next].filter((g) => !kept.has(g));
  await groupsRepo.deleteGroupsOfPost(tx, companyId, postId, removed);
  await groupsRepo.insertGroups(
    tx,
    added.map((g) => ({ post_id: postId, company_id: companyId, group_id: g, created_at: at })),
  );
  return removed.length > 0 || added.length > 0;
}

/** Removes a group from every post of the company (a deleted tag); returns the posts changed. */
export async function removeGroupFromPosts(
  tx: DbOrTx,
  companyId: string,
  groupId: string,
): Promise<number> {
  return groupsRepo.deleteGroupEverywhere(tx, companyId, groupId);
}

/** How many of the company's posts carry the group (what deleting a tag would change). */
export function postsInGroup(db: DbOrTx, companyId: string, groupId: string): Promise<number> {
  return groupsRepo.countPostsInGroup(db, companyId, groupId);
}
