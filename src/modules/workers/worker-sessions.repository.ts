// The worker_sessions table: one row per worker signed in on the workers' page, keyed by
// the digest of its cookie.
import type {
  DbOrTx,
  WorkerSessionsTable,
  WorkerSignInLinksTable,
  WorkersTable,
} from '../../db/types.ts';

export async function insertSession(db: DbOrTx, row: WorkerSessionsTable): Promise<void> {
  await db.insertInto('worker_sessions').values(row).execute();
}

export type SessionWithWorker = WorkerSessionsTable &
  Pick<WorkersTable, 'name' | 'timezone' | 'revoked_at'> & {
    current_prefix: string;
    worker_seen_at: string | null;
  };

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
      'workers.last_seen_at as worker_seen_at',
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

export async function insertLink(db: DbOrTx, row: WorkerSignInLinksTable): Promise<void> {
  await db.insertInto('worker_sign_in_links').values(row).execute();
}

/**
 * Marks the link used if it is unused, unexpired and still of the worker's current token;
 * returns its worker when it was (a link is used once, whoever races for it).
 */
export async function useLink(
  db: DbOrTx,
  id: string,
  at: string,
): Promise<{ worker_id: string; token_prefix: string } | undefined> {
  return db
    .updateTable('worker_sign_in_links')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('workers')
          .select('workers.id')
          .whereRef('workers.id', '=', 'worker_sign_in_links.worker_id')
          .whereRef('workers.token_prefix', '=', 'worker_sign_in_links.token_prefix')
          .where('workers.revoked_at', 'is', null),
      ),
    )
    .returning(['worker_id', 'token_prefix'])
    .executeTakeFirst();
}

/**
 * The worker a link would sign in now (unused, unexpired, of the worker's current token and
 * the worker not revoked), or undefined; reads only, so showing the link's page uses nothing.
 */
export async function findUsableLink(
  db: DbOrTx,
  id: string,
  at: string,
): Promise<{ worker_id: string; name: string } | undefined> {
  return db
    .selectFrom('worker_sign_in_links')
    .innerJoin('workers', 'workers.id', 'worker_sign_in_links.worker_id')
    .select(['worker_sign_in_links.worker_id', 'workers.name'])
    .where('worker_sign_in_links.id', '=', id)
    .where('worker_sign_in_links.used_at', 'is', null)
    .where('worker_sign_in_links.expires_at', '>', at)
    .whereRef('workers.token_prefix', '=', 'worker_sign_in_links.token_prefix')
    .where('workers.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Drops links used or past their expiry. */
export async function deleteSpentLinks(db: DbOrTx, at: string): Promise<void> {
  await db
    .deleteFrom('worker_sign_in_links')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', at)]))
    .execute();
}
