// The operators table: the service's own staff.
import type { DbOrTx, OperatorsTable } from '../../db/types.ts';

export async function insertOperator(db: DbOrTx, row: OperatorsTable): Promise<void> {
  await db.insertInto('operators').values(row).execute();
}

/** The operator with this (lower-cased) email. */
export async function findByEmail(db: DbOrTx, email: string): Promise<OperatorsTable | undefined> {
  return db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findOperator(db: DbOrTx, id: string): Promise<OperatorsTable | undefined> {
  return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The operator locked for update (its second factor is checked and moved on in one go). */
export async function lockOperator(db: DbOrTx, id: string): Promise<OperatorsTable | undefined> {
  return db.selectFrom('operators').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function listOperators(db: DbOrTx): Promise<OperatorsTable[]> {
  return db.selectFrom('operators').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function updateOperator(
  db: DbOrTx,
  id: string,
  patch: Partial<Omit<OperatorsTable, 'id'>>,
): Promise<boolean> {
  const res = await db.updateTable('operators').set(patch).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Records `step` as the last TOTP step used, only when it is later than the one recorded:
 * false when a request took that step (or a later one) first, so a code works once even
 * when two requests bring it at the same time.
 */
export async function takeTotpStep(db: DbOrTx, id: string, step: number): Promise<boolean> {
  const res = await db
    .updateTable('operators')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
