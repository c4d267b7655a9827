// A worker's tasks as the items module reads them: released items with their post and
// account, the keyset pages and counts of a worker's open ones, and what a worker or an
// account posted (the workers' app and the simulated workers).
import { keysetPage } from '../../db/keyset.ts';
import type { DbOrTx } from '../../db/types.ts';

/** A released item with what its worker needs to post it: the post and the account. */
export async function findTasks(db: DbOrTx, itemIds: readonly string[]) {
  if (itemIds.length === 0) return [];
  return db
    .selectFrom('queue_items')
    .innerJoin('posts', 'posts.id', 'queue_items.post_id')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .select([
      'queue_items.id',
      'queue_items.company_id',
      'queue_items.post_id',
      'queue_items.account_id',
      'queue_items.status',
      'queue_items.released_at',
      'queue_items.claimed_at',
      'queue_items.claimed_by',
      'queue_items.posted_at',
      'queue_items.post_url',
      'queue_items.failure_reason',
      'queue_items.proof_upload_id',
      'accounts.platform',
      'accounts.username',
      'accounts.worker_id',
      'posts.caption',
      'posts.hashtags',
      'posts.sound',
      'posts.platformb_post_format',
      'posts.media_kind',
      'posts.media_upload_ids',
      'posts.media_keys',
      'posts.slides',
      'posts.thumbnail_key',
      'posts.thumbnail_upload_id',
    ])
    .where('queue_items.id', 'in', [...itemIds])
    .where('queue_items.released_at', 'is not', null)
    .orderBy('queue_items.released_at')
    .orderBy('queue_items.id')
    .execute();
}
export type TaskRow = Awaited<ReturnType<typeof findTasks>>[number];

/**
 * Ids of a worker's open (released, unreported) tasks, oldest release first, after the
 * (released_at, id) of the last one seen: the unclaimed tasks of the accounts it operates
 * and the tasks it claimed itself (even of an account since moved to another worker).
 * `claimed` narrows to one of the two.
 */
export async function openTaskIds(
  db: DbOrTx,
  workerId: string,
  opts: { claimed?: boolean; after?: [string, string]; limit: number },
): Promise<string[]> {
  const q = db
    .selectFrom('queue_items')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .select(['queue_items.id'])
    .where('queue_items.status', '=', 'posting')
    .where((eb) => {
      const released = eb.and([
        eb('queue_items.claimed_at', 'is', null),
        eb('accounts.worker_id', '=', workerId),
      ]);
      const claimed = eb('queue_items.claimed_by', '=', workerId);
      if (opts.claimed === undefined) return eb.or([released, claimed]);
      return opts.claimed ? claimed : released;
    });
  const order = { time: 'queue_items.released_at', id: 'queue_items.id' } as const;
  const rows = await keysetPage(q, opts, order).execute();
  return rows.map((r) => r.id);
}

