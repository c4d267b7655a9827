// The state machine of queue items (DECISIONS 2): the one place where an item enters the
// queue or changes status. Every change is one function here, runs inside the caller's
// transaction, is conditional on the status at write time, and refreshes the derived
// status of the posts it touched; lifecycle events of items are recorded here too, with one
// insert per change, for the items that really moved.
import type { DbOrTx, QueueItemsTable, ReleasesTable } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import { recordEvents, type NewEvent } from '../webhooks/index.ts';
import { itemChanged, itemsOpened, itemsRejected } from './item-events.view.ts';
import { openingStatus, type PostStatus } from './item-status.rules.ts';
import * as inserts from './item-inserts.repository.ts';
import * as repo from './items.repository.ts';
import { IDS_PER_STATEMENT, refreshMany, refreshOne, slices } from './post-status.state.ts';
import * as releases from './releases.repository.ts';
import * as figures from './delivery-figures.service.ts';
import * as reads from './item-reads.repository.ts';

export type { ItemOutcome } from './items.repository.ts';
export { refreshPostStatus, refreshPostStatuses } from './post-status.state.ts';

/** How a post's items are asked for: the post, when, and how they are to be released. */
export interface PostItemsRequest {
  companyId: string;
  postId: string;
  at: string;
  skipApproval?: boolean;
  priority?: number;
  /** Each account's earliest-release floor (SPEC 2.2 `scheduledAfter`), chosen in the dashboard. */
  floors?: ReadonlyMap<string, string>;
}

/**
 * The rows of a post's new items, one per account in the order given, each in the status it
 * opens in (openingStatus): `processing` while the post's media is still being made.
 */
export function newPostItems(
  request: PostItemsRequest & { mediaReady: boolean },
  accountIds: readonly string[],
): QueueItemsTable[] {
  const { companyId, postId, at } = request;
  const skip = request.skipApproval === true;
  const status = openingStatus(request.mediaReady, skip);
  return accountIds.map((accountId) => ({
    id: newId('qit'),
    company_id: companyId,
    post_id: postId,
    account_id: accountId,
    status,
    skip_approval: skip ? 1 : 0,
    priority: request.priority ?? 0,
    queued_at: at,
    approved_at: status === 'queued' ? at : null,
    scheduled_after: request.floors?.get(accountId) ?? null,
    released_at: null,
    posted_at: null,
    post_url: null,
    failure_reason: null,
    updated_at: at,
    claimed_at: null,
    claimed_by: null,
    approved_by: null,
    reported_at: null,
    on_time: null,
    proof_upload_id: null,
    reject_reason: null,
    rejected_by: null,
    rejected_at: null,
  }));
}

/**
 * New items (newPostItems) enter the queue in the status their rows carry. The caller
 * writes or refreshes the post's status: a new post derives it from these rows. `first`
 * are events of the same change recorded before the items' own (a new post's
 * post.created), so the change takes one insert.
 */
export async function enqueueItems(
  tx: DbOrTx,
  rows: readonly QueueItemsTable[],
  at: string,
  first: readonly NewEvent[] = [],
): Promise<void> {
  await inserts.insertItems(tx, rows);
  await recordEvents(tx, [...first, ...itemsOpened(rows)], at);
}

/**
 * Queueing a post (its media ready) again for `accountIds`: a new item enters the queue for
 * each account the post has no item for among `existing` (its items, which the caller holds
 * and found final for these accounts), and for an account whose item ended `failed` or
 * `cancelled` (a deliberate retry) that item starts over as a new one would, under its old
 * id, with its release, claim and outcome cleared (conditional on the item still being
 * final). Refreshes the post.
 */
export async function queueAgain(
  tx: DbOrTx,
  request: PostItemsRequest,
  accountIds: readonly string[],
  existing: readonly QueueItemsTable[],
): Promise<void> {
  const { postId, at } = request;
  const byAccount = new Map(existing.map((i) => [i.account_id, i]));
  const fresh = newPostItems({ ...request, mediaReady: true }, accountIds);
  const added = fresh.filter((f) => !byAccount.has(f.account_id));
  await inserts.insertItems(tx, added);
  const moved: repo.MovedItem[] = [...added];
  for (const item of fresh) {
    const old = byAccount.get(item.account_id);
    if (!old) continue;
    const row = await repo.revive(tx, old.id, item);
    if (row) moved.push(row);
  }
  const { events } = await refreshOne(tx, postId, at);
  await recordEvents(tx, [...itemsOpened(moved), ...events], at);
}

/** Who decides on items waiting for approval: `user:<id>` and their email, or the operator. */
export interface Decider {
  id: string;
  /** A dashboard user's email; null for the operator. */
  email: string | null;
}

