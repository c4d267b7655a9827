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

export async function deleteWorker(db: DbOrTx, id: string): Promise<void> {
  await db.deleteFrom('workers').where('id', '=', id).execute();
}

export async function touchWorker(db: DbOrTx, workerId: string, at: string): Promise<void> {
  await db.updateTable('workers').set({ last_seen_at: at }).where('id', '=', workerId).execute();
}

/**
 * Notes the worker as seen at `at` unless it was seen at `since` or later: of requests
 * racing on several replicas, one writes.
 */
export async function touchWorkerSince(
  db: DbOrTx,
  workerId: string,
  at: string,
  since: string,
): Promise<void> {
  await db
    .updateTable('workers')
    .set({ last_seen_at: at })
    .where('id', '=', workerId)
    .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', since)]))
    .execute();
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

/** The names of these workers, in one read (the outbox pages' push rows). */
export async function namesOf(
  db: DbOrTx,
  ids: readonly string[],
): Promise<{ id: string; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('workers')
    .select(['id', 'name'])
    .where('id', 'in', [...ids])
    .execute();
}
