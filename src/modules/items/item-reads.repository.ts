// The reads of queue_items: the items of posts for their view, an account's queue in
// release order and the input of its slot planner, what the dispatcher may release, a
// worker's tasks, and what simulated workers posted.
import { sql, type Compilable, type SqlBool } from 'kysely';
import { bind, param, params, perLength, prepared, slot } from '../../db/prepared.ts';
import type { Db, DbOrTx, QueueItemsTable } from '../../db/types.ts';

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

/** Items of the account released in [from, to), whatever became of them since. */
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
  let q = db
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
  const after = opts.after;
  if (after) {
    q = q.where((eb) =>
      eb(
        eb.refTuple('queue_items.released_at', 'queue_items.id'),
        '>',
        eb.tuple(after[0], after[1]),
      ),
    );
  }
  const rows = await q
    .orderBy('queue_items.released_at')
    .orderBy('queue_items.id')
    .limit(opts.limit)
    .execute();
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
 * Queue activity of accounts in one query: per account, one row with `released_at` null
 * carrying the count of `queued` items, and one row per release instant at or after `since`
 * (`n` items released at it). Callers map releases onto each account's local day, which SQL
 * cannot do across timezones.
 */
export interface QueueActivityRow {
  account_id: string;
  released_at: string | null;
  queued: number | string;
  n: number | string;
}

/**
 * Two grouped branches, so each can use its own index: queued items by (status, account) and
 * releases by (company, account, released_at). Scanning an account's whole history, as one
 * query with an OR would, grows with every item it ever posted. Compiled once per number of
 * accounts, as a page of the account list asks for the same few sizes again and again.
 */
const activityQuery = perLength((n) =>
  prepared((db: Db) => {
    const accounts = params('account', n);
    const queued = db
      .selectFrom('queue_items')
      .select((eb) => [
        'account_id',
        sql<string | null>`null`.as('released_at'),
        eb.fn.countAll<number | string>().as('queued'),
        sql<number | string>`0`.as('n'),
      ])
      .where('company_id', '=', param('company'))
      .where('account_id', 'in', accounts)
      .where('status', '=', 'queued')
      .groupBy('account_id');
    const released = db
      .selectFrom('queue_items')
      .select((eb) => [
        'account_id',
        'released_at',
        sql<number | string>`0`.as('queued'),
        eb.fn.countAll<number | string>().as('n'),
      ])
      .where('company_id', '=', param('company'))
      .where('account_id', 'in', accounts)
      .where('released_at', '>=', param('since'))
      .groupBy(['account_id', 'released_at']);
    return queued.unionAll(released);
  }),
);

/** Queue activity of the company's given accounts (at most a thousand ids per call). */
export async function queueActivity(
  db: DbOrTx,
  companyId: string,
  accountIds: readonly string[],
  since: string,
): Promise<QueueActivityRow[]> {
  if (accountIds.length === 0) return [];
  return activityQuery(accountIds.length)(
    db,
    bind('account', accountIds, { company: companyId, since }),
  );
}

/**
 * An account's queued items as the calendar plans them: their planning fields, each item
 * "<id> <priority> <queued_at> <approved_at> <scheduled_after>" (an absent time empty), joined
 * by commas. One text per account reads in a fraction of the time of five values per item,
 * and the calendar compares it whole with the one it planned from before, splitting it only
 * when it changed. The items come in no set order: the planner orders them itself, and
 * another order than the last read's only plans the account again.
 */
export interface CalendarOpenRow {
  account_id: string;
  items: string;
}

/** A released item as the calendar lists it. */
export interface CalendarReleasedRow {
  id: string;
  account_id: string;
  status: string;
  released_at: string;
}

/** A release counted toward its account's day: when, and when the item was ready. */
export interface CalendarTodayRow {
  account_id: string;
  released_at: string;
  /** Its approval, or its queueing for an item that needed none. */
  ready_at: string;
}

/** What the calendar shows of an item it lists: its post's caption and thumbnail, the outcome. */
export interface CalendarDetailRow {
  id: string;
  post_id: string;
  priority: number;
  post_url: string | null;
  failure_reason: string | null;
  caption: string | null;
  media_kind: string;
  carousel: SqlBool;
  thumbnail_key: string | null;
  thumbnail_upload_id: string | null;
}

const RELEASED = ['posting', 'posted', 'failed'];

// The calendar's reads run on every page after a write (the calendar keeps their results
// only while the data is unchanged), a month's days one query each: compiled once, and read
// from the indexes of migration 0021 alone. Each comes for the whole company and for one
// account.
function eitherScope<R>(build: (db: Db, one: boolean) => Compilable<R>) {
  const all = prepared<R>((db) => build(db, false));
  const one = prepared<R>((db) => build(db, true));
  return (accountId: string | undefined) => (accountId === undefined ? all : one);
}

// string_agg is the same in PostgreSQL and SQLite (3.44 and later).
const queuedQuery = eitherScope<CalendarOpenRow>((db, one) => {
  const ref = sql.ref;
  const item = sql`${ref('id')} || ' ' || cast(${ref('priority')} as text) || ' ' || ${ref('queued_at')} || ' ' || coalesce(${ref('approved_at')}, '') || ' ' || coalesce(${ref('scheduled_after')}, '')`;
  let q = db
    .selectFrom('queue_items')
    .select(['account_id', sql<string>`string_agg(${item}, ',')`.as('items')])
    .where('company_id', '=', param('company'))
    .where('status', '=', 'queued');
  if (one) q = q.where('account_id', '=', param('account'));
  return q.groupBy('account_id');
});