/**
 * Approval (DECISIONS 2): the given items still `pending_approval` become `queued` with
 * `approvedAt` and who approved them, or `cancelled` when rejected, keeping who rejected
 * them, when and why (`reason`, sent in `post.item.rejected`). Returns the ids that moved;
 * refreshes the post.
 */
export async function decideItems(
  tx: DbOrTx,
  postId: string,
  itemIds: readonly string[],
  outcome: 'approve' | 'reject',
  at: string,
  by: Decider = { id: 'operator', email: null },
  reason: string | null = null,
): Promise<{ moved: string[]; status: PostStatus }> {
  const moved = await repo.decide(tx, postId, itemIds, outcome, at, by.id, reason);
  const { status, events } = await refreshOne(tx, postId, at);
  const changed =
    outcome === 'approve'
      ? itemChanged('post.item.approved', moved)
      : itemsRejected(moved, { by: by.id, email: by.email, reason, at });
  await recordEvents(tx, [...changed, ...events], at);
  return { moved: moved.map((m) => m.id), status };
}

/**
 * A post's media became ready: its items still `processing` open as they would have at
 * creation, `queued` (approved) when created with skipApproval, `pending_approval`
 * otherwise. Items cancelled meanwhile stay cancelled. Refreshes the post; call it before
 * changing the post row's other columns (the lock order of refreshPostStatus).
 */
export async function openProcessedItems(tx: DbOrTx, postId: string, at: string): Promise<void> {
  const approved = await repo.openSkippingApproval(tx, postId, at);
  const pending = await repo.openForApproval(tx, postId, at);
  const { events } = await refreshOne(tx, postId, at);
  await recordEvents(tx, [...itemsOpened([...approved, ...pending]), ...events], at);
}

/**
 * A post's media cannot be made: its items still `processing` fail with the reason.
 * Refreshes the post, and is called before changing its other columns, like
 * openProcessedItems.
 */
export async function failProcessingItems(
  tx: DbOrTx,
  postId: string,
  reason: string,
  at: string,
): Promise<void> {
  const failed = await repo.failProcessing(tx, postId, reason, at);
  const { events } = await refreshOne(tx, postId, at);
  await recordEvents(tx, [...itemChanged('post.item.failed', failed), ...events], at);
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
  const { status, events } = await refreshOne(tx, postId, at);
  await recordEvents(tx, [...itemChanged('post.item.cancelled', cancelled), ...events], at);
  return { cancelled: cancelled.map((c) => c.id), status };
}

/**
 * A release (DECISIONS 5): moves the given items from `queued` to `posting`,
 * stamping `released_at`, and refreshes their posts' statuses. The update is
 * conditional on the status at write time, so an item cancelled since it was
 * picked stays cancelled; the caller learns which items really moved and
 * gives back whatever it reserved for the others.
 */
export async function releaseItems(
  tx: DbOrTx,
  itemIds: readonly string[],
  at: string,
): Promise<{ id: string; postId: string }[]> {
  const moved: repo.MovedItem[] = [];
  for (const part of slices([...new Set(itemIds)], IDS_PER_STATEMENT)) {
    moved.push(...(await repo.release(tx, part, at)));
  }
  if (moved.length === 0) return [];
  const refreshed = await refreshMany(
    tx,
    moved.map((m) => m.post_id),
    at,
  );
  await recordEvents(tx, [...itemChanged('post.item.released', moved), ...refreshed.events], at);
  return moved.map((m) => ({ id: m.id, postId: m.post_id }));
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
): Promise<{ id: string; postId: string }[]> {
  const itemIds = await releases.insertReleases(tx, planned);
  // The others went to another dispatcher: it holds their slot or their item.
  if (itemIds.length === 0) return [];
  const moved = await releaseItems(tx, itemIds, at);
  await countMissedWindows(tx, planned, moved, at);
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
 * A release into a make-up slot stands for a window of the day that released nothing
 * although an item was due: counted as a missed window of its account and worker.
 */
async function countMissedWindows(
  tx: DbOrTx,
  planned: readonly ReleasesTable[],
  moved: readonly { id: string }[],
  at: string,
): Promise<void> {
  const released = new Set(moved.map((m) => m.id));
  const madeUp = planned.filter((r) => r.slot_kind === 'makeup' && released.has(r.queue_item_id));
  if (madeUp.length === 0) return;
  const workers = await reads.workersOfAccounts(
    tx,
    madeUp.map((r) => r.account_id),
  );
  await figures.countOutcomes(
    tx,
    madeUp.map((r) => ({
      companyId: r.company_id,
      accountId: r.account_id,
      workerId: workers.get(r.account_id) ?? null,
      releasedAt: at,
      kind: 'missed',
    })),
  );
}
