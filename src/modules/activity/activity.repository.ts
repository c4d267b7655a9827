// The activity_log table: who did what to which resource of a company, and when.
import { keysetPage } from '../../db/keyset.ts';
import type { ActivityLogTable, DbOrTx } from '../../db/types.ts';

export async function insertEntry(db: DbOrTx, row: ActivityLogTable): Promise<void> {
  await db.insertInto('activity_log').values(row).execute();
}

/** The company's entries newest first, after the (at, id) of the last one seen. */
export async function pageEntries(
  db: DbOrTx,
  companyId: string,
  opts: { before?: [string, string]; limit: number },
): Promise<ActivityLogTable[]> {
  const q = db.selectFrom('activity_log').selectAll().where('company_id', '=', companyId);
  return keysetPage(
    q,
    { after: opts.before, limit: opts.limit },
    { time: 'at', desc: true },
  ).execute();
}
