// The reads of queue_items kept in a repository: the worker operating each account (for the
// state machine's delivery counters), and the page of an account's queue in release order
// with its row and keyset types, which item-reads.service.ts hands on (the import-graph test
// follows QueueRow through that service to this file). Every other read the face offers is
// written with its query in a read service: item-reads, task-reads, calendar-reads.
import { sql, type SqlBool } from 'kysely';
import type { DbOrTx, QueueItemsTable } from '../../db/types.ts';

/** Statuses of items still on their way out (DECISIONS 2); the account queue shows these. */
export const OPEN_STATUSES = ['processing', 'pending_approval', 'queued', 'posting'] as const;

/**
 * Keyset of the queue order: `rank` 0 for `posting` items (already released) and 1 for the
 * rest, then priority desc, queuedAt asc, id asc (release-order.ts).
 */
export type QueueKey = [rank: number, priority: number, queuedAt: string, id: string];

export interface QueueRow {
  id: string;
  post_id: string;
  status: string;
  priority: number;
  queued_at: string;
  scheduled_after: string | null;
  caption: string | null;
  carousel: SqlBool;
  thumbnail_key: string | null;
  thumbnail_upload_id: string | null;
}

export async function pageQueue(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  opts: { after?: QueueKey; limit: number },
): Promise<QueueRow[]> {
  let q = db
    .selectFrom('queue_items')
    .innerJoin('posts', 'posts.id', 'queue_items.post_id')
    .select((eb) => [
      'queue_items.id',
      'queue_items.post_id',
      'queue_items.status',
      'queue_items.priority',
      'queue_items.queued_at',
      'queue_items.scheduled_after',
      'posts.caption',
      eb('posts.slides', 'is not', null).as('carousel'),
      'posts.thumbnail_key',
      'posts.thumbnail_upload_id',
    ])
    .where('queue_items.company_id', '=', companyId)
    .where('posts.company_id', '=', companyId)
    .where('queue_items.account_id', '=', accountId)
    .where('queue_items.status', 'in', OPEN_STATUSES);
  if (opts.after) {
    const [rank, priority, queuedAt, id] = opts.after;
    q = q.where((eb) => {
      const later = eb.or([
        eb('queue_items.priority', '<', priority),
        eb.and([
          eb('queue_items.priority', '=', priority),
          eb.or([
            eb('queue_items.queued_at', '>', queuedAt),
            eb.and([eb('queue_items.queued_at', '=', queuedAt), eb('queue_items.id', '>', id)]),
          ]),
        ]),
      ]);
      const posting = eb('queue_items.status', '=', 'posting');
      const waiting = eb('queue_items.status', '!=', 'posting');
      // After a posting item: later posting items, then every waiting one.
      return rank === 0 ? eb.or([eb.and([posting, later]), waiting]) : eb.and([waiting, later]);
    });
  }
  return q
    .orderBy(sql`case when ${sql.ref('queue_items.status')} = 'posting' then 0 else 1 end`)
    .orderBy('queue_items.priority', 'desc')
    .orderBy('queue_items.queued_at')
    .orderBy('queue_items.id')
    .limit(opts.limit)
    .execute();
}

/** The worker operating each account now (accounts without one are left out). */
export async function workersOfAccounts(
  db: DbOrTx,
  accountIds: readonly string[],
): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'worker_id'])
    .where('id', 'in', [...new Set(accountIds)])
    .execute();
  return new Map(rows.flatMap((r) => (r.worker_id ? [[r.id, r.worker_id] as const] : [])));
}

/** The company's item, or undefined. */
export async function findItem(
  db: DbOrTx,
  companyId: string,
  itemId: string,
): Promise<QueueItemsTable | undefined> {
  return db
    .selectFrom('queue_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', itemId)
    .executeTakeFirst();
}

/** The post and account of each of the company's items among `itemIds`. */
export async function itemRefs(
  db: DbOrTx,
  companyId: string,
  itemIds: readonly string[],
): Promise<{ id: string; post_id: string; account_id: string }[]> {
  if (itemIds.length === 0) return [];
  return db
    .selectFrom('queue_items')
    .select(['id', 'post_id', 'account_id'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...itemIds])
    .execute();
}
