// Precompiled queries of the posts' hot paths: creation (the lookups before its
// transaction and the writes inside it) and the post view (a post, and the
// items, groups and thumbnails of one post or a page). A query over a list of
// ids is compiled once per list length.
import { sql } from 'kysely';
import { param, prepared, type Prepared } from '../../db/prepared.ts';
import type {
  Db,
  DbOrTx,
  PostContentGroupsTable,
  PostsTable,
  QueueItemsTable,
  UploadsTable,
} from '../../db/types.ts';
import type { ItemWithAccount } from './posts.repository.ts';

/** What post creation needs to know about an upload it uses. */
export type MediaUpload = Pick<
  UploadsTable,
  'id' | 'kind' | 'status' | 'content_type' | 'thumbnail_key'
>;

export interface TargetAccount {
  id: string;
  platform: string;
  username: string;
}

/** Compiled forms of one query, one per list length, built on first use. */
function perLength<R>(build: (n: number) => Prepared<R>): (n: number) => Prepared<R> {
  const byLength = new Map<number, Prepared<R>>();
  return (n) => {
    let query = byLength.get(n);
    if (!query) {
      query = build(n);
      byLength.set(n, query);
    }
    return query;
  };
}

/** Placeholders `<name>0` .. `<name>{n-1}`. */
function params(name: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => param(`${name}${i}`));
}

/** Values for `params(name, list.length)`. */
function bind(name: string, list: readonly unknown[], into: Record<string, unknown>) {
  list.forEach((v, i) => (into[`${name}${i}`] = v));
  return into;
}

/** A placeholder for a column that is not text, typed as the column. */
function slot<T>(name: string) {
  return sql<T>`${param(name)}`;
}

const uploadsQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('uploads')
      .select(['id', 'kind', 'status', 'content_type', 'thumbnail_key'])
      .where('company_id', '=', param('company'))
      .where('id', 'in', params('id', n)),
  ),
);

/** The company's uploads among `ids` (distinct). */
export function findUploads(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<MediaUpload[]> {
  return uploadsQuery(ids.length)(db, bind('id', ids, { company: companyId }));
}

const accountsQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('accounts')
      .select(['id', 'platform', 'username'])
      .where('company_id', '=', param('company'))
      .where('id', 'in', params('id', n)),
  ),
);

/** The company's accounts among `ids` (distinct). */
export function findAccounts(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<TargetAccount[]> {
  return accountsQuery(ids.length)(db, bind('id', ids, { company: companyId }));
}

function tagsQuery(lock: boolean) {
  return perLength((n) =>
    prepared((db: Db) => {
      const q = db
        .selectFrom('content_tags')
        .select(['id', 'archived'])
        .where('company_id', '=', param('company'))
        .where('id', 'in', params('id', n));
      return lock ? q.forShare() : q;
    }),
  );
}
const tagQueries = { plain: tagsQuery(false), locked: tagsQuery(true) };

/**
 * The company's tags among `ids` (distinct); `lock` holds them against
 * archiving until the transaction ends (PostgreSQL).
 */
export function findTags(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
  lock: boolean,
): Promise<{ id: string; archived: number }[]> {
  const query = (lock ? tagQueries.locked : tagQueries.plain)(ids.length);
  return query(db, bind('id', ids, { company: companyId }));
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

const ITEM_COLUMNS = [
  'id',
  'company_id',
  'post_id',
  'account_id',
  'status',
  'skip_approval',
  'priority',
  'queued_at',
  'approved_at',
  'scheduled_after',
  'released_at',
  'posted_at',
  'post_url',
  'failure_reason',
  'updated_at',
] as const satisfies readonly (keyof QueueItemsTable)[];

const insertItemsQuery = perLength((n) =>
  prepared((db: Db) =>
    db.insertInto('queue_items').values(
      Array.from({ length: n }, (_, i) => ({
        ...(Object.fromEntries(
          ITEM_COLUMNS.map((c) => [c, param(`${c}${i}`)]),
        ) as unknown as QueueItemsTable),
        skip_approval: slot<number>(`skip_approval${i}`),
        priority: slot<number>(`priority${i}`),
      })),
    ),
  ),
);

/** Parameter names of row `i` of the items insert, made once. */
const itemKeys: string[][] = [];
function itemKeysOf(i: number): string[] {
  return (itemKeys[i] ??= ITEM_COLUMNS.map((c) => `${c}${i}`));
}

function itemValues(rows: readonly QueueItemsTable[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    const keys = itemKeysOf(i);
    ITEM_COLUMNS.forEach((c, j) => (values[keys[j] as string] = row[c]));
  });
  return values;
}

export async function insertItems(db: DbOrTx, rows: readonly QueueItemsTable[]): Promise<void> {
  if (rows.length) await insertItemsQuery(rows.length)(db, itemValues(rows));
}

const insertGroupsQuery = perLength((n) =>
  prepared((db: Db) =>
    db.insertInto('post_content_groups').values(
      Array.from({ length: n }, (_, i) => ({
        post_id: param(`post_id${i}`),
        company_id: param(`company_id${i}`),
        group_id: param(`group_id${i}`),
        created_at: param(`created_at${i}`),
      })),
    ),
  ),
);

export async function insertGroups(
  db: DbOrTx,
  rows: readonly PostContentGroupsTable[],
): Promise<void> {
  if (rows.length === 0) return;
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    values[`post_id${i}`] = row.post_id;
    values[`company_id${i}`] = row.company_id;
    values[`group_id${i}`] = row.group_id;
    values[`created_at${i}`] = row.created_at;
  });
  await insertGroupsQuery(rows.length)(db, values);
}

