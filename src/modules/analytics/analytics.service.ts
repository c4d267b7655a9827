// Post and account analytics (SPEC 2.7, 2.8, 4.2, 4.4; DECISIONS 7). Snapshots and account
// statistics are written by the release engine from worker reports; the reads answer with
// zeros and nulls while nothing has been reported.
import type { AppContext } from '../../context.ts';
import type { AccountStatsTable, Db, DbOrTx, PostAnalyticsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { cursorScope } from '../../lib/cursor.ts';
import { getAccountRow } from '../accounts/index.ts';
import type {
  AccountAnalyticsOut,
  PostAnalyticsOut,
  PostAnalyticsQueryInput,
  SnapshotOut,
} from './analytics.schemas.ts';
import { postExists } from '../posts/index.ts';
import { recordAnalyticsUpdated } from '../webhooks/index.ts';
import * as repo from './analytics.repository.ts';

type Platform = SnapshotOut['platform'];

/**
 * DECISIONS 7: (likes + comments + shares + saves) / views as a percentage rounded to two
 * decimals (half up), 0 when views is 0. Integer arithmetic, so 1/8 is exactly 0.13.
 */
export function engagementRate(
  views: number,
  likes: number,
  comments: number,
  shares: number,
  saves: number,
): number {
  if (views <= 0) return 0;
  const engaged = BigInt(likes + comments + shares + saves);
  const v = BigInt(views);
  const hundredths = (engaged * 20_000n + v) / (2n * v);
  return Number(hundredths) / 100;
}

function toSnapshot(row: PostAnalyticsTable): SnapshotOut {
  return {
    id: row.id,
    // The post is the published video (or carousel); taskId names the per-account item.
    videoId: row.post_id,
    accountId: row.account_id,
    platform: row.platform as Platform,
    postUrl: row.post_url,
    views: Number(row.views),
    likes: Number(row.likes),
    comments: Number(row.comments),
    shares: Number(row.shares),
    saves: Number(row.saves),
    collectedAt: row.collected_at,
    taskId: row.queue_item_id,
  };
}

/** Newer first: the snapshot that names the post in the summary when views tie. */
function newer(a: SnapshotOut, b: SnapshotOut): boolean {
  return a.collectedAt > b.collectedAt || (a.collectedAt === b.collectedAt && a.id > b.id);
}

/**
 * Totals over the latest snapshot of each account (queue item) the post went out to, so
 * figures of several accounts add up and older snapshots of one account never double count.
 * postUrl, accountId and platform come from the account whose latest snapshot has the most
 * views; all three are null, and lastUpdated too, before any snapshot.
 */
export function summarise(latest: readonly SnapshotOut[]): PostAnalyticsOut['summary'] {
  let views = 0;
  let likes = 0;
  let comments = 0;
  let shares = 0;
  let saves = 0;
  let lastUpdated: string | null = null;
  let top: SnapshotOut | null = null;
  for (const s of latest) {
    views += s.views;
    likes += s.likes;
    comments += s.comments;
    shares += s.shares;
    saves += s.saves;
    if (lastUpdated === null || s.collectedAt > lastUpdated) lastUpdated = s.collectedAt;
    if (top === null || s.views > top.views || (s.views === top.views && newer(s, top))) top = s;
  }
  return {
    views,
    likes,
    comments,
    shares,
    saves,
    engagementRate: engagementRate(views, likes, comments, shares, saves),
    lastUpdated,
    postUrl: top?.postUrl ?? null,
    accountId: top?.accountId ?? null,
    platform: top?.platform ?? null,
  };
}

export async function getPostAnalytics(
  ctx: AppContext,
  companyId: string,
  postId: string,
  query: PostAnalyticsQueryInput,
): Promise<PostAnalyticsOut> {
  const now = ctx.clock.now();
  if (!(await postExists(ctx.db, companyId, postId))) {
    throw new ApiError('post_not_found', `Post ${postId} does not exist`);
  }
  const limit = query.limit ?? 25;
  const scope = cursorScope(companyId, 'post-analytics', { postId });
  const before = query.cursor
    ? (ctx.cursors.decode(scope, query.cursor, now, 2) as [string, string])
    : undefined;
  const [latest, rows] = await Promise.all([
    repo.latestSnapshots(ctx.db, companyId, postId),
    repo.pageSnapshots(ctx.db, companyId, postId, { before, limit: limit + 1 }),
  ]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    summary: summarise(latest.map(toSnapshot)),
    history: page.map(toSnapshot),
    nextCursor:
      rows.length > limit && last
        ? ctx.cursors.encode(scope, [last.collected_at, last.id], now)
        : null,
  };
}

/** SPEC 2.8 from the account's latest statistics; zeros before the first report. */
export async function getAccountAnalytics(
  db: Db,
  companyId: string,
  accountId: string,
): Promise<AccountAnalyticsOut> {
  const account = await getAccountRow(db, companyId, accountId);
  const stats = await repo.findAccountStats(db, companyId, account.id);
  return {
    accountId: account.id,
    followers: Number(stats ? stats.followers : account.followers),
    posts: Number(stats?.posts ?? 0),
    engagement: Number(stats?.engagement ?? 0),
    analytics: {
      views: Number(stats?.views ?? 0),
      likes: Number(stats?.likes ?? 0),
      comments: Number(stats?.comments ?? 0),
    },
    scannedPosts: Number(stats?.scanned_posts ?? 0),
  };
}

/**
 * Stores a worker's analytics snapshot of a posted item, received `at`, and records the
 * post's analytics.updated event (coalesced per interval) in the same transaction.
 */
export function storeSnapshot(
  db: Db,
  row: PostAnalyticsTable,
  at: string,
): Promise<PostAnalyticsTable> {
  return db.transaction().execute(async (tx) => {
    // The same snapshot sent again (a retry on a poor connection) is the one stored.
    const same = await repo.findSameSnapshot(tx, row);
    if (same) return same;
    const { before, after } = await repo.snapshotsAround(tx, row.queue_item_id, row.collected_at);
    const views = Number(row.views);
    if (before && Number(before.views) > views) {
      throw new ApiError(
        'invalid_request',
        `/views must not be fewer than the ${Number(before.views)} views counted at ${before.collected_at}`,
        { hint: 'Views only grow: send the figures as the platform shows them now.' },
      );
    }
    if (after && Number(after.views) < views) {
      throw new ApiError(
        'invalid_request',
        `/views must not be more than the ${Number(after.views)} views counted later, at ${after.collected_at}`,
        { hint: 'Check collectedAt: it is the time the figures were read.' },
      );
    }
    await repo.insertSnapshot(tx, row);
    await recordAnalyticsUpdated(tx, row.company_id, row.post_id, at);
    return row;
  });
}

/** When each of the items (of the company's posts) was last snapshotted, in epoch ms. */
export async function lastSnapshotTimes(
  db: DbOrTx,
  companyId: string,
  postIds: readonly string[],
  itemIds: readonly string[],
): Promise<Map<string, number>> {
  if (itemIds.length === 0) return new Map();
  const rows = await repo.lastSnapshots(db, companyId, postIds, itemIds);
  return new Map(
    rows.filter((r) => r.at !== null).map((r) => [r.queue_item_id, Date.parse(r.at as string)]),
  );
}

/** Replaces an account's statistics (SPEC 2.8), as its worker reported them. */
export function storeAccountStats(db: DbOrTx, row: AccountStatsTable): Promise<void> {
  return repo.upsertAccountStats(db, row);
}

/** The stored statistics of an account of the company. */
export function accountStatsOf(
  db: DbOrTx,
  companyId: string,
  accountId: string,
): Promise<AccountStatsTable | undefined> {
  return repo.findAccountStats(db, companyId, accountId);
}

/** Posts of a content group and the sums of their latest views and likes. */
export interface GroupTotals {
  posts: number;
  views: number;
  likes: number;
}

/**
 * Totals per content group of a kind (`tag` for the dashboard's tag page), and `untagged`
 * for the company's posts in no group of that kind. Views and likes add the
 * latest snapshot of each account a post went out to, as a post's summary does.
 */
export async function totalsByGroup(
  db: DbOrTx,
  companyId: string,
  kind: 'tag' | 'template',
): Promise<{ groups: Map<string, GroupTotals>; untagged: GroupTotals }> {
  const rows = await repo.totalsByGroup(db, companyId, kind);
  const groups = new Map<string, GroupTotals>();
  let untagged: GroupTotals = { posts: 0, views: 0, likes: 0 };
  for (const r of rows) {
    const totals = {
      posts: Number(r.posts),
      views: Number(r.views ?? 0),
      likes: Number(r.likes ?? 0),
    };
    if (r.group_id === null) untagged = totals;
    else groups.set(r.group_id, totals);
  }
  return { groups, untagged };
}

/** One page of the account's snapshots of every post, oldest first. */
export async function accountSnapshots(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  opts: { after?: [string, string]; limit: number },
): Promise<SnapshotOut[]> {
  const rows = await repo.pageAccountSnapshots(db, companyId, accountId, opts);
  return rows.map(toSnapshot);
}

/** A post's figures on one account. */
export interface AccountTotals {
  views: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
}

/**
 * For each of the company's posts among `postIds`, its figures on each account it went out
 * to: the sums over the latest snapshot of each of its items for that account (a post
 * queued to an account again adds the figures of each time it was posted there).
 */
export async function postAccountTotals(
  db: DbOrTx,
  companyId: string,
  postIds: readonly string[],
): Promise<Map<string, Map<string, AccountTotals>>> {
  const out = new Map<string, Map<string, AccountTotals>>();
  for (const row of await repo.latestSnapshotsOfPosts(db, companyId, postIds)) {
    let byAccount = out.get(row.post_id);
    if (!byAccount) out.set(row.post_id, (byAccount = new Map()));
    const sum = byAccount.get(row.account_id) ?? {
      views: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      saves: 0,
    };
    sum.views += Number(row.views);
    sum.likes += Number(row.likes);
    sum.comments += Number(row.comments);
    sum.shares += Number(row.shares);
    sum.saves += Number(row.saves);
    byAccount.set(row.account_id, sum);
  }
  return out;
}
