// The operator_recovery_codes table: each operator's single-use recovery codes, as digests.
import type { DbOrTx, OperatorRecoveryCodesTable } from '../../db/types.ts';

export async function insertCodes(
  db: DbOrTx,
  rows: readonly OperatorRecoveryCodesTable[],
): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('operator_recovery_codes')
      .values([...rows])
      .execute();
}

export async function deleteCodesOf(db: DbOrTx, operatorId: string): Promise<void> {
  await db.deleteFrom('operator_recovery_codes').where('operator_id', '=', operatorId).execute();
}

/** Uses the operator's unused code with this digest: false when there is none. */
export async function useCode(
  db: DbOrTx,
  operatorId: string,
  codeHash: string,
  at: string,
): Promise<boolean> {
  const res = await db
    .updateTable('operator_recovery_codes')
    .set({ used_at: at })
    .where('operator_id', '=', operatorId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** How many unused codes each of these operators has left. */
export async function countUnused(
  db: DbOrTx,
  operatorIds: readonly string[],
): Promise<Map<string, number>> {
  if (operatorIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('operator_recovery_codes')
    .select(['operator_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('operator_id', 'in', operatorIds)
    .where('used_at', 'is', null)
    .groupBy('operator_id')
    .execute();
  return new Map(rows.map((r) => [r.operator_id, Number(r.n)]));
}