// Reads of the post view: a post by id, and the items, groups and thumbnail
// readiness of a list of posts (one post for GET, a page for lists).

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

export async function findPost(
  db: DbOrTx,
  companyId: string,
  postId: string,
): Promise<{ post: PostsTable; thumbnailReady: boolean } | undefined> {
  const [row] = await postQuery(db, { company: companyId, id: postId });
  // The row is used as it is (copying it without the extra column costs more
  // than the column does where posts are viewed).
  return row ? { post: row, thumbnailReady: !!row.thumbnail_ready } : undefined;
}

const itemsQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('queue_items')
      .innerJoin('accounts', 'accounts.id', 'queue_items.account_id')
      .selectAll('queue_items')
      .select(['accounts.username', 'accounts.platform'])
      .where('queue_items.post_id', 'in', params('id', n))
      .orderBy('queue_items.queued_at')
      .orderBy('queue_items.id'),
  ),
);

/** Items of the posts with their account's username and platform, in queue order. */
export function itemsOfPosts(db: DbOrTx, postIds: readonly string[]): Promise<ItemWithAccount[]> {
  if (postIds.length === 0) return Promise.resolve([]);
  return itemsQuery(postIds.length)(db, bind('id', postIds, {}));
}

const groupsQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('post_content_groups')
      .selectAll()
      .where('post_id', 'in', params('id', n))
      .orderBy('created_at')
      .orderBy('group_id'),
  ),
);

export function groupsOfPosts(
  db: DbOrTx,
  postIds: readonly string[],
): Promise<PostContentGroupsTable[]> {
  if (postIds.length === 0) return Promise.resolve([]);
  return groupsQuery(postIds.length)(db, bind('id', postIds, {}));
}

const thumbnailsQuery = perLength((n) =>
  prepared((db: Db) =>
    db
      .selectFrom('uploads')
      .select('id')
      .where('id', 'in', params('id', n))
      .where('thumbnail_key', 'is not', null),
  ),
);

/** Which of the uploads (distinct ids) have a thumbnail. */
export async function uploadsWithThumbnail(
  db: DbOrTx,
  uploadIds: readonly string[],
): Promise<string[]> {
  if (uploadIds.length === 0) return [];
  const rows = await thumbnailsQuery(uploadIds.length)(db, bind('id', uploadIds, {}));
  return rows.map((r) => r.id);
}
