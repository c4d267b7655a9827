import type { DbOrTx, WorkersTable } from '../../db/types.ts';

export type WorkerRow = WorkersTable;

export async function insertWorker(db: DbOrTx, row: WorkersTable): Promise<void> {
  await db.insertInto('workers').values(row).execute();
}

export async function findWorker(db: DbOrTx, id: string): Promise<WorkersTable | undefined> {
  return db.selectFrom('workers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findWorkerByPrefix(
  db: DbOrTx,
  prefix: string,
): Promise<WorkersTable | undefined> {
  return db.selectFrom('workers').selectAll().where('token_prefix', '=', prefix).executeTakeFirst();
}

export async function listWorkers(
  db: DbOrTx,
): Promise<(WorkersTable & { accounts: number | string })[]> {
  return db
    .selectFrom('workers')
    .selectAll('workers')
    .select((eb) =>
      eb
        .selectFrom('accounts')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('accounts.worker_id', '=', 'workers.id')
        .as('accounts'),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute() as Promise<(WorkersTable & { accounts: number | string })[]>;
}

export async function updateWorker(
  db: DbOrTx,
  id: string,
  set: Partial<Omit<WorkersTable, 'id'>>,
): Promise<void> {
  await db.updateTable('workers').set(set).where('id', '=', id).execute();
}

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
    .select(['id', 'company_id', 'worker_id'])
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

export async function touchWorker(db: DbOrTx, workerId: string, at: string): Promise<void> {
  await db.updateTable('workers').set({ last_seen_at: at }).where('id', '=', workerId).execute();
}

/** Simulated workers that are not revoked, by id. */
export async function simulatedWorkers(db: DbOrTx) {
  return db
    .selectFrom('workers')
    .select(['id', 'name', 'timezone'])
    .where('simulated', '=', 1)
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute();
}
