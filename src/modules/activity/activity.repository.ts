// The activity_log table: who did what to which resource of a company, and when.
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
  let q = db.selectFrom('activity_log').selectAll().where('company_id', '=', companyId);
  const before = opts.before;
  if (before) {
    q = q.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(before[0], before[1])));
  }
  return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
}
