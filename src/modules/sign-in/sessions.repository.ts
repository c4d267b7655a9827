// The session tables of the three audiences (sessions, operator_sessions,
// worker_sessions): one row per signed-in browser, keyed by the digest of its cookie.
// The tables share the columns read and written here and differ in the owner's column
// and what each kind adds (a company, a sign-in step, a token prefix). The builder is
// typed as the company users' table (audiences.rules.ts).
import type { DbOrTx, OperatorSessionStep, SessionsTable } from '../../db/types.ts';
import { sessionTable, ownerColumn, type Audience, type SessionRows } from './audiences.rules.ts';

export async function insertSession<A extends Audience>(
  db: DbOrTx,
  audience: A,
  row: SessionRows[A],
): Promise<void> {
  await db
    .insertInto(sessionTable(audience))
    .values(row as unknown as SessionsTable)
    .execute();
}

export async function findSession<A extends Audience>(
  db: DbOrTx,
  audience: A,
  id: string,
): Promise<SessionRows[A] | undefined> {
  const row = await db
    .selectFrom(sessionTable(audience))
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row as SessionRows[A] | undefined;
}

export async function touchSession(
  db: DbOrTx,
  audience: Audience,
  id: string,
  at: string,
): Promise<void> {
  await db
    .updateTable(sessionTable(audience))
    .set({ last_seen_at: at })
    .where('id', '=', id)
    .execute();
}

export async function deleteSession(db: DbOrTx, audience: Audience, id: string): Promise<void> {
  await db.deleteFrom(sessionTable(audience)).where('id', '=', id).execute();
}

export async function deleteSessionsOf(
  db: DbOrTx,
  audience: Audience,
  ownerId: string,
): Promise<void> {
  await db.deleteFrom(sessionTable(audience)).where(ownerColumn(audience), '=', ownerId).execute();
}

/** Drops sessions past their expiry. */
export async function deleteExpired(db: DbOrTx, audience: Audience, now: string): Promise<void> {
  await db.deleteFrom(sessionTable(audience)).where('expires_at', '<=', now).execute();
}

/** Removes an operator's session when it is still at `step`: false when another request moved it on. */
export async function takeOperatorSession(
  db: DbOrTx,
  id: string,
  step: OperatorSessionStep,
): Promise<boolean> {
  const res = await db
    .deleteFrom('operator_sessions')
    .where('id', '=', id)
    .where('step', '=', step)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
