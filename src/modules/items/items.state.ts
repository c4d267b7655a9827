// The state machine of queue items (DECISIONS 2): the one place where an item enters the
// queue or changes status. Every change is one function here, runs inside the caller's
// transaction, is conditional on the status at write time, and refreshes the derived
// status of the posts it touched; lifecycle events of items are recorded here too.
import type { DbOrTx, Dialect, QueueItemsTable, ReleasesTable } from '../../db/types.ts';
import { derivePostStatus, type PostStatus } from './items.status.ts';
import * as repo from './items.repository.ts';
import * as posts from './post-status.repository.ts';
import * as releases from './releases.repository.ts';

export type { ItemOutcome } from './items.repository.ts';

/** Why an unreported task failed (DECISIONS 6): nothing is retried on its own after release. */
export const UNCLAIMED_REASON =
  'No worker claimed this task before the report deadline, so nothing was posted. Queue the post for this account again to retry.';
export const UNCONFIRMED_REASON =
  'The worker claimed this task but never reported an outcome, so it is unconfirmed whether it was posted. Check the account, then queue the post again only if it did not go out.';

/** Ids per `in (...)` list: far under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
const IDS_PER_STATEMENT = 5000;

function slices<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

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
  await posts.touchPosts(tx, [postId], at);
  const status = derivePostStatus(await repo.statusesOfPosts(tx, [postId]));
  await posts.setStatus(tx, [postId], status, at);
  return status;
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
    if (lock) await posts.lockPostsInOrder(tx, part);
    else await posts.touchPosts(tx, part, at);
    const items = await repo.statusesOfPosts(tx, part);
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
    for (const [status, group] of byStatus) await posts.setStatus(tx, group, status, at);
  }
  return out;
}

/**
 * New items enter the queue in the status their rows carry (openingStatus). The caller
 * writes or refreshes the post's status: a new post derives it from these rows.
 */
export async function enqueueItems(tx: DbOrTx, rows: readonly QueueItemsTable[]): Promise<void> {
  await repo.insertItems(tx, rows);
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
  for (const { oldId, fresh } of revived) await repo.revive(tx, oldId, fresh);
}

/**
 * Approval (DECISIONS 2): the given items still `pending_approval` become `queued` with
 * `approvedAt` and who approved them (`by`), or `cancelled` when rejected. Returns the ids
 * that moved; refreshes the post.
 */
export async function decideItems(
  tx: DbOrTx,
  postId: string,
  itemIds: readonly string[],
  outcome: 'approve' | 'reject',
  at: string,
  by = 'operator',
): Promise<{ moved: string[]; status: PostStatus }> {
  const moved = await repo.decide(tx, postId, itemIds, outcome, at, by);
  const status = await refreshPostStatus(tx, postId, at);
  return { moved, status };
}

/**
 * A post's media became ready: its items still `processing` open as they would have at
 * creation, `queued` (approved) when created with skipApproval, `pending_approval`
 * otherwise. Items cancelled meanwhile stay cancelled. Call before changing the post row
 * (lock order above); refresh the post afterwards with refreshPostStatus.
 */
export async function openProcessedItems(tx: DbOrTx, postId: string, at: string): Promise<void> {
  await repo.openSkippingApproval(tx, postId, at);
  await repo.openForApproval(tx, postId, at);
}

/** A post's media cannot be made: its items still `processing` fail with the reason. */
export async function failProcessingItems(
  tx: DbOrTx,
  postId: string,
  reason: string,
  at: string,
): Promise<void> {
  await repo.failProcessing(tx, postId, reason, at);
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
  const cancelled = await repo.cancel(tx, companyId, postId, itemIds, at);
  const status = await refreshPostStatus(tx, postId, at);
  return { cancelled, status };
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
    for (const r of await repo.release(tx, part, at)) moved.push({ id: r.id, postId: r.post_id });
  }
  if (moved.length) {
    await refreshPostStatuses(
      tx,
      moved.map((m) => m.postId),
      at,
      lock,
    );
  }
  return moved;
}

/**
 * Releases into slots (DECISIONS 5): writes the release rows, where the primary key
 * (account, local date, slot) and the unique item id decide which this transaction takes;
 * releases the taken items (releaseItems); and gives back the slots of items that left
 * `queued` since they were planned. Returns the items released.
 */
export async function releaseToSlots(
  tx: DbOrTx,
  planned: readonly ReleasesTable[],
  at: string,
  lock = false,
): Promise<{ id: string; postId: string }[]> {
  const itemIds = await releases.insertReleases(tx, planned);
  // The others went to another dispatcher: it holds their slot or their item.
  if (itemIds.length === 0) return [];
  const moved = await releaseItems(tx, itemIds, at, lock);
  if (moved.length < itemIds.length) {
    // Cancelled since they were planned: give their slots back.
    const done = new Set(moved.map((m) => m.id));
    await releases.deleteReleasesOf(
      tx,
      itemIds.filter((id) => !done.has(id)),
    );
  }
  return moved;
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
  const ids = await repo.claimCandidates(tx, dialect, worker, limit);
  if (ids.length === 0) return [];
  return repo.claim(tx, ids, worker.id, at);
}

/**
 * Claims one released item for the worker, as when a person starts a task on the workers'
 * page; the caller has checked that the worker operates its account. Conditional on the item
 * being released and unclaimed, so it is claimed at most once; returns whether it was.
 */
export async function claimItem(
  tx: DbOrTx,
  itemId: string,
  workerId: string,
  at: string,
): Promise<boolean> {
  return (await repo.claim(tx, [itemId], workerId, at)).length === 1;
}

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
  result: repo.ItemOutcome,
  at: string,
  opts: { fromUnconfirmed?: boolean } = {},
): Promise<boolean> {
  const from = opts.fromUnconfirmed ? UNCONFIRMED_REASON : undefined;
  if (!(await repo.finish(tx, item.id, result, at, from))) return false;
  await refreshPostStatus(tx, item.postId, at);
  return true;
}

/**
 * Fails released items with no report by the deadline: unclaimed ones released at or before
 * `before`, claimed ones claimed at or before it (the deadline runs from the claim once there
 * is one). They are never put back in the queue: a worker may have posted without
 * reporting, and a second release could post twice. `lock` as in refreshPostStatuses (true
 * on PostgreSQL). Returns the items failed.
 */
export async function failUnreported(
  tx: DbOrTx,
  before: string,
  at: string,
  limit: number,
  lock = false,
): Promise<{ id: string; postId: string; claimed: boolean }[]> {
  const stale = await repo.unreported(tx, before, limit);
  const failed: { id: string; postId: string; claimed: boolean }[] = [];
  for (const claimed of [false, true]) {
    const ids = stale.filter((r) => (r.claimed_at !== null) === claimed).map((r) => r.id);
    if (ids.length === 0) continue;
    const reason = claimed ? UNCONFIRMED_REASON : UNCLAIMED_REASON;
    for (const r of await repo.failReleased(tx, ids, claimed, reason, at)) {
      failed.push({ id: r.id, postId: r.post_id, claimed });
    }
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
