// The one place where queue items change status: every change goes through
// here, inside the caller's transaction, and refreshes the post's derived status.
import type { DbOrTx, Dialect, QueueItemsTable } from '../../db/types.ts';
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
 * Approval (DECISIONS 2): the given items still `pending_approval` become `queued` with
 * `approvedAt`, or `cancelled` when rejected. Returns the ids that moved; refreshes the post.
 */
export async function decideItems(
  tx: DbOrTx,
  postId: string,
  itemIds: readonly string[],
  outcome: 'approve' | 'reject',
  at: string,
): Promise<{ moved: string[]; status: PostStatus }> {
  const rows = itemIds.length
    ? await tx
        .updateTable('queue_items')
        .set(
          outcome === 'approve'
            ? { status: 'queued', approved_at: at, updated_at: at }
            : { status: 'cancelled', failure_reason: 'rejected in review', updated_at: at },
        )
        .where('post_id', '=', postId)
        .where('id', 'in', [...itemIds])
        .where('status', '=', 'pending_approval')
        .returning('id')
        .execute()
    : [];
  const status = await refreshPostStatus(tx, postId, at);
  return { moved: rows.map((r) => r.id), status };
}

/**
 * A post's media became ready: its items still `processing` open as they would have at
 * creation, `queued` (approved) when created with skipApproval, `pending_approval`
 * otherwise. Items cancelled meanwhile stay cancelled. Call before changing the post row
 * (lock order above); refresh the post afterwards with refreshPostStatus.
 */
export async function openProcessedItems(tx: DbOrTx, postId: string, at: string): Promise<void> {
  await tx
    .updateTable('queue_items')
    .set({ status: 'queued', approved_at: at, updated_at: at })
    .where('post_id', '=', postId)
    .where('status', '=', 'processing')
    .where('skip_approval', '=', 1)
    .execute();
  await tx
    .updateTable('queue_items')
    .set({ status: 'pending_approval', updated_at: at })
    .where('post_id', '=', postId)
    .where('status', '=', 'processing')
    .execute();
}

/** A post's media cannot be made: its items still `processing` fail with the reason. */
export async function failProcessingItems(
  tx: DbOrTx,
  postId: string,
  reason: string,
  at: string,
): Promise<void> {
  await tx
    .updateTable('queue_items')
    .set({ status: 'failed', failure_reason: reason, updated_at: at })
    .where('post_id', '=', postId)
    .where('status', '=', 'processing')
    .execute();
}

/**
 * Queueing a post again for accounts whose items ended `failed` or `cancelled` (a deliberate
 * retry): each item starts over with the fresh values, under its old id, with its release,
 * claim and outcome cleared. Conditional on the item still being final.
 */
