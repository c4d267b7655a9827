// PATCH /v2/posts/{postId} (SPEC 4.2, 3 rule 3; DECISIONS 2): metadata while
// the post is editable, content groups at any time.
import type { AppContext } from '../../context.ts';
import type { PostsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { readPost } from './post-create.service.ts';
import { checkFeedFormat } from './post-checks.service.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import { itemsOfPost, isEditable } from '../items/index.ts';
import { replacePostTags } from '../tags/index.ts';
import * as repo from './posts.repository.ts';
import type { PostOut, UpdatePostInput } from './posts.schemas.ts';

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

/** What the activity log calls each metadata column. */
const FIELD_NAMES: Partial<Record<keyof PostsTable, string>> = {
  caption: 'caption',
  hashtags: 'hashtags',
  sound: 'sound',
  notes: 'notes',
  platformb_post_format: 'platformB format',
};

/** The metadata fields of the patch whose value differs from the post's. */
function changedFields(post: PostsTable, patch: Partial<PostsTable>): string[] {
  return (Object.keys(patch) as (keyof PostsTable)[])
    .filter((column) => patch[column] !== post[column])
    .map((column) => FIELD_NAMES[column] ?? column);
}

/**
 * Updates the post's metadata and tags. With `actor` (a change made in the dashboard), the
 * fields that really changed are recorded in the activity log in the same transaction.
 */
export async function updatePost(
  ctx: AppContext,
  companyId: string,
  postId: string,
  input: UpdatePostInput,
  actor?: Actor,
): Promise<PostOut> {
  if (!(await repo.findPost(ctx.db, companyId, postId))) throw postNotFound(postId);
  await checkFeedFormat(ctx.db, companyId, input.platformBPostFormat);
  const patch = metadataOf(input);
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (tx) => {
    const post = await repo.lockPost(tx, companyId, postId);
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
      (await replacePostTags(tx, companyId, postId, input.contentGroupIds, at));
    if (Object.keys(patch).length > 0 || groupsChanged) {
      await repo.updatePost(tx, postId, { ...patch, updated_at: at });
    }
    const changed = [...changedFields(post, patch), ...(groupsChanged ? ['tags'] : [])];
    if (actor && changed.length > 0) {
      await recordActivity(
        tx,
        companyId,
        actor,
        { action: 'post.edited', target: postId, detail: changed.join(', ') },
        new Date(at),
      );
    }
  });
  return readPost(ctx, companyId, postId);
}
