import type { AccountStatusEventsTable, DbOrTx } from '../../db/types.ts';

export async function insertStatusEvent(db: DbOrTx, row: AccountStatusEventsTable): Promise<void> {
  await db.insertInto('account_status_events').values(row).execute();
}

/**
 * One page of an account's changes, newest first, after the (at, id) of the last row seen.
 * Ids are made from the real time of the write, so changes at one instant keep their order.
 */
export async function pageStatusEvents(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  opts: { after?: [string, string]; limit: number },
): Promise<AccountStatusEventsTable[]> {
  let q = db
    .selectFrom('account_status_events')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId);
  if (opts.after) {
    const [at, id] = opts.after;
    q = q.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
  }
  return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
}
