// Creating and queueing posts (SPEC 4.2, 3 rules 1-2; DECISIONS 2 and 4).
import type { AppContext } from '../../context.ts';
import type {
  DbOrTx,
  PostContentGroupsTable,
  PostsTable,
  QueueItemsTable,
} from '../../db/types.ts';
import { commitGrouped } from '../../db/capabilities.ts';
import { retryingConflicts } from '../../db/retry.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Principal } from '../../access.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import { consumePostQuota, planOf } from '../usage/index.ts';
import { claimKey, requestHash } from './idempotency.service.ts';
import {
  enqueueItems,
  queueAgain,
  itemsOfPost,
  derivePostStatus,
  type ItemStatus,
  type PostStatus,
  isEditable,
  isFinal,
  isPublished,
  newPostItems,
} from '../items/index.ts';
import { assignGroups, checkGroups } from '../tags/index.ts';
import * as repo from './posts.repository.ts';
import type { CreatePostInput, PostOut, QueuePostInput } from './posts.schemas.ts';
import {
  checkAccounts,
  checkFeedFormat,
  checkPost,
  type MediaKind,
} from './post-checks.service.ts';
import type { NewEvent } from '../webhooks/index.ts';
import { viewReadPost, viewWritten, withPlannedSlots } from './posts.view.ts';
import { addRenderJob } from './carousel-render.jobs.ts';
import { mediaJobsWritten } from '../media-jobs/index.ts';

export interface Written {
  post: PostOut;
  /** True when an Idempotency-Key replayed an earlier request (HTTP 200). */
  replay: boolean;
}

/** The post.created event of a new post and its items. */
function postCreated(post: PostsTable, items: readonly QueueItemsTable[]): NewEvent {
  return {
    companyId: post.company_id,
    type: 'post.created',
    data: {
      postId: post.id,
      status: post.status as PostStatus,
      items: items.map((i) => ({
        queueItemId: i.id,
        accountId: i.account_id,
        status: i.status as ItemStatus,
      })),
    },
  };
}

