// The writes of queue_items: locks and one statement per status change (inserts are in
// item-inserts.repository.ts). Only the state machine (items.state.ts, released-items.state.ts)
// calls the status changes; each is conditional on the
// status at write time, so a change racing another one is never overwritten.
import type { UpdateQueryBuilder, UpdateResult, Updateable } from 'kysely';

import type { Database, DbOrTx, QueueItemsTable } from '../../db/types.ts';
import { CANCELLABLE, type ItemStatus } from './item-status.rules.ts';

/** Items of a post waiting for approval, optionally of one account. */
export async function pendingItems(
  db: DbOrTx,
  companyId: string,
  postId: string,
  accountId?: string,
): Promise<{ id: string; account_id: string }[]> {
  let q = db
    .selectFrom('queue_items')
    .select(['id', 'account_id'])
    .where('post_id', '=', postId)
    .where('company_id', '=', companyId)
    .where('status', '=', 'pending_approval');
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  return q.execute();
}

/** The status of every item of the posts: the input of the derived post status. */
export function statusesOfPosts(
  db: DbOrTx,
  postIds: readonly string[],
): Promise<{ post_id: string; status: string }[]> {
  return db
    .selectFrom('queue_items')
    .select(['post_id', 'status'])
    .where('post_id', 'in', [...postIds])
    .execute();
}

// ---- Status changes: one conditional statement each --------------------------------------

/** The items a change is for, and the status (or one of the statuses) each must still be in. */
interface Which {
  companyId?: string;
  postId?: string;
  /** One item by id, or any of several. */
  id?: string;
  ids?: readonly string[];
  from: ItemStatus | readonly ItemStatus[];
}

type ItemUpdate = UpdateQueryBuilder<Database, 'queue_items', 'queue_items', UpdateResult>;

/**
 * The one shape of a write to existing items: `patch` on the items `which` names, only while
 * their status at write time is `from`, so a change racing another one never overwrites it.
 * Each move adds what else narrows it and what it returns.
 */
function transition(tx: DbOrTx, which: Which, patch: Updateable<QueueItemsTable>): ItemUpdate {
  let q = tx.updateTable('queue_items').set(patch);
  if (which.companyId !== undefined) q = q.where('company_id', '=', which.companyId);
  if (which.postId !== undefined) q = q.where('post_id', '=', which.postId);
  if (which.id !== undefined) q = q.where('id', '=', which.id);
  if (which.ids !== undefined) q = q.where('id', 'in', [...which.ids]);
  return typeof which.from === 'string'
    ? q.where('status', '=', which.from)
    : q.where('status', 'in', [...which.from]);
}

/** What a status change returns of each item it moved: what its event says. */
const MOVED_COLUMNS = [
  'id',
  'post_id',
  'account_id',
  'company_id',
  'status',
  'post_url',
  'failure_reason',
] as const satisfies readonly (keyof QueueItemsTable)[];

export type MovedItem = Pick<QueueItemsTable, (typeof MOVED_COLUMNS)[number]>;

/** What a final outcome returns: its event's fields and what the delivery counters need. */
const FINISHED_COLUMNS = [
  ...MOVED_COLUMNS,
  'released_at',
  'claimed_at',
  'claimed_by',
  'posted_at',
  'on_time',
] as const;
export type FinishedItem = Pick<QueueItemsTable, (typeof FINISHED_COLUMNS)[number]>;

/**
 * `pending_approval` -> `queued` (approved) or `cancelled` (rejected, with who rejected and
 * why); returns the items moved.
 */
export async function decide(
  tx: DbOrTx,
  postId: string,
  itemIds: readonly string[],
  outcome: 'approve' | 'reject',
  at: string,
  by: string,
  reason: string | null = null,
): Promise<MovedItem[]> {
  if (itemIds.length === 0) return [];
  return transition(
    tx,
    { postId, ids: itemIds, from: 'pending_approval' },
    outcome === 'approve'
      ? { status: 'queued', approved_at: at, approved_by: by, updated_at: at }
      : {
          status: 'cancelled',
          failure_reason: 'rejected in review',
          reject_reason: reason,
          rejected_by: by,
          rejected_at: at,
          updated_at: at,
        },
  )
    .returning(MOVED_COLUMNS)
    .execute();
}

