// The counts of queued and released items that the account list and the calendar show:
// each account's queue activity, and the calendar's queued, waiting and released items,
// compiled once (prepared.ts) as every page after a write reads them again.
import { sql, type Compilable, type SqlBool } from 'kysely';
import { bind, param, params, perLength, prepared, slot } from '../../db/prepared.ts';
import type { Db, DbOrTx } from '../../db/types.ts';

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
