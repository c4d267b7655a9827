// The sessions table: one row per signed-in browser, keyed by the digest of its cookie.
import type { DbOrTx, SessionsTable, UsersTable } from '../../db/types.ts';

export async function insertSession(db: DbOrTx, row: SessionsTable): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export type SessionWithUser = SessionsTable &
  Pick<UsersTable, 'email' | 'role' | 'disabled_at' | 'timezone'> & { user_company_id: string };

/** The session with its user, in one read. */
export async function findSession(db: DbOrTx, id: string): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .select([
      'users.email',
      'users.role',
      'users.disabled_at',
      'users.timezone',
      'users.company_id as user_company_id',
    ])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
}

export async function touchSession(db: DbOrTx, id: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function deleteSession(db: DbOrTx, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteSessionsOfUser(db: DbOrTx, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Drops sessions past their expiry. */
export async function deleteExpired(db: DbOrTx, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}