/** `processing` -> `queued` (approved now) for items created with skipApproval. */
export async function openSkippingApproval(
  tx: DbOrTx,
  postId: string,
  at: string,
): Promise<MovedItem[]> {
  return transition(
    tx,
    { postId, from: 'processing' },
    { status: 'queued', approved_at: at, updated_at: at },
  )
    .where('skip_approval', '=', 1)
    .returning(MOVED_COLUMNS)
    .execute();
}

/** `processing` -> `pending_approval` for the post's remaining processing items. */
export async function openForApproval(
  tx: DbOrTx,
  postId: string,
  at: string,
): Promise<MovedItem[]> {
  return transition(
    tx,
    { postId, from: 'processing' },
    { status: 'pending_approval', updated_at: at },
  )
    .returning(MOVED_COLUMNS)
    .execute();
}

/** `processing` -> `failed` with the reason. */
export async function failProcessing(
  tx: DbOrTx,
  postId: string,
  reason: string,
  at: string,
): Promise<MovedItem[]> {
  return transition(
    tx,
    { postId, from: 'processing' },
    { status: 'failed', failure_reason: reason, updated_at: at },
  )
    .returning(MOVED_COLUMNS)
    .execute();
}

/** `failed`/`cancelled` -> the fresh item's values, under the old id. */
export async function revive(
  tx: DbOrTx,
  oldId: string,
  fresh: QueueItemsTable,
): Promise<MovedItem | undefined> {
  return transition(tx, { id: oldId, from: ['failed', 'cancelled'] }, { ...fresh, id: oldId })
    .returning(MOVED_COLUMNS)
    .executeTakeFirst();
}

/** Cancellable -> `cancelled`; returns the ids moved. */
export async function cancel(
  tx: DbOrTx,
  companyId: string,
  postId: string,
  itemIds: readonly string[],
  at: string,
): Promise<MovedItem[]> {
  if (itemIds.length === 0) return [];
  return transition(
    tx,
    { companyId, postId, ids: itemIds, from: CANCELLABLE },
    { status: 'cancelled', updated_at: at },
  )
    .returning(MOVED_COLUMNS)
    .execute();
}

/** `queued` -> `posting` (released); returns the items moved with their posts. */
export async function release(
  tx: DbOrTx,
  itemIds: readonly string[],
  at: string,
): Promise<MovedItem[]> {
  return transition(
    tx,
    { ids: itemIds, from: 'queued' },
    { status: 'posting', released_at: at, updated_at: at },
  )
    .returning(MOVED_COLUMNS)
    .execute();
}

/**
 * Unclaimed released items of the worker's accounts (or one of them), oldest release first;
 * on PostgreSQL locked, skipping rows another claim holds.
 */
export async function claimCandidates(
  tx: DbOrTx,
  worker: { id: string; accountId?: string },
  limit: number,
): Promise<string[]> {
  const candidates = tx
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
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return (await candidates.execute()).map((r) => r.id);
}

/** What a claim returns of each item it stamped: what the delivery counters need. */
export type ClaimedItem = Pick<QueueItemsTable, 'id' | 'company_id' | 'account_id' | 'released_at'>;

/** Stamps the claim on items still released and unclaimed; returns the items claimed. */
export async function claim(
  tx: DbOrTx,
  itemIds: readonly string[],
  workerId: string,
  at: string,
): Promise<ClaimedItem[]> {
  return transition(
    tx,
    { ids: itemIds, from: 'posting' },
    { claimed_at: at, claimed_by: workerId, updated_at: at },
  )
    .where('claimed_at', 'is', null)
    .returning(['id', 'company_id', 'account_id', 'released_at'])
    .execute();
}