export async function createPost(
  ctx: AppContext,
  principal: Principal,
  input: CreatePostInput,
  idempotencyKey: string | undefined,
  /** Who creates it, for the activity log (a dashboard user); API keys' creates are not logged. */
  actor?: Actor,
  /** Each account's earliest-release floor chosen in the dashboard (SPEC 2.2 `scheduledAfter`). */
  floors?: ReadonlyMap<string, string>,
): Promise<Written> {
  const companyId = principal.companyId;
  const checked = await checkPost(ctx, companyId, input);
  if (checked.problems[0]) throw checked.problems[0];
  const { uploads, accounts, groups } = checked;
  // Without a problem, the media set was judged and forms a post.
  const kind = checked.kind as MediaKind;

  const now = ctx.clock.now();
  const at = now.toISOString();
  const postId = newId('pst', now.getTime());
  const mediaReady = kind !== 'carousel';
  // Made before the write: the post's status, its post.created event and the answer are
  // all of these rows.
  const items = newPostItems(
    {
      companyId,
      postId,
      at,
      mediaReady,
      skipApproval: input.skipApproval,
      priority: input.priority,
      floors,
    },
    input.accountIds,
  );
  const post: PostsTable = {
    id: postId,
    company_id: companyId,
    // A new post's status is derived from the items written with it (DECISIONS 2).
    status: derivePostStatus(items),
    media_kind: kind,
    media_upload_ids: JSON.stringify(input.media),
    slides: input.slides ? JSON.stringify(input.slides) : null,
    media_state: mediaReady ? 'ready' : 'processing',
    media_keys: null,
    media_error: null,
    thumbnail_upload_id: input.media[0] as string,
    thumbnail_key: null,
    caption: input.caption ?? null,
    hashtags: JSON.stringify(input.hashtags ?? []),
    sound: input.sound ? JSON.stringify(input.sound) : null,
    notes: input.notes ?? null,
    platformb_post_format: input.platformBPostFormat ?? 'reel',
    template_id: null,
    created_at: at,
    updated_at: at,
  };
  const groupRows: PostContentGroupsTable[] = groups.map((g) => ({
    post_id: postId,
    company_id: companyId,
    group_id: g,
    created_at: at,
  }));
  const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, principal.plan);

  // Returns the post an Idempotency-Key replays, or null when the post is written.
  const insert = async (tx: DbOrTx): Promise<string | null> => {
    if (idempotencyKey) {
      const replay = await claimKey(tx, {
        companyId,
        operation: 'create-post',
        key: idempotencyKey,
        hash: requestHash(input),
        postId,
        now,
      });
      if (replay) return replay;
    }
    if (groups.some((g) => g.startsWith('tag:'))) {
      // Again inside the write: a tag deleted or archived since the first check must not
      // end up on the post: the tag rows are held until the commit.
      await checkGroups(tx, companyId, groups, { lock: true });
    }
    await repo.insertPost(tx, post);
    await assignGroups(tx, groupRows);
    // Recorded in this create's own work, so a create rolled back records nothing.
    await enqueueItems(tx, items, at, [postCreated(post, items)]);
    // The slides are rendered by a media job written with the post, so no crash or restart
    // between this commit and the render leaves the post processing for ever.
    if (kind === 'carousel') await addRenderJob(tx, post);
    if (actor) {
      await recordActivity(
        tx,
        companyId,
        actor,
        {
          action: 'post.created',
          target: postId,
          detail:
            `accounts ${input.accountIds.join(', ')}` +
            (input.skipApproval ? ', approval skipped' : '') +
            (input.priority ? `, priority ${input.priority}` : ''),
        },
        now,
      );
    }
    return null;
  };
  // One queue item is one post to publish: the daily cap and the credits count items.
  // They are counted last so that PostgreSQL holds the company's counter rows, which
  // every create of the company updates, only from there to the commit.
  const count = async (tx: DbOrTx, replay: string | null): Promise<void> => {
    if (replay === null) await consumePostQuota(tx, plan, companyId, now, items.length);
  };
  // Concurrent creates share a commit, each one still atomic; both steps do nothing
  // but database work, so they may run again if another create fails.
  const replayOf = await commitGrouped(ctx.db, {
    work: insert,
    finish: count,
    order: companyId,
    ...(idempotencyKey ? { claims: `${companyId}\n${idempotencyKey}` } : {}),
  });
  if (replayOf) return { post: await readPost(ctx, companyId, replayOf), replay: true };
  // A grouped commit may land after the job's own wake-up: the loop is woken again now.
  if (kind === 'carousel') mediaJobsWritten(ctx.db);
  const thumbnail = uploads.get(post.thumbnail_upload_id as string);
  const written = viewWritten(
    ctx,
    { post, items, groups: groupRows },
    accounts,
    !!thumbnail?.thumbnail_key,
  );
  return { post: await withPlannedSlots(ctx, companyId, written), replay: false };
}

export async function readPost(
  ctx: AppContext,
  companyId: string,
  postId: string,
): Promise<PostOut> {
  const found = await repo.findPostView(ctx.db, companyId, postId);
  if (!found) throw new ApiError('post_not_found', `Post ${postId} does not exist`);
  return withPlannedSlots(
    ctx,
    companyId,
    await viewReadPost(ctx, found.post, found.thumbnailReady),
  );
}

/** Post metadata a create or queue call may also set, when the post is still editable. */
export function metadataPatch(input: QueuePostInput): Partial<PostsTable> {
  const patch: Partial<PostsTable> = {};
  if (input.caption !== undefined) patch.caption = input.caption;
  if (input.hashtags !== undefined) patch.hashtags = JSON.stringify(input.hashtags);
  if (input.sound !== undefined) patch.sound = JSON.stringify(input.sound);
  if (input.notes !== undefined) patch.notes = input.notes;
  if (input.platformBPostFormat !== undefined)
    patch.platformb_post_format = input.platformBPostFormat;
  return patch;
}