export async function reviveItems(
  tx: DbOrTx,
  revived: readonly { oldId: string; fresh: QueueItemsTable }[],
): Promise<void> {
  for (const { oldId, fresh } of revived) {
    await tx
      .updateTable('queue_items')
      .set({ ...fresh, id: oldId })
      .where('id', '=', oldId)
      .where('status', 'in', ['failed', 'cancelled'])
      .execute();
  }
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

/**
 * A worker takes up to `limit` released items (tasks) of the accounts it operates, oldest
 * release first. Each task is claimed once: the update is conditional on it being unclaimed,
 * and on PostgreSQL concurrent claimers skip rows another claim holds. Claiming changes no
 * status (the item stays `posting`), so no post status is refreshed.
 *
 * Two statements, not `update ... where id in (select ... limit n for update skip locked)`:
 * PostgreSQL may plan that subquery as the inner side of a nested loop and rescan it for
 * every row of the update; each rescan passes over the rows the statement already updated
 * and yields the next ones, so one claim with `limit` 1 took every released task.
 */
export async function claimItems(
  tx: DbOrTx,
  dialect: Dialect,
  worker: { id: string; accountId?: string },
  limit: number,
  at: string,
): Promise<string[]> {
  let candidates = tx
    .selectFrom('queue_items')
    .select('queue_items.id')
    .where('queue_items.status', '=', 'posting')
    .where('queue_items.claimed_at', 'is', null)
    .where('queue_items.account_id', 'in', (eb) => {
      let accounts = eb
        .selectFrom('accounts')
        .select('accounts.id')
        .where('worker_id', '=', worker.id);
      if (worker.accountId) accounts = accounts.where('accounts.id', '=', worker.accountId);
      return accounts;
    })
    .orderBy('queue_items.released_at')
    .orderBy('queue_items.id')
    .limit(limit);
  if (dialect === 'postgres') candidates = candidates.forUpdate().skipLocked();
  const ids = (await candidates.execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  const rows = await tx
    .updateTable('queue_items')
    .set({ claimed_at: at, claimed_by: worker.id, updated_at: at })
    .where('id', 'in', ids)
    .where('status', '=', 'posting')
    .where('claimed_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export type ItemOutcome =
  { outcome: 'posted'; postUrl: string; postedAt: string } | { outcome: 'failed'; reason: string };

/**
 * Records a worker's report on a released item: `posting` becomes `posted` (with its URL and
 * time) or `failed` (with the reason). Conditional on the item still being `posting`, so a
 * late report can never overwrite a final outcome; returns false when nothing moved. With
 * `fromUnconfirmed`, a `posted` report instead settles an item that failed only because its
 * claim went unreported (the worker did post it); an item nobody claimed was never posted.
 */
export async function finishItem(
  tx: DbOrTx,
  item: { id: string; postId: string },
  result: ItemOutcome,
  at: string,
  opts: { fromUnconfirmed?: boolean } = {},
): Promise<boolean> {
  const moved = await tx
    .updateTable('queue_items')
    // A late `posted` report also clears the reason the deadline gave.
    .set(
      result.outcome === 'posted'
        ? {
            status: 'posted',
            posted_at: result.postedAt,
            post_url: result.postUrl,
            failure_reason: null,
            updated_at: at,
          }
        : { status: 'failed', failure_reason: result.reason, updated_at: at },
    )
    .where('id', '=', item.id)
    .where((eb) =>
      opts.fromUnconfirmed
        ? eb('status', '=', 'failed').and('failure_reason', '=', UNCONFIRMED_REASON)
        : eb('status', '=', 'posting'),
    )
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return false;
  await refreshPostStatus(tx, item.postId, at);
  return true;
}

/** Why an unreported task failed (DECISIONS 6): nothing is retried on its own after release. */
export const UNCLAIMED_REASON =
  'No worker claimed this task before the report deadline, so nothing was posted. Queue the post for this account again to retry.';
export const UNCONFIRMED_REASON =
  'The worker claimed this task but never reported an outcome, so it is unconfirmed whether it was posted. Check the account, then queue the post again only if it did not go out.';

/**
 * Fails released items with no report by the deadline: unclaimed ones released at or before
 * `before`, claimed ones claimed at or before it (the deadline runs from the claim once there
 * is one). They are never put
 * back in the queue: a worker may have posted without reporting, and a second release could
 * post twice. `lock` as in refreshPostStatuses (true on PostgreSQL). Returns the items failed.
 */
export async function failUnreported(
  tx: DbOrTx,
  before: string,
  at: string,
  limit: number,
  lock = false,
): Promise<{ id: string; postId: string; claimed: boolean }[]> {
  const stale = await tx
    .selectFrom('queue_items')
    .select(['id', 'post_id', 'claimed_at'])
    .where('status', '=', 'posting')
    .where((eb) =>
      eb.or([
        eb.and([eb('claimed_at', 'is', null), eb('released_at', '<=', before)]),
        eb('claimed_at', '<=', before),
      ]),
    )
    .orderBy('released_at')
    .limit(limit)
    .execute();
  const failed: { id: string; postId: string; claimed: boolean }[] = [];
  for (const claimed of [false, true]) {
    const ids = stale.filter((r) => (r.claimed_at !== null) === claimed).map((r) => r.id);
    if (ids.length === 0) continue;
    const moved = await tx
      .updateTable('queue_items')
      .set({
        status: 'failed',
        failure_reason: claimed ? UNCONFIRMED_REASON : UNCLAIMED_REASON,
        updated_at: at,
      })
      .where('id', 'in', ids)
      .where('status', '=', 'posting')
      .where('claimed_at', claimed ? 'is not' : 'is', null)
      .returning(['id', 'post_id'])
      .execute();
    for (const r of moved) failed.push({ id: r.id, postId: r.post_id, claimed });
  }
  // In one batch and, with `lock`, in post id order like releases, so a deadline pass and a
  // release touching the same posts never wait on each other in a cycle.
  if (failed.length) {
    await refreshPostStatuses(
      tx,
      failed.map((f) => f.postId),
      at,
      lock,
    );
  }
  return failed;
}

/** Ids per `in (...)` list: far under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
const IDS_PER_STATEMENT = 5000;

function slices<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * refreshPostStatus for many posts at once, in a fixed number of statements
 * per 5,000 posts: the posts are locked first in one statement (the lock
 * order of refreshPostStatus: callers change items first and refresh last),
 * then all their items are read in one select and the derived statuses
 * written with one update per distinct status. With `lock` (PostgreSQL only)
 * the lock is a `select ... order by id for no key update` (the lock the touch
 * of refreshPostStatus takes), which takes the row locks in id order, so two
 * transactions refreshing overlapping sets of posts (two dispatchers) never
 * wait on each other in a cycle, and writes each post once; without it, the
 * posts are touched as refreshPostStatus does. Returns each post's status.
 */
export async function refreshPostStatuses(
  tx: DbOrTx,
  postIds: Iterable<string>,
  at: string,
  lock = false,
): Promise<Map<string, PostStatus>> {
  const ids = [...new Set(postIds)].sort();
  const out = new Map<string, PostStatus>();
  for (const part of slices(ids, IDS_PER_STATEMENT)) {
    if (lock) {
      await tx
        .selectFrom('posts')
        .select('id')
        .where('id', 'in', part)
        .orderBy('id')
        .forNoKeyUpdate()
        .execute();
    } else {
      await tx.updateTable('posts').set({ updated_at: at }).where('id', 'in', part).execute();
    }
    const items = await tx
      .selectFrom('queue_items')
      .select(['post_id', 'status'])
      .where('post_id', 'in', part)
      .execute();
    const byPost = new Map<string, { status: string }[]>(part.map((id) => [id, []]));
    for (const item of items) byPost.get(item.post_id)?.push(item);
    const byStatus = new Map<PostStatus, string[]>();
    for (const [postId, list] of byPost) {
      const status = derivePostStatus(list);
      out.set(postId, status);
      const group = byStatus.get(status);
      if (group) group.push(postId);
      else byStatus.set(status, [postId]);
    }
    for (const [status, group] of byStatus) {
      await tx
        .updateTable('posts')
        .set({ status, updated_at: at })
        .where('id', 'in', group)
        .execute();
    }
  }
  return out;
}

/**
 * A release (DECISIONS 5): moves the given items from `queued` to `posting`,
 * stamping `released_at`, and refreshes their posts' statuses. The update is
 * conditional on the status at write time, so an item cancelled since it was
 * picked stays cancelled; the caller learns which items really moved and
 * gives back whatever it reserved for the others. `lock` as in
 * refreshPostStatuses (true on PostgreSQL).
 */
export async function releaseItems(
  tx: DbOrTx,
  itemIds: readonly string[],
  at: string,
  lock = false,
): Promise<{ id: string; postId: string }[]> {
  const moved: { id: string; postId: string }[] = [];
  for (const part of slices([...new Set(itemIds)], IDS_PER_STATEMENT)) {
    const rows = await tx
      .updateTable('queue_items')
      .set({ status: 'posting', released_at: at, updated_at: at })
      .where('id', 'in', part)
      .where('status', '=', 'queued')
      .returning(['id', 'post_id'])
      .execute();
    for (const r of rows) moved.push({ id: r.id, postId: r.post_id });
  }
  if (moved.length)
    await refreshPostStatuses(
      tx,
      moved.map((m) => m.postId),
      at,
      lock,
    );
  return moved;
}