export type ItemOutcome =
  { outcome: 'posted'; postUrl: string; postedAt: string } | { outcome: 'failed'; reason: string };

/**
 * `posting` -> `posted`/`failed`, or with `fromFailedReason` a `failed` item of that reason
 * -> `posted`, stamping the report's arrival and, when posted, whether it was on time;
 * returns the item when it moved.
 */
export async function finish(
  tx: DbOrTx,
  itemId: string,
  result: ItemOutcome,
  at: string,
  opts: { fromFailedReason?: string; onTime?: boolean } = {},
): Promise<FinishedItem | undefined> {
  const fromFailedReason = opts.fromFailedReason;
  let q = transition(
    tx,
    { id: itemId, from: fromFailedReason !== undefined ? 'failed' : 'posting' },
    // A late `posted` report also clears the reason the deadline gave.
    result.outcome === 'posted'
      ? {
          status: 'posted',
          posted_at: result.postedAt,
          post_url: result.postUrl,
          failure_reason: null,
          updated_at: at,
          reported_at: at,
          on_time: opts.onTime === undefined ? null : opts.onTime ? 1 : 0,
        }
      : { status: 'failed', failure_reason: result.reason, updated_at: at, reported_at: at },
  );
  if (fromFailedReason !== undefined) q = q.where('failure_reason', '=', fromFailedReason);
  return q.returning(FINISHED_COLUMNS).executeTakeFirst();
}

/** Released items unreported by `before`: unclaimed ones by release, claimed ones by claim. */
export async function unreported(
  tx: DbOrTx,
  before: string,
  limit: number,
): Promise<{ id: string; post_id: string; claimed_at: string | null }[]> {
  return tx
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
}

/** `posting` -> `failed` with the reason, for items still (un)claimed as `claimed` says. */
export async function failReleased(
  tx: DbOrTx,
  itemIds: readonly string[],
  claimed: boolean,
  reason: string,
  at: string,
): Promise<FinishedItem[]> {
  return transition(
    tx,
    { ids: itemIds, from: 'posting' },
    { status: 'failed', failure_reason: reason, updated_at: at },
  )
    .where('claimed_at', claimed ? 'is not' : 'is', null)
    .returning(FINISHED_COLUMNS)
    .execute();
}

/** Sets the priority of an item not yet released; returns whether it was. */
export async function setPriority(
  tx: DbOrTx,
  companyId: string,
  itemId: string,
  priority: number,
  at: string,
): Promise<boolean> {
  const res = await transition(
    tx,
    { companyId, id: itemId, from: CANCELLABLE },
    { priority, updated_at: at },
  ).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Sets the earliest-release floor (SPEC 2.2 `scheduledAfter`) of an item not yet released;
 * null clears it. Returns whether the item was still open to it.
 */
export async function setFloor(
  tx: DbOrTx,
  companyId: string,
  itemId: string,
  floor: string | null,
  at: string,
): Promise<boolean> {
  const res = await transition(
    tx,
    { companyId, id: itemId, from: CANCELLABLE },
    { scheduled_after: floor, updated_at: at },
  ).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Sets the priority of the post's items not yet released (the company's); returns the
 * account of each item changed.
 */
export async function setPostPriority(
  tx: DbOrTx,
  companyId: string,
  postId: string,
  priority: number,
  at: string,
): Promise<string[]> {
  const rows = await transition(
    tx,
    { companyId, postId, from: CANCELLABLE },
    { priority, updated_at: at },
  )
    .where('priority', '<>', priority)
    .returning('account_id')
    .execute();
  return rows.map((r) => r.account_id).sort();
}

/** Sets the proof screenshot of a claimed or posted item; returns whether it was set. */
export async function setProof(
  tx: DbOrTx,
  itemId: string,
  uploadId: string,
  at: string,
): Promise<boolean> {
  const r = await transition(
    tx,
    { id: itemId, from: ['posting', 'posted', 'failed'] },
    { proof_upload_id: uploadId, updated_at: at },
  ).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