/** How many tasks wait for a claim on the worker's accounts, and how many it claimed. */
export async function openTaskCounts(
  db: DbOrTx,
  workerId: string,
): Promise<{ released: number; claimed: number }> {
  const [released, claimed] = await Promise.all([
    db
      .selectFrom('queue_items')
      .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('queue_items.status', '=', 'posting')
      .where('queue_items.claimed_at', 'is', null)
      .where('accounts.worker_id', '=', workerId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('queue_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('queue_items.status', '=', 'posting')
      .where('queue_items.claimed_by', '=', workerId)
      .executeTakeFirstOrThrow(),
  ]);
  return { released: Number(released.n), claimed: Number(claimed.n) };
}

/**
 * Items the worker claimed and reported posted at or after `postedSince`. `releasedSince`
 * only narrows the (status, released_at) index range; callers pass a bound that keeps all
 * of the items they look for.
 */
export async function postedByWorker(
  db: DbOrTx,
  workerId: string,
  postedSince: string,
  releasedSince: string,
) {
  return db
    .selectFrom('queue_items')
    .select(['id', 'company_id', 'post_id', 'posted_at'])
    .where('status', '=', 'posted')
    .where('released_at', '>=', releasedSince)
    .where('posted_at', '>=', postedSince)
    .where('claimed_by', '=', workerId)
    .orderBy('id')
    .execute();
}

/** How many items of the account were posted, and the `limit` most recent of them. */
export async function postedOfAccount(db: DbOrTx, accountId: string, limit: number) {
  const [count, recent] = await Promise.all([
    db
      .selectFrom('queue_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', accountId)
      .where('status', '=', 'posted')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('queue_items')
      .select(['id', 'posted_at'])
      .where('account_id', '=', accountId)
      .where('status', '=', 'posted')
      .orderBy('posted_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return { count: Number(count.n), recent };
}

/**
 * Items waiting for approval, with what their reminders need: the account (its windows and
 * timezone), the post's caption, and the company's windows and reminder lead time. Oldest
 * first, `limit` at a time after `after` (an item id), so a pass reads them all in pages.
 */
export async function pendingApprovalItems(db: DbOrTx, limit: number, after?: string) {
  let q = db
    .selectFrom('queue_items')
    .innerJoin('posts', 'posts.id', 'queue_items.post_id')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .innerJoin('companies', 'companies.id', 'queue_items.company_id')
    .select([
      'queue_items.id',
      'queue_items.company_id',
      'queue_items.post_id',
      'queue_items.account_id',
      'queue_items.scheduled_after',
      'posts.caption',
      'accounts.username',
      'accounts.platform',
      'accounts.timezone',
      'accounts.schedule_windows',
      'accounts.status as account_status',
      'companies.name as company_name',
      'companies.schedule_windows as company_windows',
      'companies.approval_lead_minutes',
      'companies.suspended_at',
    ])
    .where('queue_items.status', '=', 'pending_approval')
    .orderBy('queue_items.id')
    .limit(limit);
  if (after) q = q.where('queue_items.id', '>', after);
  return q.execute();
}

export type PendingApprovalRow = Awaited<ReturnType<typeof pendingApprovalItems>>[number];

/** An open task as a notice about it needs it: its account, company and worker. */
export interface OpenTaskRow {
  id: string;
  company_id: string;
  company_name: string;
  account_id: string;
  username: string;
  platform: string;
  timezone: string;
  worker_id: string | null;
  claimed_by: string | null;
  released_at: string;
  claimed_at: string | null;
}

/**
 * Open tasks (`posting`) by id after `after`, at most `limit`: with `claimed` false those
 * nobody claimed, released in [`from`, `to`]; with `claimed` true those claimed in that range.
 */
export async function openTasksIn(
  db: DbOrTx,
  opts: { claimed: boolean; from: string; to: string; limit: number; after?: string },
): Promise<OpenTaskRow[]> {
  const column = opts.claimed ? 'queue_items.claimed_at' : 'queue_items.released_at';
  let q = db
    .selectFrom('queue_items')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .innerJoin('companies', 'companies.id', 'queue_items.company_id')
    .select([
      'queue_items.id',
      'queue_items.company_id',
      'companies.name as company_name',
      'queue_items.account_id',
      'accounts.username',
      'accounts.platform',
      'accounts.timezone',
      'accounts.worker_id',
      'queue_items.claimed_by',
      'queue_items.released_at',
      'queue_items.claimed_at',
    ])
    .where('queue_items.status', '=', 'posting')
    .where(column, '>=', opts.from)
    .where(column, '<=', opts.to);
  q = opts.claimed
    ? q.where('queue_items.claimed_at', 'is not', null)
    : q.where('queue_items.claimed_at', 'is', null);
  if (opts.after !== undefined) q = q.where('queue_items.id', '>', opts.after);
  const rows = await q.orderBy('queue_items.id').limit(opts.limit).execute();
  return rows as OpenTaskRow[];
}

/** A company's day in numbers: what was released in a range, and what waits now. */
export interface DayTally {
  released: number;
  posted: number;
  onTime: number;
  failed: number;
  unconfirmed: number;
  /** Now: queued for a window, and waiting for approval. */
  queued: number;
  awaitingApproval: number;
}

/** The tally of the company's items released in [`from`, `to`), and what waits now. */
export async function dayTally(
  db: DbOrTx,
  companyId: string,
  from: string,
  to: string,
  unconfirmedReason: string,
): Promise<DayTally> {
  // Grouped, so a company's busy day costs a few rows, not one per item.
  const groups = await db
    .selectFrom('queue_items')
    .select([
      'status',
      'on_time',
      'failure_reason',
      (eb) => eb.fn.countAll<number | string>().as('n'),
    ])
    .where('company_id', '=', companyId)
    .where('released_at', '>=', from)
    .where('released_at', '<', to)
    .groupBy(['status', 'on_time', 'failure_reason'])
    .execute();
  const sum = (keep: (g: (typeof groups)[number]) => boolean) =>
    groups.filter(keep).reduce((n, g) => n + Number(g.n), 0);
  const waiting = await db
    .selectFrom('queue_items')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('company_id', '=', companyId)
    .where('status', 'in', ['queued', 'pending_approval'])
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(waiting.find((w) => w.status === status)?.n ?? 0);
  return {
    released: sum(() => true),
    posted: sum((g) => g.status === 'posted'),
    onTime: sum((g) => g.status === 'posted' && Number(g.on_time) === 1),
    failed: sum((g) => g.status === 'failed' && g.failure_reason !== unconfirmedReason),
    unconfirmed: sum((g) => g.status === 'failed' && g.failure_reason === unconfirmedReason),
    queued: count('queued'),
    awaitingApproval: count('pending_approval'),
  };
}
