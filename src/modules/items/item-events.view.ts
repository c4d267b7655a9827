// The webhook events of item changes, built from the rows a change moved. The state machine
// (items.state.ts) records them in the transaction of the change.
import {
  itemEvents,
  type NewEvent,
  type PostItemEventData,
  type PostItemEventType,
} from '../webhooks/index.ts';
import type { FinishedItem, MovedItem } from './items.repository.ts';
import type { PostStatus } from './item-status.rules.ts';
import type { StoredStatus } from './post-status.repository.ts';

function dataOf(row: MovedItem): PostItemEventData {
  return {
    postId: row.post_id,
    queueItemId: row.id,
    accountId: row.account_id,
    status: row.status as PostItemEventData['status'],
    postUrl: row.post_url,
    reason: row.failure_reason,
  };
}

/** One event of `type` per moved item, each under the item's company. */
export function itemChanged(type: PostItemEventType, rows: readonly MovedItem[]): NewEvent[] {
  const byCompany = new Map<string, PostItemEventData[]>();
  for (const row of rows) {
    const list = byCompany.get(row.company_id);
    if (list) list.push(dataOf(row));
    else byCompany.set(row.company_id, [dataOf(row)]);
  }
  return [...byCompany].flatMap(([companyId, list]) => itemEvents(type, companyId, list));
}

/** Who rejected items in review and why, as the `post.item.rejected` event tells it. */
export interface Rejection {
  /** `user:<id>` or `operator`. */
  by: string;
  /** The dashboard user's email, when a user rejected. */
  email: string | null;
  reason: string | null;
  at: string;
}

/** post.item.rejected of each item rejected in review, with who rejected it and why. */
export function itemsRejected(rows: readonly MovedItem[], rejection: Rejection): NewEvent[] {
  const userId = rejection.by.startsWith('user:') ? rejection.by.slice(5) : null;
  const byCompany = new Map<string, PostItemEventData[]>();
  for (const row of rows) {
    const data: PostItemEventData = {
      ...dataOf(row),
      rejection: {
        reason: rejection.reason,
        rejectedBy: { userId, email: userId ? rejection.email : null },
        rejectedAt: rejection.at,
      },
    };
    const list = byCompany.get(row.company_id);
    if (list) list.push(data);
    else byCompany.set(row.company_id, [data]);
  }
  return [...byCompany].flatMap(([companyId, list]) =>
    itemEvents('post.item.rejected', companyId, list),
  );
}

/** post.item.posted of an item reported posted, with its proof of punctuality. */
export function itemPosted(row: FinishedItem, slotStart: string | null): NewEvent[] {
  const data: PostItemEventData = dataOf(row);
  if (row.released_at !== null && row.posted_at !== null) {
    data.delivery = {
      releasedAt: row.released_at,
      claimedAt: row.claimed_at,
      postedAt: row.posted_at,
      slotStart,
      onTime: row.on_time === 1,
    };
  }
  return itemEvents('post.item.posted', row.company_id, [data]);
}

/**
 * Items opening (created, queued again, or their media became ready): `pending_approval`
 * ones wait for approval, `queued` ones are approved (skipApproval); `processing` ones
 * have not opened yet.
 */
export function itemsOpened(rows: readonly MovedItem[]): NewEvent[] {
  return [
    ...itemChanged(
      'post.item.pending_approval',
      rows.filter((r) => r.status === 'pending_approval'),
    ),
    ...itemChanged(
      'post.item.approved',
      rows.filter((r) => r.status === 'queued'),
    ),
  ];
}

/** post.status_changed when the derived status differs from the stored one. */
export function statusChanged(stored: StoredStatus | undefined, status: PostStatus): NewEvent[] {
  if (!stored || stored.status === status) return [];
  return [
    {
      companyId: stored.company_id,
      type: 'post.status_changed',
      data: { postId: stored.id, status, previousStatus: stored.status as PostStatus },
    },
  ];
}
