// The operator_log table: what operators did, newest first.
import { keysetPage } from '../../db/keyset.ts';
import type { DbOrTx, OperatorLogTable } from '../../db/types.ts';

export async function insertEntry(db: DbOrTx, row: OperatorLogTable): Promise<void> {
  await db.insertInto('operator_log').values(row).execute();
}

/**
 * Entries newest first, after the (created_at, id) of the last one seen; with a company,
 * only those that touched it.
 */
export async function pageEntries(
  db: DbOrTx,
  opts: { before?: [string, string]; limit: number; companyId?: string },
): Promise<OperatorLogTable[]> {
  let q = db.selectFrom('operator_log').selectAll();
  if (opts.companyId !== undefined) q = q.where('company_id', '=', opts.companyId);
  return keysetPage(q, { after: opts.before, limit: opts.limit }, { desc: true }).execute();
}
