// The operator_sessions table: one row per browser signed in to the operator console, keyed
// by the digest of its cookie.
import type {
  DbOrTx,
  OperatorSessionStep,
  OperatorSessionsTable,
  OperatorsTable,
} from '../../db/types.ts';

export async function insertSession(db: DbOrTx, row: OperatorSessionsTable): Promise<void> {
  await db.insertInto('operator_sessions').values(row).execute();
}

export type SessionWithOperator = OperatorSessionsTable &
  Pick<OperatorsTable, 'email' | 'name' | 'disabled_at' | 'totp_enabled_at'>;

/** The session with its operator, in one read. */
export async function findSession(
  db: DbOrTx,
  id: string,
): Promise<SessionWithOperator | undefined> {
  return db
    .selectFrom('operator_sessions')
    .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
    .selectAll('operator_sessions')
    .select([
      'operators.email',
      'operators.name',
      'operators.disabled_at',
      'operators.totp_enabled_at',
    ])
    .where('operator_sessions.id', '=', id)
    .executeTakeFirst();
}

export async function touchSession(db: DbOrTx, id: string, at: string): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ last_seen_at: at })
    .where('id', '=', id)
    .execute();
}

export async function deleteSession(db: DbOrTx, id: string): Promise<void> {
  await db.deleteFrom('operator_sessions').where('id', '=', id).execute();
}

/** Removes the session when it is still at `step`: false when another request moved it on. */
export async function takeSession(
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

export async function deleteSessionsOf(db: DbOrTx, operatorId: string): Promise<void> {
  await db.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).execute();
}

/** Drops sessions past their expiry. */
export async function deleteExpired(db: DbOrTx, now: string): Promise<void> {
  await db.deleteFrom('operator_sessions').where('expires_at', '<=', now).execute();
}
