import type { SelectQueryBuilder } from 'kysely';
import type { AccountsTable, Database, Db, DbOrTx } from '../../db/types.ts';
import { bind, param, params, perLength, prepared } from '../../db/prepared.ts';
import { keysetPage, keysetParams, keysetValues } from '../../db/keyset.ts';

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

/** How many accounts each of these companies has (companies without any are left out). */
export async function countAccountsOf(
  db: DbOrTx,
  companyIds: readonly string[],
): Promise<Map<string, number>> {
  if (companyIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('accounts')
    .select(['company_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('company_id', 'in', companyIds)
    .groupBy('company_id')
    .execute();
  return new Map(rows.map((r) => [r.company_id, Number(r.n)]));
}

export async function insertAccount(db: DbOrTx, row: AccountsTable): Promise<void> {
  await db.insertInto('accounts').values(row).execute();
}

/** The page conditions, in creation order; shared by the page and its queue activity. */
function pageOf<O>(
  q: SelectQueryBuilder<Database, 'accounts', O>,
  withPlatform: boolean,
  withAfter: boolean,
): SelectQueryBuilder<Database, 'accounts', O> {
  q = q.where('company_id', '=', param('company'));
  if (withPlatform) q = q.where('platform', '=', param('platform'));
  return keysetPage(q, keysetParams(withAfter));
}

function pageQuery(withPlatform: boolean, withAfter: boolean) {
  return prepared((db: Db) =>
    pageOf(db.selectFrom('accounts').selectAll(), withPlatform, withAfter),
  );
}
const PAGE_QUERIES = [
  pageQuery(false, false),
  pageQuery(false, true),
  pageQuery(true, false),
  pageQuery(true, true),
] as const;

export interface PageOptions {
  platform?: string;
  /** The (created_at, id) of the last row seen. */
  after?: [string, string];
  limit: number;
}

function pageValues(companyId: string, opts: PageOptions) {
  return { company: companyId, platform: opts.platform, ...keysetValues(opts) };
}

/** One page in creation order. */
export async function pageAccounts(
  db: DbOrTx,
  companyId: string,
  opts: PageOptions,
): Promise<AccountsTable[]> {
  const query = PAGE_QUERIES[
    (opts.platform ? 2 : 0) + (opts.after ? 1 : 0)
  ] as (typeof PAGE_QUERIES)[0];
  return query(db, pageValues(companyId, opts));
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

/** The account, locked against concurrent status changes until the transaction ends. */
export async function findAccountForUpdate(
  tx: DbOrTx,
  companyId: string,
  accountId: string,
): Promise<AccountsTable | undefined> {
  return tx
    .selectFrom('accounts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
}

export type LifecycleFields = Pick<
  AccountsTable,
  'status' | 'worker_status' | 'worker_reason' | 'reported_at' | 'paused_at' | 'status_since'
>;

export async function setLifecycle(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  fields: LifecycleFields,
  at: string,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ ...fields, updated_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .execute();
}

/**
 * The accounts among `ids` in one of `statuses`, with what the dispatcher plans by: the
 * worker's timezone, the account's schedule and its company's.
 */
export async function releaseTargets(
  db: DbOrTx,
  ids: readonly string[],
  statuses: readonly string[],
) {
  return db
    .selectFrom('accounts')
    .innerJoin('companies', 'companies.id', 'accounts.company_id')
    .select([
      'accounts.id',
      'accounts.timezone',
      'accounts.schedule_windows',
      'accounts.company_id',
      'companies.schedule_windows as company_schedule',
    ])
    .where('accounts.id', 'in', [...ids])
    .where('accounts.status', 'in', [...statuses])
    .execute();
}

/** The accounts among `ids` still in one of `statuses`, held FOR SHARE. */
export async function holdInStatus(
  tx: DbOrTx,
  ids: readonly string[],
  statuses: readonly string[],
): Promise<string[]> {
  const q = tx
    .selectFrom('accounts')
    .select('id')
    .where('id', 'in', [...ids])
    .where('status', 'in', [...statuses])
    .forShare();
  return (await q.execute()).map((r) => r.id);
}

export interface TargetAccount {
  id: string;
  platform: string;
  username: string;
}

const targetsQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('accounts')
      .select(['id', 'platform', 'username'])
      .where('company_id', '=', param('company'))
      .where('id', 'in', params('id', n)),
  ),
);

/** The company's accounts among `ids` (distinct): the targets of a post. */
export function findTargets(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<TargetAccount[]> {
  // `in ()` is no SQL: an empty list (a dry run of an empty body) names nothing.
  if (ids.length === 0) return Promise.resolve([]);
  return targetsQuery(ids.length)(db, bind('id', ids, { company: companyId }));
}

/** lastPostAt of an account moves forward only. */
export async function notePosted(
  db: DbOrTx,
  accountId: string,
  postedAt: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ last_post_at: postedAt, updated_at: at })
    .where('id', '=', accountId)
    .where((eb) => eb.or([eb('last_post_at', 'is', null), eb('last_post_at', '<', postedAt)]))
    .execute();
}

export async function setFollowers(
  db: DbOrTx,
  accountId: string,
  followers: number,
  at: string,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ followers, updated_at: at })
    .where('id', '=', accountId)
    .execute();
}

// ---- Accounts and the workers that operate them (DECISIONS 6) ----

/** The accounts a worker operates, with what a worker needs to post to them. */
export async function accountsOfWorker(db: DbOrTx, workerId: string) {
  return db
    .selectFrom('accounts')
    .select([
      'id',
      'company_id',
      'platform',
      'username',
      'timezone',
      'status',
      'status_since',
      'worker_status',
      'reported_at',
      'warmup_search_terms',
    ])
    .where('worker_id', '=', workerId)
    .orderBy('id')
    .execute();
}

export async function findAccountsByIds(db: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('accounts')
    .select(['id', 'company_id', 'worker_id', 'username', 'platform', 'timezone'])
    .where('id', 'in', [...ids])
    .execute();
}

export async function assignAccounts(
  db: DbOrTx,
  ids: readonly string[],
  worker: { id: string; timezone: string } | null,
  at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('accounts')
    .set(
      worker
        ? { worker_id: worker.id, timezone: worker.timezone, updated_at: at }
        : { worker_id: null, updated_at: at },
    )
    .where('id', 'in', [...ids])
    .execute();
}

/** Keeps the accounts' timezone equal to their worker's (DECISIONS 5). */
export async function setTimezoneOfWorkerAccounts(
  db: DbOrTx,
  workerId: string,
  timezone: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ timezone, updated_at: at })
    .where('worker_id', '=', workerId)
    .execute();
}

/** An account the worker operates, or undefined. */
export async function findWorkerAccount(db: DbOrTx, workerId: string, accountId: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'company_id', 'created_at'])
    .where('id', '=', accountId)
    .where('worker_id', '=', workerId)
    .executeTakeFirst();
}
