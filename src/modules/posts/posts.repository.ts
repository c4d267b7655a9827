import { sql } from 'kysely';
import { param, prepared, type Prepared } from '../../db/prepared.ts';
import type {
  Db,
  DbOrTx,
  PostContentGroupsTable,
  PostsTable,
  QueueItemsTable,
} from '../../db/types.ts';
import { CANCELLABLE } from './posts.status.ts';

export async function insertPost(db: DbOrTx, row: PostsTable): Promise<void> {
  await db.insertInto('posts').values(row).execute();
}

export async function findPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<PostsTable | undefined> {
  return db
    .selectFrom('posts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', postId)
    .executeTakeFirst();
}

/** Locks the post row on PostgreSQL so item changes of one post happen one at a time. */
export async function lockPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
  postgres: boolean,
): Promise<PostsTable | undefined> {
  let q = db
    .selectFrom('posts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', postId);
  if (postgres) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function updatePost(
  db: DbOrTx,
  postId: string,
  patch: Partial<PostsTable>,
): Promise<void> {
  await db.updateTable('posts').set(patch).where('id', '=', postId).execute();
}

export async function insertItems(db: DbOrTx, rows: QueueItemsTable[]): Promise<void> {
  if (rows.length) await db.insertInto('queue_items').values(rows).execute();
}

export interface ItemWithAccount extends QueueItemsTable {
  username: string;
  platform: string;
}

export async function itemsOfPosts(db: DbOrTx, postIds: string[]): Promise<ItemWithAccount[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('queue_items')
    .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
    .selectAll('queue_items')
    .select(['accounts.username', 'accounts.platform'])
    .where('queue_items.post_id', 'in', postIds)
    .orderBy('queue_items.queued_at')
    .orderBy('queue_items.id')
    .execute();
}

export async function groupsOfPosts(
  db: DbOrTx,
  postIds: string[],
): Promise<PostContentGroupsTable[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('post_content_groups')
    .selectAll()
    .where('post_id', 'in', postIds)
    .orderBy('created_at')
    .orderBy('group_id')
    .execute();
}

export async function insertGroups(db: DbOrTx, rows: PostContentGroupsTable[]): Promise<void> {
  if (rows.length) await db.insertInto('post_content_groups').values(rows).execute();
}

export async function groupsOfPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<PostContentGroupsTable[]> {
  return db
    .selectFrom('post_content_groups')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId)
    .execute();
}

export async function deleteGroupsOfPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
  groupIds: string[],
): Promise<void> {
  if (groupIds.length === 0) return;
  await db
    .deleteFrom('post_content_groups')
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId)
    .where('group_id', 'in', groupIds)
    .execute();
}

