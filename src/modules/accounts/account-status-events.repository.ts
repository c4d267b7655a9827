import type { AccountStatusEventsTable, DbOrTx } from '../../db/types.ts';

export async function insertStatusEvent(db: DbOrTx, row: AccountStatusEventsTable): Promise<void> {
  await db.insertInto('account_status_events').values(row).execute();
}

/** The seq of the account's latest change (0 before any); callers hold the account's lock. */
export async function lastSeq(db: DbOrTx, companyId: string, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('account_status_events')
    .select('seq')
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.seq) : 0;
}

/** One page of an account's changes, newest first, after the seq of the last row seen. */
export async function pageStatusEvents(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  opts: { before?: number; limit: number },
): Promise<AccountStatusEventsTable[]> {
  let q = db
    .selectFrom('account_status_events')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId);
  if (opts.before !== undefined) q = q.where('seq', '<', opts.before);
  return q.orderBy('seq', 'desc').limit(opts.limit).execute();
}
