// What other modules and the runners may read of queue items: the items of posts for their
// view and their delivery records, the input of an account's slot planner, what the
// dispatcher may release, and counts for the metrics. Each read is named for the question it
// answers, bound to the company where the caller has one, and written here with its query;
// a worker's tasks are read in task-reads.service.ts, the calendar's counts in
// calendar-reads.service.ts.
import { bind, params, perLength, prepared } from '../../db/prepared.ts';
import type { Db, DbOrTx, QueueItemsTable } from '../../db/types.ts';
import { CANCELLABLE } from './item-status.rules.ts';
import * as reads from './item-reads.repository.ts';
import type { QueueKey, QueueRow } from './item-reads.repository.ts';

export type { QueueKey, QueueRow };

/** Every item of a post (the company's), in queue order. */
export async function itemsOfPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<QueueItemsTable[]> {
  return db
    .selectFrom('queue_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId)
    .orderBy('queued_at')
    .orderBy('id')
    .execute();
}

/**
 * Locks the given items of a post that are still cancellable (PostgreSQL), in
 * account order so that transactions locking several items of one post take
 * them in the same order. Items already final are left unlocked: queueing
 * again revives those while holding the post. Returns the rows locked.
 */
export async function lockOpenItems(
  db: DbOrTx,
  companyId: string,
  postId: string,
  itemIds: readonly string[],
): Promise<QueueItemsTable[]> {
  if (itemIds.length === 0) return [];
  return db
    .selectFrom('queue_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId)
    .where('id', 'in', [...itemIds])
    .where('status', 'in', [...CANCELLABLE])
    .orderBy('account_id')
    .forUpdate()
    .execute();
}

export interface ItemWithAccount extends QueueItemsTable {
  username: string;
  platform: string;
}

const itemsQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('queue_items')
      .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
      .selectAll('queue_items')
      .select(['accounts.username', 'accounts.platform'])
      .where('queue_items.post_id', 'in', params('id', n))
      .orderBy('queue_items.queued_at')
      .orderBy('queue_items.id'),
  ),
);

/** Items of the posts with their account's username and platform, in queue order. */
export function itemsOfPosts(db: DbOrTx, postIds: readonly string[]): Promise<ItemWithAccount[]> {
  if (postIds.length === 0) return Promise.resolve([]);
  return itemsQuery(postIds.length)(db, bind('id', postIds, {}));
}

/**
 * One page of an account's open items in release order, after the keyset `after`. Its query
 * stays in item-reads.repository.ts with the row and key types it returns.
 */
export function pageQueue(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  opts: { after?: QueueKey; limit: number },
): Promise<QueueRow[]> {
  return reads.pageQueue(db, companyId, accountId, opts);
}

export interface PlanningRow {
  id: string;
  priority: number;
  queued_at: string;
  approved_at: string | null;
  scheduled_after: string | null;
  released_at: string | null;
}

const PLANNING_COLUMNS = [
  'id',
  'priority',
  'queued_at',
  'approved_at',
  'scheduled_after',
  'released_at',
] as const satisfies readonly (keyof PlanningRow)[];

/** Every `queued` item of the account: the input of the slot planner. */
export async function queuedItems(
  db: DbOrTx,
  companyId: string,
  accountId: string,
): Promise<PlanningRow[]> {
  return db
    .selectFrom('queue_items')
    .select(PLANNING_COLUMNS)
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId)
    .where('status', '=', 'queued')
    .execute();
}

/** Items of the account released in [from, to), whatever became of them since: the slots taken. */
export async function releasedBetween(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  from: string,
  to: string,
): Promise<PlanningRow[]> {
  return db
    .selectFrom('queue_items')
    .select(PLANNING_COLUMNS)
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId)
    .where('released_at', '>=', from)
    .where('released_at', '<', to)
    .execute();
}

/** The `queued` items and the releases in [from, to) of several of the company's accounts. */
export async function planningOfAccounts(
  db: DbOrTx,
  companyId: string,
  accountIds: readonly string[],
  from: string,
  to: string,
): Promise<{ queued: AccountPlanningRow[]; released: AccountPlanningRow[] }> {
  if (accountIds.length === 0) return { queued: [], released: [] };
  const ids = [...new Set(accountIds)];
  const [queued, released] = await Promise.all([
    db
      .selectFrom('queue_items')
      .select([...PLANNING_COLUMNS, 'account_id'])
      .where('company_id', '=', companyId)
      .where('account_id', 'in', ids)
      .where('status', '=', 'queued')
      .execute(),
    db
      .selectFrom('queue_items')
      .select([...PLANNING_COLUMNS, 'account_id'])
      .where('company_id', '=', companyId)
      .where('account_id', 'in', ids)
      .where('released_at', '>=', from)
      .where('released_at', '<', to)
      .execute(),
  ]);
  return { queued, released };
}

