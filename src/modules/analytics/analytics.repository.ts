import type { AccountStatsTable, DbOrTx, PostAnalyticsTable } from '../../db/types.ts';

/** The newest snapshot of each queue item (one per account) of the post. */
export async function latestSnapshots(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<PostAnalyticsTable[]> {
  const ranked = db
    .selectFrom('post_analytics')
    .selectAll()
    .select((eb) =>
      eb.fn
        .agg<number>('row_number')
        .over((ob) =>
          ob.partitionBy('queue_item_id').orderBy('collected_at', 'desc').orderBy('id', 'desc'),
        )
        .as('rn'),
    )
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId);
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .selectAll()
    .where('rn', '=', 1)
    .orderBy('queue_item_id')
    .execute();
  return rows.map(({ rn: _rn, ...row }) => row);
}

/** One page of snapshots newest first; `before` is the (collected_at, id) of the last one seen. */
export async function pageSnapshots(
  db: DbOrTx,
  companyId: string,
  postId: string,
  opts: { before?: [string, string]; limit: number },
): Promise<PostAnalyticsTable[]> {
  let q = db
    .selectFrom('post_analytics')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId);
  const before = opts.before;
  if (before) {
    q = q.where((eb) => eb(eb.refTuple('collected_at', 'id'), '<', eb.tuple(before[0], before[1])));
  }
  return q.orderBy('collected_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
}

export async function findAccountStats(
  db: DbOrTx,
  companyId: string,
  accountId: string,
): Promise<AccountStatsTable | undefined> {
  return db
    .selectFrom('account_stats')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function insertSnapshot(db: DbOrTx, row: PostAnalyticsTable): Promise<void> {
  await db.insertInto('post_analytics').values(row).execute();
}

/** When each of the items was last snapshotted (items of the company's posts). */
export async function lastSnapshots(
  db: DbOrTx,
  companyId: string,
  postIds: readonly string[],
  itemIds: readonly string[],
): Promise<{ queue_item_id: string; at: string | null }[]> {
  const rows = await db
    .selectFrom('post_analytics')
    .select(['queue_item_id', (eb) => eb.fn.max('collected_at').as('at')])
    .where('company_id', '=', companyId)
    .where('post_id', 'in', [...postIds])
    .where('queue_item_id', 'in', [...itemIds])
    .groupBy('queue_item_id')
    .execute();
  return rows.map((r) => ({ queue_item_id: r.queue_item_id, at: r.at }));
}

/** Replaces an account's statistics. */
export async function upsertAccountStats(db: DbOrTx, row: AccountStatsTable): Promise<void> {
  const { account_id: _id, company_id: _company, ...figures } = row;
  await db
    .insertInto('account_stats')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doUpdateSet(figures))
    .execute();
}