/** The queued items of the company (or of one account): what the calendar plans, by account. */
export async function calendarQueued(
  db: DbOrTx,
  companyId: string,
  accountId?: string,
): Promise<CalendarOpenRow[]> {
  return queuedQuery(accountId)(db, { company: companyId, account: accountId });
}

// Grouped by status first: in the order of the index by (company, status, account), read
// alone. Grouped by account only, SQLite would rather walk every item of the company in the
// order of an index by account.
const waitingQuery = eitherScope<{ account_id: string; n: number | string }>((db, one) => {
  let q = db
    .selectFrom('queue_items')
    .select(['account_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('company_id', '=', param('company'))
    .where('status', 'in', ['processing', 'pending_approval']);
  if (one) q = q.where('account_id', '=', param('account'));
  return q.groupBy(['status', 'account_id']);
});

/** Per account, how many items wait for approval or for their media (not planned yet). */
export async function calendarWaiting(
  db: DbOrTx,
  companyId: string,
  accountId?: string,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const r of await waitingQuery(accountId)(db, { company: companyId, account: accountId })) {
    counts.set(r.account_id, (counts.get(r.account_id) ?? 0) + Number(r.n));
  }
  return counts;
}

const todayQuery = eitherScope<CalendarTodayRow>((db, one) => {
  let q = db
    .selectFrom('queue_items')
    .select([
      'account_id',
      'released_at',
      sql<string>`coalesce(${sql.ref('approved_at')}, ${sql.ref('queued_at')})`.as('ready_at'),
    ])
    .where('company_id', '=', param('company'))
    .where('status', 'in', RELEASED)
    .where('released_at', '>=', param('from'))
    .where('released_at', '<', param('to'));
  if (one) q = q.where('account_id', '=', param('account'));
  return q.orderBy('released_at').orderBy('id');
});

/**
 * The company's (or one account's) items released in [from, to), in release order (then id):
 * what the planner counts toward each account's day.
 */
export async function calendarReleasedToday(
  db: DbOrTx,
  companyId: string,
  from: string,
  to: string,
  accountId?: string,
): Promise<CalendarTodayRow[]> {
  return todayQuery(accountId)(db, {
    company: companyId,
    from,
    to,
    account: accountId,
  });
}

const countQuery = eitherScope<{ status: string; n: number | string }>((db, one) => {
  let q = db
    .selectFrom('queue_items')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('company_id', '=', param('company'))
    .where('status', 'in', RELEASED)
    .where('released_at', '>=', param('from'))
    .where('released_at', '<', param('to'));
  if (one) q = q.where('account_id', '=', param('account'));
  return q.groupBy('status');
});

/** How many of the company's (or one account's) items were released in [from, to), per status. */
export async function calendarReleasedCounts(
  db: DbOrTx,
  companyId: string,
  from: string,
  to: string,
  accountId?: string,
): Promise<{ status: string; n: number }[]> {
  const rows = await countQuery(accountId)(db, {
    company: companyId,
    from,
    to,
    account: accountId,
  });
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

const releasedQuery = (limited: boolean) =>
  eitherScope<CalendarReleasedRow>((db, one) => {
    let q = db
      .selectFrom('queue_items')
      .select(['id', 'account_id', 'status', 'released_at'])
      .where('company_id', '=', param('company'))
      .where('status', 'in', RELEASED)
      .where('released_at', '>=', param('from'))
      .where('released_at', '<', param('to'));
    if (one) q = q.where('account_id', '=', param('account'));
    q = q.orderBy('released_at').orderBy('id');
    return limited ? q.limit(slot<number>('limit')) : q;
  });
const releasedAll = releasedQuery(false);
const releasedFirst = releasedQuery(true);

/**
 * The company's (or one account's) items released in [from, to), in release order (then
 * id); with `limit`, only the first that many: a busy day's first few without the rest.
 */
export async function calendarReleased(
  db: DbOrTx,
  companyId: string,
  from: string,
  to: string,
  accountId?: string,
  limit?: number,
): Promise<CalendarReleasedRow[]> {
  const values = { company: companyId, from, to, account: accountId, limit };
  return (limit === undefined ? releasedAll : releasedFirst)(accountId)(db, values);
}

/** The company's items of these ids with what the calendar shows of them. */
export async function calendarDetails(
  db: DbOrTx,
  companyId: string,
  itemIds: readonly string[],
): Promise<CalendarDetailRow[]> {
  if (itemIds.length === 0) return [];
  // The company is checked on each row found by id, never used to find rows: with an index
  // on it, SQLite would rather walk every item and post of the company than a few ids.
  const checked = (ref: string) => sql<string>`${sql.ref(ref)} || ''`;
  return db
    .selectFrom('queue_items')
    .innerJoin('posts', 'posts.id', 'queue_items.post_id')
    .select((eb) => [
      'queue_items.id',
      'queue_items.post_id',
      'queue_items.priority',
      'queue_items.post_url',
      'queue_items.failure_reason',
      'posts.caption',
      'posts.media_kind',
      eb('posts.slides', 'is not', null).as('carousel'),
      'posts.thumbnail_key',
      'posts.thumbnail_upload_id',
    ])
    .where(checked('queue_items.company_id'), '=', companyId)
    .where(checked('posts.company_id'), '=', companyId)
    .where('queue_items.id', 'in', [...itemIds])
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
export interface DeliveryRow {
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
export async function deliveryRows(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<DeliveryRow[]> {
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
