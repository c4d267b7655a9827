import { keysetPage } from '../../db/keyset.ts';
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
  const q = db
    .selectFrom('post_analytics')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId);
  const page = { after: opts.before, limit: opts.limit };
  return keysetPage(q, page, { time: 'collected_at', desc: true }).execute();
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

/**
 * The item's snapshots around `at`: the one with the most views at or before it and the one
 * with the fewest after it (views only grow, so these are what a new one must fit).
 */
export async function snapshotsAround(
  db: DbOrTx,
  itemId: string,
  at: string,
): Promise<{ before?: PostAnalyticsTable; after?: PostAnalyticsTable }> {
  const [before, after] = await Promise.all([
    db
      .selectFrom('post_analytics')
      .selectAll()
      .where('queue_item_id', '=', itemId)
      .where('collected_at', '<=', at)
      .orderBy('views', 'desc')
      .orderBy('collected_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('post_analytics')
      .selectAll()
      .where('queue_item_id', '=', itemId)
      .where('collected_at', '>', at)
      .orderBy('views')
      .orderBy('collected_at')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { ...(before ? { before } : {}), ...(after ? { after } : {}) };
}

/** A snapshot of the item with the same time and figures as `row`, if one is stored. */
export async function findSameSnapshot(
  db: DbOrTx,
  row: PostAnalyticsTable,
): Promise<PostAnalyticsTable | undefined> {
  return db
    .selectFrom('post_analytics')
    .selectAll()
    .where('queue_item_id', '=', row.queue_item_id)
    .where('collected_at', '=', row.collected_at)
    .where('views', '=', row.views)
    .where('likes', '=', row.likes)
    .where('comments', '=', row.comments)
    .where('shares', '=', row.shares)
    .where('saves', '=', row.saves)
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

/** A group's posts and the sums of their latest views and likes; `group_id` null for none. */
export interface GroupTotalsRow {
  group_id: string | null;
  posts: number | string;
  views: number | string | null;
  likes: number | string | null;
}

/**
 * Per content group of a kind (`tag:<id>` groups for `tag`), and for the posts in no group of
 * that kind: how many posts, and the sums over their latest snapshot per queue item. Two
 * grouped queries over the company's rows, whatever the number of groups.
 */
export async function totalsByGroup(
  db: DbOrTx,
  companyId: string,
  kind: 'tag' | 'template',
): Promise<GroupTotalsRow[]> {
  // The kind is one of two fixed words, so the pattern holds no LIKE wildcard but its own.
  const pattern = `${kind}:%`;
  const perPost = db
    .with('ranked', (qb) =>
      qb
        .selectFrom('post_analytics')
        .select(['post_id', 'views', 'likes'])
        .select((eb) =>
          eb.fn
            .agg<number>('row_number')
            .over((ob) =>
              ob.partitionBy('queue_item_id').orderBy('collected_at', 'desc').orderBy('id', 'desc'),
            )
            .as('rn'),
        )
        .where('company_id', '=', companyId),
    )
    .with('per_post', (qb) =>
      qb
        .selectFrom('ranked')
        .select(['post_id'])
        .select((eb) => [
          eb.fn.sum<string>('views').as('views'),
          eb.fn.sum<string>('likes').as('likes'),
        ])
        .where('rn', '=', 1)
        .groupBy('post_id'),
    );
  const grouped = await perPost
    .selectFrom('post_content_groups as g')
    .leftJoin('per_post as pp', 'pp.post_id', 'g.post_id')
    .select(['g.group_id'])
    .select((eb) => [
      eb.fn.countAll<string>().as('posts'),
      eb.fn.sum<string>('pp.views').as('views'),
      eb.fn.sum<string>('pp.likes').as('likes'),
    ])
    .where('g.company_id', '=', companyId)
    .where('g.group_id', 'like', pattern)
    .groupBy('g.group_id')
    .execute();
  const none = await perPost
    .selectFrom('posts as p')
    .leftJoin('per_post as pp', 'pp.post_id', 'p.id')
    .select((eb) => [
      eb.fn.countAll<string>().as('posts'),
      eb.fn.sum<string>('pp.views').as('views'),
      eb.fn.sum<string>('pp.likes').as('likes'),
    ])
    .where('p.company_id', '=', companyId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('post_content_groups as g')
            .select('g.post_id')
            .where('g.company_id', '=', companyId)
            .whereRef('g.post_id', '=', 'p.id')
            .where('g.group_id', 'like', pattern),
        ),
      ),
    )
    .executeTakeFirst();
  return [
    ...grouped,
    {
      group_id: null,
      posts: none?.posts ?? 0,
      views: none?.views ?? null,
      likes: none?.likes ?? null,
    },
  ];
}

/**
 * One page of the account's snapshots (every post), oldest first; `after` is the
 * (collected_at, id) of the last one seen.
 */
export async function pageAccountSnapshots(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  opts: { after?: [string, string]; limit: number },
): Promise<PostAnalyticsTable[]> {
  const q = db
    .selectFrom('post_analytics')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('account_id', '=', accountId);
  return keysetPage(q, opts, { time: 'collected_at' }).execute();
}

/** The newest snapshot of each queue item of the company's posts among `postIds`. */
export async function latestSnapshotsOfPosts(
  db: DbOrTx,
  companyId: string,
  postIds: readonly string[],
): Promise<PostAnalyticsTable[]> {
  if (postIds.length === 0) return [];
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
    .where('post_id', 'in', [...postIds]);
  const rows = await db.selectFrom(ranked.as('ranked')).selectAll().where('rn', '=', 1).execute();
  return rows.map(({ rn: _rn, ...row }) => row);
}
