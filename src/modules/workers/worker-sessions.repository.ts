// The worker_sessions table: one row per worker signed in on the workers' page, keyed by
// the digest of its cookie.
import type { DbOrTx, WorkerSessionsTable, WorkersTable } from '../../db/types.ts';

export async function insertSession(db: DbOrTx, row: WorkerSessionsTable): Promise<void> {
  await db.insertInto('worker_sessions').values(row).execute();
}

export type SessionWithWorker = WorkerSessionsTable &
  Pick<WorkersTable, 'name' | 'timezone' | 'revoked_at'> & { current_prefix: string };

/** The session with its worker, in one read. */
export async function findSession(db: DbOrTx, id: string): Promise<SessionWithWorker | undefined> {
  return db
    .selectFrom('worker_sessions')
    .innerJoin('workers', 'workers.id', 'worker_sessions.worker_id')
    .selectAll('worker_sessions')
    .select([
      'workers.name',
      'workers.timezone',
      'workers.revoked_at',
      'workers.token_prefix as current_prefix',
    ])
    .where('worker_sessions.id', '=', id)
    .executeTakeFirst();
}

export async function touchSession(db: DbOrTx, id: string, at: string): Promise<void> {
  await db.updateTable('worker_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function deleteSession(db: DbOrTx, id: string): Promise<void> {
  await db.deleteFrom('worker_sessions').where('id', '=', id).execute();
}

export async function deleteSessionsOfWorker(db: DbOrTx, workerId: string): Promise<void> {
  await db.deleteFrom('worker_sessions').where('worker_id', '=', workerId).execute();
}

/** Drops sessions past their expiry. */
export async function deleteExpired(db: DbOrTx, now: string): Promise<void> {
  await db.deleteFrom('worker_sessions').where('expires_at', '<=', now).execute();
}
