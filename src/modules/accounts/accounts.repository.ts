import { sql } from 'kysely';
import type { AccountsTable, Db, DbOrTx } from '../../db/types.ts';
import { param, prepared } from '../../db/prepared.ts';

export async function findAccount(
  db: DbOrTx,
  companyId: string,
  accountId: string,
): Promise<AccountsTable | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .executeTakeFirst();
}

export async function findByUsername(
  db: DbOrTx,
  companyId: string,
  platform: string,
  usernameKey: string,
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('accounts')
    .select('id')
    .where('company_id', '=', companyId)
    .where('platform', '=', platform)
    .where('username_key', '=', usernameKey)
    .executeTakeFirst();
}

export async function countAccounts(db: DbOrTx, companyId: string): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertAccount(db: DbOrTx, row: AccountsTable): Promise<void> {
  await db.insertInto('accounts').values(row).execute();
}

function pageQuery(withPlatform: boolean, withAfter: boolean) {
  return prepared((db: Db) => {
    let q = db.selectFrom('accounts').selectAll().where('company_id', '=', param('company'));
    if (withPlatform) q = q.where('platform', '=', param('platform'));
    if (withAfter) {
      q = q.where((eb) =>
        eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(param('afterAt'), param('afterId'))),
      );
    }
    return q
      .orderBy('created_at')
      .orderBy('id')
      .limit(sql<number>`${param('limit')}`);
  });
}
const PAGE_QUERIES = [
  pageQuery(false, false),
  pageQuery(false, true),
  pageQuery(true, false),
  pageQuery(true, true),
] as const;

/** One page in creation order; `after` is the (created_at, id) of the last row seen. */
export async function pageAccounts(
  db: DbOrTx,
  companyId: string,
  opts: { platform?: string; after?: [string, string]; limit: number },
): Promise<AccountsTable[]> {
  const query = PAGE_QUERIES[
    (opts.platform ? 2 : 0) + (opts.after ? 1 : 0)
  ] as (typeof PAGE_QUERIES)[0];
  return query(db, {
    company: companyId,
    platform: opts.platform,
    afterAt: opts.after?.[0],
    afterId: opts.after?.[1],
    limit: opts.limit,
  });
}

export async function listAllAccounts(db: DbOrTx, companyId: string): Promise<AccountsTable[]> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function setScheduleWindows(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  windows: string | null,
  at: string,
): Promise<boolean> {
  const res = await db
    .updateTable('accounts')
    .set({ schedule_windows: windows, updated_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Queue activity of some accounts in one grouped query: per account, one row with
 * `released_at` null carrying the count of `queued` items, and one row per release instant
 * at or after `since` (`n` items released at it). Callers map releases onto each account's
 * local day, which SQL cannot do across timezones.
 */
export interface QueueActivityRow {
  account_id: string;
  released_at: string | null;
  queued: number | string;
  n: number | string;
}

export async function queueActivity(
  db: DbOrTx,
  companyId: string,
  accountIds: readonly string[],
  since: string,
): Promise<QueueActivityRow[]> {
  if (accountIds.length === 0) return [];
  return db
    .selectFrom('queue_items')
    .select((eb) => [
      'account_id',
      'released_at',
      eb.fn
        .sum<number | string>(eb.case().when('status', '=', 'queued').then(1).else(0).end())
        .as('queued'),
      eb.fn.countAll<number | string>().as('n'),
    ])
    .where('company_id', '=', companyId)
    .where('account_id', 'in', accountIds)
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb('released_at', '>=', since)]))
    .groupBy(['account_id', 'released_at'])
    .execute();
}
