// Reads of the accounts table across companies, for the operator console: accounts by id,
// of a company or of a worker, those waiting to be set up, and those whose worker lost
// access. Each read is bounded (a limit, or one company's or worker's accounts).
import type { AccountsTable, DbOrTx } from '../../db/types.ts';

export type OverviewRow = Pick<
  AccountsTable,
  | 'id'
  | 'company_id'
  | 'platform'
  | 'username'
  | 'display_name'
  | 'status'
  | 'status_since'
  | 'worker_reason'
  | 'worker_id'
  | 'timezone'
  | 'created_at'
>;

export type SetupRow = OverviewRow &
  Pick<AccountsTable, 'bio' | 'profile_picture_url' | 'bio_url' | 'warmup_search_terms'>;

const OVERVIEW_COLUMNS = [
  'id',
  'company_id',
  'platform',
  'username',
  'display_name',
  'status',
  'status_since',
  'worker_reason',
  'worker_id',
  'timezone',
  'created_at',
] as const;

export async function overviewByIds(db: DbOrTx, ids: readonly string[]): Promise<OverviewRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('accounts')
    .select(OVERVIEW_COLUMNS)
    .where('id', 'in', [...ids])
    .orderBy('username')
    .orderBy('id')
    .execute();
}

/** Every account of the company, by username. */
export async function overviewOfCompany(db: DbOrTx, companyId: string): Promise<OverviewRow[]> {
  return db
    .selectFrom('accounts')
    .select(OVERVIEW_COLUMNS)
    .where('company_id', '=', companyId)
    .orderBy('username')
    .orderBy('id')
    .execute();
}

/** Every account the worker operates, by company and username. */
export async function overviewOfWorker(db: DbOrTx, workerId: string): Promise<OverviewRow[]> {
  return db
    .selectFrom('accounts')
    .select(OVERVIEW_COLUMNS)
    .where('worker_id', '=', workerId)
    .orderBy('company_id')
    .orderBy('username')
    .orderBy('id')
    .execute();
}

type Filter = { companyId?: string; workerId?: string };

function inStatus(db: DbOrTx, status: string, filter: Filter) {
  let q = db.selectFrom('accounts').where('status', '=', status);
  if (filter.companyId !== undefined) q = q.where('company_id', '=', filter.companyId);
  if (filter.workerId !== undefined) q = q.where('worker_id', '=', filter.workerId);
  return q;
}

async function countIn(db: DbOrTx, status: string, filter: Filter): Promise<number> {
  const row = await inStatus(db, status, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Accounts waiting to be set up, oldest first, and how many there are. */
export async function pendingSetup(
  db: DbOrTx,
  status: string,
  limit: number,
): Promise<{ count: number; rows: SetupRow[] }> {
  const [rows, count] = await Promise.all([
    inStatus(db, status, {})
      .select([...OVERVIEW_COLUMNS, 'bio', 'profile_picture_url', 'bio_url', 'warmup_search_terms'])
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute(),
    countIn(db, status, {}),
  ]);
  return { count, rows };
}

/** Accounts in `status`, longest in it first, of a company and/or a worker. */
export async function inStatusSince(
  db: DbOrTx,
  status: string,
  filter: Filter,
  limit: number,
): Promise<{ count: number; rows: OverviewRow[] }> {
  const [rows, count] = await Promise.all([
    inStatus(db, status, filter)
      .select(OVERVIEW_COLUMNS)
      .orderBy('status_since')
      .orderBy('id')
      .limit(limit)
      .execute(),
    countIn(db, status, filter),
  ]);
  return { count, rows };
}
