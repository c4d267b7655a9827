// DELETE /v2/posts/{postId} (SPEC 4.2, 3 rule 4; DECISIONS 2): cancels the
// post's open items, or one account's. Items are never deleted, so posted
// items and their history stay.
import type { AppContext } from '../../context.ts';
import type { QueueItemsTable } from '../../db/types.ts';
import { retryingConflicts } from '../../db/retry.ts';
import { ApiError } from '../../errors.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import { readPost } from './post-create.service.ts';
import * as items from '../items/index.ts';
import * as repo from './posts.repository.ts';
import type { CancelledPostOut } from './posts.schemas.ts';
import { cancelItems, isCancellable } from '../items/index.ts';

/**
 * Why an item was left alone. `currently_posting` is SPEC's; the others name
 * the final status the item already had, so a repeated cancel explains itself.
 */
export type SkipReason =
  'currently_posting' | 'already_posted' | 'already_cancelled' | 'already_failed';

function skipReason(status: string): SkipReason {
  switch (status) {
    case 'posted':
      return 'already_posted';
    case 'cancelled':
      return 'already_cancelled';
    case 'failed':
      return 'already_failed';
    default:
      // `posting`, or an item a release moved on while this call ran.
      return 'currently_posting';
  }
}

/**
 * Cancels the post's open items, or one account's. With `actor` (a cancel made in the
 * dashboard), what was cancelled and what was skipped is recorded in the activity log in
 * the same transaction.
 */
export async function cancelPost(
  ctx: AppContext,
  companyId: string,
  postId: string,
  accountId: string | undefined,
  actor?: Actor,
): Promise<CancelledPostOut> {
  const cancellation = await retryingConflicts(() =>
    cancelInTransaction(ctx, companyId, postId, accountId, actor),
  );
  return { ...(await readPost(ctx, companyId, postId)), cancellation };
}

/**
 * Lock order: the post's open items, then the post (refreshPostStatus), as the
 * dispatcher and the carousel renderer do; locking the post first would
 * deadlock against a release holding an item and waiting for the post, and
 * locking final items would deadlock against a queue call reviving them.
 */
async function cancelInTransaction(
  ctx: AppContext,
  companyId: string,
  postId: string,
  accountId: string | undefined,
  actor: Actor | undefined,
): Promise<CancelledPostOut['cancellation']> {
  const at = ctx.clock.now().toISOString();
  return ctx.db.transaction().execute(async (tx) => {
    const post = await repo.findPost(tx, companyId, postId);
    if (!post) throw new ApiError('post_not_found', `Post ${postId} does not exist`);
    let targets: QueueItemsTable[] = await items.itemsOfPost(tx, companyId, postId);
    if (accountId !== undefined) {
      targets = targets.filter((i) => i.account_id === accountId);
      if (targets.length === 0) {
        throw new ApiError(
          'account_not_found',
          `query parameter accountId: post ${postId} is not queued for account ${accountId}`,
          { hint: 'Use an accountId listed in the post’s accounts, or leave accountId out.' },
        );
      }
    }
    const readOpen = targets.filter((i) => isCancellable(i.status));
    // Locked rows are read after any release holding them commits: what is still open.
    const locked = new Set(
      (
        await items.lockOpenItems(
          tx,
          companyId,
          postId,
          readOpen.map((i) => i.id),
        )
      ).map((i) => i.id),
    );
    const open = readOpen.filter((i) => locked.has(i.id));
    const { cancelled } = await cancelItems(
      tx,
      companyId,
      postId,
      open.map((i) => i.id),
      at,
    );
    const done = new Set(cancelled);
    // An open item the conditional update missed was moved on concurrently:
    // read what it is now to say why it was skipped.
    const missed = readOpen.some((i) => !done.has(i.id));
    const now = new Map(
      (missed ? await items.itemsOfPost(tx, companyId, postId) : []).map((i) => [i.id, i.status]),
    );
    const skipped = targets
      .filter((i) => !done.has(i.id))
      .map((i) => ({
        accountId: i.account_id,
        reason: skipReason(now.get(i.id) ?? i.status),
      }));
    if (done.size === 0) {
      throw new ApiError(
        'post_not_cancellable',
        targets.length === 0
          ? `Post ${postId} has no queue items to cancel`
          : `Post ${postId}: no targeted item can be cancelled (${skipped
              .map((s) => `${s.accountId}: ${s.reason}`)
              .join(', ')})`,
      );
    }
    const result = {
      cancelled: targets.filter((i) => done.has(i.id)).map((i) => i.account_id),
      skipped,
    };
    if (actor) {
      const skips = skipped.map((s) => `${s.accountId} (${s.reason})`);
      await recordActivity(
        tx,
        companyId,
        actor,
        {
          action: 'post.cancelled',
          target: postId,
          detail: `accounts ${result.cancelled.join(', ')}${skips.length ? `; skipped ${skips.join(', ')}` : ''}`,
        },
        new Date(at),
      );
    }
    return result;
  });
}