/**
 * POST /v2/posts/{postId}/queue: one new item per requested account. With `actor` (a queue
 * made in the dashboard), the accounts queued are recorded in the activity log in the same
 * transaction.
 */
export async function queuePost(
  ctx: AppContext,
  principal: Principal,
  postId: string,
  input: QueuePostInput,
  idempotencyKey: string | undefined,
  actor?: Actor,
  /** Each account's earliest-release floor chosen in the dashboard (SPEC 2.2 `scheduledAfter`). */
  floors?: ReadonlyMap<string, string>,
): Promise<Written> {
  const companyId = principal.companyId;
  if (!(await repo.findPost(ctx.db, companyId, postId))) {
    throw new ApiError('post_not_found', `Post ${postId} does not exist`);
  }
  await checkAccounts(ctx, companyId, input.accountIds);
  await checkFeedFormat(ctx.db, companyId, input.platformBPostFormat);
  const now = ctx.clock.now();
  const at = now.toISOString();
  const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, principal.plan);

  // Run again whole if PostgreSQL breaks a deadlock with a concurrent queue or release.
  const replayOf = await retryingConflicts(() =>
    ctx.db.transaction().execute(async (tx) => {
      if (idempotencyKey) {
        const replay = await claimKey(tx, {
          companyId,
          operation: `queue-post:${postId}`,
          key: idempotencyKey,
          hash: requestHash(input),
          postId,
          now,
        });
        if (replay) return replay;
      }
      const post = await repo.lockPost(tx, companyId, postId);
      if (!post) throw new ApiError('post_not_found', `Post ${postId} does not exist`);
      const existing = await itemsOfPost(tx, companyId, postId);
      if (isPublished(existing)) {
        throw new ApiError('post_already_published', `Post ${postId} is already published`);
      }
      if (post.media_state !== 'ready') {
        throw new ApiError(
          'media_not_ready',
          post.media_state === 'failed'
            ? `Post ${postId} has no usable media: ${post.media_error ?? 'rendering failed'}`
            : `Post ${postId} media is still being prepared`,
        );
      }
      const byAccount = new Map(existing.map((i) => [i.account_id, i]));
      for (const [i, accountId] of input.accountIds.entries()) {
        const item = byAccount.get(accountId);
        if (item && !isFinal(item.status)) {
          throw new ApiError(
            'duplicate_queue_item',
            `/accountIds/${i}: post ${postId} is already queued for account ${accountId}`,
          );
        }
      }
      const patch = metadataPatch(input);
      if (Object.keys(patch).length > 0) {
        if (!isEditable(existing)) {
          throw new ApiError(
            'post_not_editable',
            `Post ${postId} is past editing; only contentGroupIds can change`,
          );
        }
        await repo.updatePost(tx, postId, { ...patch, updated_at: at });
      }
      await consumePostQuota(tx, plan, companyId, now, input.accountIds.length);
      // Items that ended failed or cancelled for an account are queued again deliberately.
      await queueAgain(
        tx,
        {
          companyId,
          postId,
          at,
          skipApproval: input.skipApproval,
          priority: input.priority,
          floors,
        },
        input.accountIds,
        existing,
      );
      if (actor) {
        const how = input.skipApproval ? ', approval skipped' : '';
        const priority = input.priority ? `, priority ${input.priority}` : '';
        await recordActivity(
          tx,
          companyId,
          actor,
          {
            action: 'post.queued',
            target: postId,
            detail: `accounts ${input.accountIds.join(', ')}${how}${priority}`,
          },
          now,
        );
      }
      return null;
    }),
  );
  return { post: await readPost(ctx, companyId, replayOf ?? postId), replay: replayOf !== null };
}
