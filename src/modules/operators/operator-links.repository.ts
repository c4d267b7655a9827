// The operator_links table: one-time sign-in links of operators, keyed by the digest of
// the link's token.
import type { DbOrTx, OperatorLinksTable } from '../../db/types.ts';

export async function insertLink(db: DbOrTx, row: OperatorLinksTable): Promise<void> {
  await db.insertInto('operator_links').values(row).execute();
}

export async function findLink(db: DbOrTx, id: string): Promise<OperatorLinksTable | undefined> {
  return db.selectFrom('operator_links').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks the link used, once: false when it was used (or expired) already. */
export async function useLink(db: DbOrTx, id: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('operator_links')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Ends every unused link of the operator (a reset or a disable). */
export async function expireLinksOf(db: DbOrTx, operatorId: string, at: string): Promise<void> {
  await db
    .updateTable('operator_links')
    .set({ expires_at: at })
    .where('operator_id', '=', operatorId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .execute();
}