/** Removes one group from every post of the company; returns how many posts had it. */
export async function deleteGroupEverywhere(
  db: DbOrTx,
  companyId: string,
  groupId: string,
): Promise<number> {
  const res = await db
    .deleteFrom('post_content_groups')
    .where('company_id', '=', companyId)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function itemsOfPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<QueueItemsTable[]> {
  return db
    .selectFrom('queue_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId)
    .orderBy('queued_at')
    .orderBy('id')
    .execute();
}

/**
 * Locks the given items of a post that are still cancellable (PostgreSQL), in
 * account order so that transactions locking several items of one post take
 * them in the same order. Items already final are left unlocked: queueing
 * again revives those while holding the post. Returns the rows locked.
 */
export async function lockOpenItems(
  db: DbOrTx,
  companyId: string,
  postId: string,
  itemIds: readonly string[],
): Promise<QueueItemsTable[]> {
  if (itemIds.length === 0) return [];
  return db
    .selectFrom('queue_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('post_id', '=', postId)
    .where('id', 'in', [...itemIds])
    .where('status', 'in', [...CANCELLABLE])
    .orderBy('account_id')
    .forUpdate()
    .execute();
}

export interface PostPageFilter {
  accountId?: string;
  status?: string;
  /** Normalised ISO timestamp: created_at >= since. */
  since?: string;
  /** A `tag:`/`template:` group, or `untagged` for posts with no group at all. */
  contentGroupId?: string;
  /** (created_at, id) of the last row of the previous page. */
  after?: [string, string];
  limit: number;
}

type PageShape = Omit<Record<keyof PostPageFilter, boolean>, 'contentGroupId' | 'limit'> & {
  group: 'none' | 'one' | 'untagged';
};

/**
 * `LIMIT 1` (a literal) inside the EXISTS probes keeps them per-row index
 * lookups on SQLite: without it SQLite turns them into a join with a Bloom
 * filter built over every row of the group or account, costing page 1 of a
 * large group several times a deep page. PostgreSQL drops a constant LIMIT in
 * EXISTS, so its plan is unchanged.
 */
const ONE = sql<number>`1`;

// Newest first on (created_at, id) so every page is an index range seek of
// posts(company_id[, status], created_at, id), as cheap deep in the list as on
// page 1. Account and group filters are EXISTS probes on their own indexes
// (queue_items(company_id, account_id, post_id), post_content_groups
// (company_id, group_id, post_id) and its (post_id, group_id) key), so the
// order still comes from the posts index and no sort is needed.
function pageQuery(shape: PageShape) {
  return prepared((db: Db) => {
    let q = db
      .selectFrom('posts')
      .selectAll('posts')
      .where('posts.company_id', '=', param('company'));
    if (shape.status) q = q.where('posts.status', '=', param('status'));
    if (shape.since) q = q.where('posts.created_at', '>=', param('since'));
    if (shape.after) {
      q = q.where((eb) =>
        eb(
          eb.refTuple('posts.created_at', 'posts.id'),
          '<',
          eb.tuple(param('afterAt'), param('afterId')),
        ),
      );
    }
    if (shape.accountId) {
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('queue_items')
            .select(sql<number>`1`.as('one'))
            .where('queue_items.company_id', '=', param('company'))
            .where('queue_items.account_id', '=', param('accountId'))
            .whereRef('queue_items.post_id', '=', 'posts.id')
            .limit(ONE),
        ),
      );
    }
    if (shape.group === 'one') {
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('post_content_groups')
            .select(sql<number>`1`.as('one'))
            .where('post_content_groups.company_id', '=', param('company'))
            .where('post_content_groups.group_id', '=', param('group'))
            .whereRef('post_content_groups.post_id', '=', 'posts.id')
            .limit(ONE),
        ),
      );
    } else if (shape.group === 'untagged') {
      q = q.where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('post_content_groups')
              .select(sql<number>`1`.as('one'))
              .where('post_content_groups.company_id', '=', param('company'))
              .whereRef('post_content_groups.post_id', '=', 'posts.id')
              .limit(ONE),
          ),
        ),
      );
    }
    return q
      .orderBy('posts.created_at', 'desc')
      .orderBy('posts.id', 'desc')
      .limit(sql<number>`${param('limit')}`);
  });
}

const PAGE_QUERIES = new Map<string, Prepared<PostsTable>>();

/** One page of the company's posts, newest first. */
export async function pagePosts(
  db: DbOrTx,
  companyId: string,
  filter: PostPageFilter,
): Promise<PostsTable[]> {
  const shape: PageShape = {
    accountId: filter.accountId !== undefined,
    status: filter.status !== undefined,
    since: filter.since !== undefined,
    after: filter.after !== undefined,
    group:
      filter.contentGroupId === undefined
        ? 'none'
        : filter.contentGroupId === 'untagged'
          ? 'untagged'
          : 'one',
  };
  const key = `${+shape.accountId}${+shape.status}${+shape.since}${+shape.after}${shape.group}`;
  let query = PAGE_QUERIES.get(key);
  if (!query) {
    query = pageQuery(shape);
    PAGE_QUERIES.set(key, query);
  }
  return query(db, {
    company: companyId,
    status: filter.status,
    since: filter.since,
    afterAt: filter.after?.[0],
    afterId: filter.after?.[1],
    accountId: filter.accountId,
    group: filter.contentGroupId,
    limit: filter.limit,
  });
}
