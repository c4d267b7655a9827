// What a company's people do to posts from the dashboard, through the API's own operations:
// queueing an existing post to more accounts under the company's plan, and naming posts in
// the activity log. Edits and cancels are the API's updatePost and cancelPost with an actor.
import type { Principal } from '../../access.ts';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../activity/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import { queuePost } from './post-create.service.ts';
import * as repo from './posts.repository.ts';
import type { PostOut, QueuePostInput } from './posts.schemas.ts';

/**
 * POST /v2/posts/{postId}/queue as a dashboard user: the same rules and quotas (the
 * company's plan), recorded in the activity log under `actor`.
 */
export async function queuePostAs(
  ctx: AppContext,
  companyId: string,
  postId: string,
  input: QueuePostInput,
  actor: Actor,
  floors?: ReadonlyMap<string, string>,
): Promise<PostOut> {
  const company = await getCompanyRow(ctx.db, companyId);
  if (!company) throw new ApiError('post_not_found', `Post ${postId} does not exist`);
  const principal: Principal = {
    keyId: '',
    companyId,
    scopes: new Set(['posts:write']),
    plan: company.plan,
  };
  return (await queuePost(ctx, principal, postId, input, undefined, actor, floors)).post;
}

/** What names a post where it is mentioned: its caption and media kind. */
export interface PostLabel {
  caption: string | null;
  mediaKind: string;
}

/** The label of each of the company's posts among `postIds` (others are left out). */
export async function postLabels(
  db: DbOrTx,
  companyId: string,
  postIds: readonly string[],
): Promise<Map<string, PostLabel>> {
  const rows = await repo.findPostLabels(db, companyId, [...new Set(postIds)]);
  return new Map(rows.map((r) => [r.id, { caption: r.caption, mediaKind: r.media_kind }]));
}