export type AccountPlanningRow = PlanningRow & { account_id: string };

/**
 * Every `queued` item of the accounts in the given statuses (those that receive releases)
 * of companies not suspended (whose posts wait, untouched, until they are resumed): the
 * dispatcher's input. Items of other accounts stay queued and are not even read.
 */
export async function queuedOfAccountsIn(db: DbOrTx, accountStatuses: readonly string[]) {
  return db
    .selectFrom('queue_items')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .innerJoin('companies', 'companies.id', 'queue_items.company_id')
    .select([
      'queue_items.id',
      'queue_items.account_id',
      'queue_items.company_id',
      'queue_items.post_id',
      'queue_items.priority',
      'queue_items.queued_at',
      'queue_items.approved_at',
      'queue_items.scheduled_after',
    ])
    .where('queue_items.status', '=', 'queued')
    .where('accounts.status', 'in', [...accountStatuses])
    .where('companies.suspended_at', 'is', null)
    .execute();
}

/** Releases of the accounts since `since`: when, and when the released item was ready. */
export async function releasesSince(
  db: DbOrTx,
  accountIds: readonly string[],
  since: string,
): Promise<{ account_id: string; released_at: string; ready_at: string }[]> {
  return db
    .selectFrom('releases')
    .select(['account_id', 'released_at', 'ready_at'])
    .where('account_id', 'in', [...accountIds])
    .where('released_at', '>=', since)
    .execute();
}

/** Items of every company per status, in one grouped query (for the metrics scrape). */
export async function itemCountsByStatus(db: DbOrTx): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('queue_items')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** An item of a post with its account and release: the delivery record's facts. */
export interface DeliveryRecordRow {
  id: string;
  account_id: string;
  username: string;
  platform: string;
  status: string;
  released_at: string | null;
  claimed_at: string | null;
  posted_at: string | null;
  reported_at: string | null;
  on_time: number | null;
  post_url: string | null;
  failure_reason: string | null;
  proof_upload_id: string | null;
  slot_start: string | null;
  local_date: string | null;
  slot_label: string | null;
  slot_kind: string | null;
}

/** Every item of the company's post with its account and release, in account order. */
export async function deliveryRecordRows(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<DeliveryRecordRow[]> {
  return db
    .selectFrom('queue_items')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .leftJoin('releases', 'releases.queue_item_id', 'queue_items.id')
    .select([
      'queue_items.id',
      'queue_items.account_id',
      'accounts.username',
      'accounts.platform',
      'queue_items.status',
      'queue_items.released_at',
      'queue_items.claimed_at',
      'queue_items.posted_at',
      'queue_items.reported_at',
      'queue_items.on_time',
      'queue_items.post_url',
      'queue_items.failure_reason',
      'queue_items.proof_upload_id',
      'releases.slot_start',
      'releases.local_date',
      'releases.slot_label',
      'releases.slot_kind',
    ])
    .where('queue_items.company_id', '=', companyId)
    .where('queue_items.post_id', '=', postId)
    .orderBy('queue_items.queued_at')
    .orderBy('queue_items.id')
    .execute();
}

/**
 * The accounts whose items of the company's posts were rejected in review and are still
 * cancelled (an item queued again loses its rejection), by post: the API calls such an item
 * `cancelled`, the dashboard `rejected`.
 */
export async function rejectedAccounts(
  db: DbOrTx,
  companyId: string,
  postIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const byPost = new Map<string, Set<string>>();
  if (postIds.length === 0) return byPost;
  const rows = await db
    .selectFrom('queue_items')
    .select(['post_id', 'account_id'])
    .where('company_id', '=', companyId)
    .where('post_id', 'in', [...postIds])
    .where('status', '=', 'cancelled')
    .where('rejected_at', 'is not', null)
    .execute();
  for (const r of rows) {
    const accounts = byPost.get(r.post_id) ?? new Set<string>();
    accounts.add(r.account_id);
    byPost.set(r.post_id, accounts);
  }
  return byPost;
}
