// What other modules and the runners may read of queue items. Each read is named for the
// question it answers and bound to the company where the caller has one; the queries
// themselves are this module's (item-reads.repository.ts, items.repository.ts,
// releases.repository.ts) and stay private to it.
import type { DbOrTx, QueueItemsTable } from '../../db/types.ts';
import * as reads from './item-reads.repository.ts';
import * as items from './items.repository.ts';
import * as releases from './releases.repository.ts';
import type {
  CalendarDetailRow,
  CalendarOpenRow,
  CalendarReleasedRow,
  CalendarTodayRow,
  DeliveryRow,
  ItemWithAccount,
  PlanningRow,
  QueueActivityRow,
  QueueKey,
  QueueRow,
  TaskRow,
} from './item-reads.repository.ts';

export type {
  CalendarDetailRow,
  CalendarOpenRow,
  CalendarReleasedRow,
  CalendarTodayRow,
  DeliveryRow,
  ItemWithAccount,
  PlanningRow,
  QueueActivityRow,
  QueueKey,
  QueueRow,
  TaskRow,
};

/** Every item of the company's post, in queue order. */
export function itemsOfPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<QueueItemsTable[]> {
  return items.itemsOfPost(db, companyId, postId);
}

/**
 * Locks the given items of a post that are still cancellable, in account order (one order
 * for every transaction that locks several of them), and returns them.
 */
export function lockOpenItems(
  db: DbOrTx,
  companyId: string,
  postId: string,
  itemIds: readonly string[],
): Promise<QueueItemsTable[]> {
  return items.lockOpenItems(db, companyId, postId, itemIds);
}

/** Items of the posts with their account's username and platform, in queue order. */
export function itemsOfPosts(db: DbOrTx, postIds: readonly string[]): Promise<ItemWithAccount[]> {
  return reads.itemsOfPosts(db, postIds);
}

/** One page of an account's open items in release order, after the keyset `after`. */
export function pageQueue(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  opts: { after?: QueueKey; limit: number },
): Promise<QueueRow[]> {
  return reads.pageQueue(db, companyId, accountId, opts);
}

/** Every `queued` item of the account: the input of the slot planner. */
export function queuedItems(
  db: DbOrTx,
  companyId: string,
  accountId: string,
): Promise<PlanningRow[]> {
  return reads.queuedItems(db, companyId, accountId);
}

/** Items of the account released in [from, to): the slots already taken. */
export function releasedBetween(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  from: string,
  to: string,
): Promise<PlanningRow[]> {
  return reads.releasedBetween(db, companyId, accountId, from, to);
}

/** Queued items whose account is in one of the given statuses: what the dispatcher plans. */
export function queuedOfAccountsIn(
  db: DbOrTx,
  accountStatuses: readonly string[],
): ReturnType<typeof reads.queuedOfAccountsIn> {
  return reads.queuedOfAccountsIn(db, accountStatuses);
}

/** Releases of the accounts since `since`: when, and when the released item was ready. */
export function releasesSince(
  db: DbOrTx,
  accountIds: readonly string[],
  since: string,
): Promise<{ account_id: string; released_at: string; ready_at: string }[]> {
  return releases.releasesSince(db, accountIds, since);
}

/** The items as a worker's tasks: item, post and account fields together. */
export function findTasks(db: DbOrTx, itemIds: readonly string[]): Promise<TaskRow[]> {
  return reads.findTasks(db, itemIds);
}

/** Ids of a worker's open tasks in release order, one keyset page. */
export function openTaskIds(
  db: DbOrTx,
  workerId: string,
  opts: { claimed?: boolean; after?: [string, string]; limit: number },
): Promise<string[]> {
  return reads.openTaskIds(db, workerId, opts);
}

/** How many of a worker's tasks are released and not claimed, and how many are claimed. */
export function openTaskCounts(
  db: DbOrTx,
  workerId: string,
): Promise<{ released: number; claimed: number }> {
  return reads.openTaskCounts(db, workerId);
}

/** Items a worker posted since `postedSince` among those released since `releasedSince`. */
export function postedByWorker(
  db: DbOrTx,
  workerId: string,
  postedSince: string,
  releasedSince: string,
): ReturnType<typeof reads.postedByWorker> {
  return reads.postedByWorker(db, workerId, postedSince, releasedSince);
}

/** How many items the account has posted, and its `limit` most recent ones. */
export function postedOfAccount(
  db: DbOrTx,
  accountId: string,
  limit: number,
): ReturnType<typeof reads.postedOfAccount> {
  return reads.postedOfAccount(db, accountId, limit);
}

/**
 * Queue activity of the company's accounts: per account its `queued` count and its
 * releases since `since` (at most a thousand ids per call).
 */
export function queueActivity(
  db: DbOrTx,
  companyId: string,
  accountIds: readonly string[],
  since: string,
): Promise<QueueActivityRow[]> {
  return reads.queueActivity(db, companyId, accountIds, since);
}

/**
 * The calendar's reads: queued items to plan, items waiting, today's releases counted toward
 * each account's day, a day's releases counted and its first ones listed, and what a listed
 * item shows.
 */
export function calendarQueued(
  db: DbOrTx,
  companyId: string,
  accountId?: string,
): Promise<CalendarOpenRow[]> {
  return reads.calendarQueued(db, companyId, accountId);
}

export function calendarWaiting(
  db: DbOrTx,
  companyId: string,
  accountId?: string,
): Promise<Map<string, number>> {
  return reads.calendarWaiting(db, companyId, accountId);
}

export function calendarReleasedToday(
  db: DbOrTx,
  companyId: string,
  from: string,
  to: string,
  accountId?: string,
): Promise<CalendarTodayRow[]> {
  return reads.calendarReleasedToday(db, companyId, from, to, accountId);
}

export function calendarReleasedCounts(
  db: DbOrTx,
  companyId: string,
  from: string,
  to: string,
  accountId?: string,
): Promise<{ status: string; n: number }[]> {
  return reads.calendarReleasedCounts(db, companyId, from, to, accountId);
}

export function calendarReleased(
  db: DbOrTx,
  companyId: string,
  from: string,
  to: string,
  accountId?: string,
  limit?: number,
): Promise<CalendarReleasedRow[]> {
  return reads.calendarReleased(db, companyId, from, to, accountId, limit);
}

export function calendarDetails(
  db: DbOrTx,
  companyId: string,
  itemIds: readonly string[],
): Promise<CalendarDetailRow[]> {
  return reads.calendarDetails(db, companyId, itemIds);
}

/** Items of every company per status (the metrics scrape). */
export function itemCountsByStatus(db: DbOrTx): Promise<Record<string, number>> {
  return reads.itemCountsByStatus(db);
}

/** Every item of the company's post with its account and its release: delivery records. */
export function deliveryRows(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<DeliveryRow[]> {
  return reads.deliveryRows(db, companyId, postId);
}

/** The accounts whose items of the company's posts were rejected in review, by post. */
export function rejectedAccounts(
  db: DbOrTx,
  companyId: string,
  postIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  return reads.rejectedAccounts(db, companyId, postIds);
}
