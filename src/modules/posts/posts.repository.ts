// The posts table: a post by id (alone, or with whether its thumbnail is ready, for the
// view), its lock, creation and updates, pages of the company's posts, and the media
// columns the carousel renderer writes. Creation and the view are the hot paths, so their
// queries are compiled once (db/prepared.ts).
import { sql } from 'kysely';
import { keysetPage, keysetParams, keysetValues } from '../../db/keyset.ts';
import { param, prepared, type Prepared } from '../../db/prepared.ts';
import type { Db, DbOrTx, PostsTable } from '../../db/types.ts';

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

/** The caption and media kind of the company's posts among `postIds`. */
export async function findPostLabels(
  db: DbOrTx,
  companyId: string,
  postIds: readonly string[],
): Promise<{ id: string; caption: string | null; media_kind: string }[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('posts')
    .select(['id', 'caption', 'media_kind'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...postIds])
    .execute();
}

/** Locks the post row so item changes of one post happen one at a time. */
export async function lockPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<PostsTable | undefined> {
  return db
    .selectFrom('posts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', postId)
    .forUpdate()
    .executeTakeFirst();
}

export async function updatePost(
  db: DbOrTx,
  postId: string,
  patch: Partial<PostsTable>,
): Promise<void> {
  await db.updateTable('posts').set(patch).where('id', '=', postId).execute();
}

const POST_COLUMNS = [
  'id',
  'company_id',
  'status',
  'media_kind',
  'media_upload_ids',
  'slides',
  'media_state',
  'media_keys',
  'media_error',
  'thumbnail_upload_id',
  'thumbnail_key',
  'caption',
  'hashtags',
  'sound',
  'notes',
  'platformb_post_format',
  'template_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof PostsTable)[];

const insertPostQuery = prepared((db: Db) =>
  db
    .insertInto('posts')
    .values(Object.fromEntries(POST_COLUMNS.map((c) => [c, param(c)])) as unknown as PostsTable),
);

export async function insertPost(db: DbOrTx, row: PostsTable): Promise<void> {
  await insertPostQuery(db, row as unknown as Record<string, unknown>);
}

/** Media columns of a post, for its signed downloads. */
export async function findPostMedia(
  db: DbOrTx,
  postId: string,
): Promise<Pick<PostsTable, 'media_keys' | 'thumbnail_key'> | undefined> {
  return db
    .selectFrom('posts')
    .select(['media_keys', 'thumbnail_key'])
    .where('id', '=', postId)
    .executeTakeFirst();
}

/** Media columns of the company's posts among `ids`, in one read (the approvals inbox). */
export async function findPostsMedia(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<Pick<PostsTable, 'id' | 'media_upload_ids' | 'media_keys'>[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('posts')
    .select(['id', 'media_upload_ids', 'media_keys'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
}

/** What the company's posts among `ids` are made of: their kind, uploads and slides. */
export async function findPostsMediaShape(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<Pick<PostsTable, 'id' | 'media_kind' | 'media_upload_ids' | 'slides' | 'media_keys'>[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('posts')
    .select(['id', 'media_kind', 'media_upload_ids', 'slides', 'media_keys'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
}

// The post and whether the upload its thumbnail comes from has one, in one read.
const postQuery = prepared((db: Db) =>
  db
    .selectFrom('posts')
    .leftJoin('uploads', 'uploads.id', 'posts.thumbnail_upload_id')
    .selectAll('posts')
    .select(sql<number | boolean>`uploads.thumbnail_key is not null`.as('thumbnail_ready'))
    .where('posts.company_id', '=', param('company'))
    .where('posts.id', '=', param('id')),
);

export async function findPostView(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<{ post: PostsTable; thumbnailReady: boolean } | undefined> {
  const [row] = await postQuery(db, { company: companyId, id: postId });
  // The row is used as it is (copying it without the extra column costs more
  // than the column does where posts are viewed).
  return row ? { post: row, thumbnailReady: !!row.thumbnail_ready } : undefined;
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
// order still comes from the posts index and no sort is needed. The probes
// only read: they are the one place outside modules/items that names
// queue_items, because a separate lookup of the account's posts would lose
// the single index walk that makes deep pages cheap.
function pageQuery(shape: PageShape) {
  return prepared((db: Db) => {
    let q = db
      .selectFrom('posts')
      .selectAll('posts')
      .where('posts.company_id', '=', param('company'));
    if (shape.status) q = q.where('posts.status', '=', param('status'));
    if (shape.since) q = q.where('posts.created_at', '>=', param('since'));
    q = keysetPage(q, keysetParams(shape.after), {
      time: 'posts.created_at',
      id: 'posts.id',
      desc: true,
    });
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
    return q;
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
    accountId: filter.accountId,
    group: filter.contentGroupId,
    ...keysetValues(filter),
  });
}
