// The post as the API shows it (SPEC 2.2), built from its row, items and groups.
import type { AppContext } from '../../context.ts';
import type { PostContentGroupsTable, PostsTable, QueueItemsTable } from '../../db/types.ts';
import { mediaPath, uploadThumbnailKey, uploadsWithThumbnail } from '../uploads/index.ts';
import { itemsOfPosts, type ItemWithAccount } from '../items/index.ts';
import { groupsOfPosts } from '../tags/index.ts';
import { plannedSlotsOfPost } from '../planning/index.ts';
import { findPostView } from './posts.repository.ts';
import { ApiError } from '../../errors.ts';
import type { KeyedRead } from '../../db/versioned-memo.ts';
import type { PostOut, SoundInput } from './posts.schemas.ts';
import type { PostStatus } from '../items/index.ts';

/** Signed media URLs in post responses live for an hour. */
const URL_MS = 60 * 60 * 1000;
const JPEG = 'image/jpeg';

export function postMediaPath(postId: string, part: 'thumbnail' | `slide-${number}`): string {
  return `/v2/media/posts/${encodeURIComponent(postId)}/${part}`;
}

export interface PostBundle {
  post: PostsTable;
  items: ItemWithAccount[];
  groups: PostContentGroupsTable[];
}

/** What a post's thumbnail URL depends on; `carousel` is true when the post has slides. */
export interface ThumbnailSource {
  id: string;
  carousel: boolean;
  thumbnail_key: string | null;
  thumbnail_upload_id: string | null;
}

/**
 * Signed thumbnail URL of a post, or null while there is none: a carousel's rendered cover, or
 * the thumbnail of the upload it was made from once that thumbnail exists (`thumbnailReady`).
 */
export function postThumbnailUrl(
  ctx: AppContext,
  post: ThumbnailSource,
  thumbnailReady: boolean,
): string | null {
  return thumbnailUrlUntil(ctx, post, thumbnailReady, mediaUrlExpiry(ctx.clock.now()));
}

/** When media URLs signed at `now` expire. */
export function mediaUrlExpiry(now: Date): Date {
  return new Date(now.getTime() + URL_MS);
}

/** The signed thumbnail URL of a post (as postThumbnailUrl) valid until `expires`. */
export function thumbnailUrlUntil(
  ctx: AppContext,
  post: ThumbnailSource,
  thumbnailReady: boolean,
  expires: Date,
): string | null {
  if (post.carousel) {
    return post.thumbnail_key
      ? ctx.media.url(
          { path: postMediaPath(post.id, 'thumbnail'), key: post.thumbnail_key, contentType: JPEG },
          expires,
        )
      : null;
  }
  if (thumbnailReady && post.thumbnail_upload_id) {
    const id = post.thumbnail_upload_id;
    return ctx.media.url(
      { path: mediaPath(id, true), key: uploadThumbnailKey(id), contentType: JPEG },
      expires,
    );
  }
  return null;
}

/** Which of the posts' source uploads already have a thumbnail, in one query. */
export async function readyThumbnails(
  ctx: AppContext,
  posts: readonly { thumbnail_upload_id: string | null }[],
): Promise<Set<string>> {
  const ids = [...new Set(posts.map((p) => p.thumbnail_upload_id).filter((x): x is string => !!x))];
  return new Set(await uploadsWithThumbnail(ctx.db, ids));
}

/** The JSON columns of a post row as the view needs them. */
interface ParsedColumns {
  mediaCount: number;
  carousel: boolean;
  hashtags: readonly string[];
  sound: SoundInput | null;
}

/**
 * Parsed columns of rows the embedded database's result cache hands out:
 * those rows are frozen and shared by every read until the data changes, so
 * their JSON is parsed once, and the parsed values are frozen in turn.
 */
const parsedOfSharedRow = new WeakMap<PostsTable, ParsedColumns>();

function parseColumns(post: PostsTable): ParsedColumns {
  const slides = post.slides ? (JSON.parse(post.slides) as unknown[]) : null;
  return {
    mediaCount: slides ? slides.length : (JSON.parse(post.media_upload_ids) as string[]).length,
    carousel: slides !== null,
    hashtags: JSON.parse(post.hashtags) as string[],
    sound: post.sound ? (JSON.parse(post.sound) as SoundInput) : null,
  };
}

function parsedColumns(post: PostsTable): ParsedColumns {
  if (!Object.isFrozen(post)) return parseColumns(post);
  let parsed = parsedOfSharedRow.get(post);
  if (!parsed) {
    const fresh = parseColumns(post);
    Object.freeze(fresh.hashtags);
    if (fresh.sound) deepFreeze(fresh.sound);
    parsed = Object.freeze(fresh);
    parsedOfSharedRow.set(post, parsed);
  }
  return parsed;
}

function deepFreeze(value: object): void {
  for (const v of Object.values(value)) if (v && typeof v === 'object') deepFreeze(v as object);
  Object.freeze(value);
}

export function toPost(ctx: AppContext, b: PostBundle, thumbnailReady: boolean): PostOut {
  const { post } = b;
  const parsed = parsedColumns(post);
  const thumbnailUrl = postThumbnailUrl(
    ctx,
    {
      id: post.id,
      carousel: parsed.carousel,
      thumbnail_key: post.thumbnail_key,
      thumbnail_upload_id: post.thumbnail_upload_id,
    },
    thumbnailReady,
  );
  return {
    postId: post.id,
    status: post.status as PostStatus,
    media: {
      kind: post.media_kind === 'video' ? 'video' : 'image',
      count: parsed.mediaCount,
      thumbnailUrl,
    },
    caption: post.caption,
    hashtags: parsed.hashtags as string[],
    sound: parsed.sound,
    notes: post.notes,
    contentGroupIds: b.groups.map((g) => g.group_id),
    platformBPostFormat: post.platformb_post_format as 'reel' | 'post',
    createdAt: post.created_at,
    accounts: b.items.map((i) => {
      const entry: PostOut['accounts'][number] = {
        accountId: i.account_id,
        username: i.username,
        platform: i.platform as 'platformA' | 'platformB',
        status: i.status as PostStatus,
        queuedAt: i.queued_at,
      };
      if (i.approved_at) entry.approvedAt = i.approved_at;
      if (i.scheduled_after) entry.scheduledAfter = i.scheduled_after;
      if (i.posted_at) entry.postedAt = i.posted_at;
      if (i.post_url) entry.postUrl = i.post_url;
      if (i.status === 'failed' && i.failure_reason) entry.error = i.failure_reason;
      return entry;
    }),
  };
}

/**
 * SPEC 2.2 `scheduledSlotStart` on each `queued` account entry of the post: the planner's
 * window for its item (modules/planning), as the account's queue shows it.
 */
export async function withPlannedSlots(
  ctx: AppContext,
  companyId: string,
  post: PostOut,
): Promise<PostOut> {
  if (!post.accounts.some((a) => a.status === 'queued')) return post;
  const slots = await plannedSlotsOfPost(ctx.db, ctx.clock, companyId, post.postId);
  for (const a of post.accounts) {
    const slot = a.status === 'queued' ? slots.get(a.accountId) : undefined;
    if (slot !== undefined) a.scheduledSlotStart = slot;
  }
  return post;
}

/**
 * A post as the API shows it when read, with what its thumbnail URL is made
 * from: the URL expires, and thumbnailUrlUntil signs it again at any time.
 */
export interface ViewedPost {
  post: PostOut;
  source: ThumbnailSource;
  ready: boolean;
}

export async function viewPostsWithThumbnails(
  ctx: AppContext,
  posts: PostsTable[],
): Promise<ViewedPost[]> {
  const ids = posts.map((p) => p.id);
  const [items, groups, ready] = await Promise.all([
    itemsOfPosts(ctx.db, ids),
    groupsOfPosts(ctx.db, ids),
    readyThumbnails(ctx, posts),
  ]);
  const itemsBy = new Map<string, ItemWithAccount[]>();
  for (const i of items) {
    const list = itemsBy.get(i.post_id);
    if (list) list.push(i);
    else itemsBy.set(i.post_id, [i]);
  }
  const groupsBy = new Map<string, PostContentGroupsTable[]>();
  for (const g of groups) {
    const list = groupsBy.get(g.post_id);
    if (list) list.push(g);
    else groupsBy.set(g.post_id, [g]);
  }
  return posts.map((post) => {
    const isReady = !!post.thumbnail_upload_id && ready.has(post.thumbnail_upload_id);
    const bundle = { post, items: itemsBy.get(post.id) ?? [], groups: groupsBy.get(post.id) ?? [] };
    return { post: toPost(ctx, bundle, isReady), source: thumbnailSource(post), ready: isReady };
  });
}

function thumbnailSource(post: PostsTable): ThumbnailSource {
  return {
    id: post.id,
    carousel: parsedColumns(post).carousel,
    thumbnail_key: post.thumbnail_key,
    thumbnail_upload_id: post.thumbnail_upload_id,
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A post just written, viewed from the rows written rather than read back: the
 * same result as reading it right after the commit, with items and groups in
 * the order the reads return them ((queued_at, id) and (created_at, group_id)).
 */
export function viewWritten(
  ctx: AppContext,
  written: {
    post: PostsTable;
    items: readonly QueueItemsTable[];
    groups: readonly PostContentGroupsTable[];
  },
  accounts: ReadonlyMap<string, { username: string; platform: string }>,
  thumbnailReady: boolean,
): PostOut {
  const items = written.items.map((i): ItemWithAccount => {
    const account = accounts.get(i.account_id);
    if (!account) throw new Error(`account ${i.account_id} of a written item is unknown`);
    return { ...i, username: account.username, platform: account.platform };
  });
  items.sort((a, b) => compareText(a.queued_at, b.queued_at) || compareText(a.id, b.id));
  const groups = [...written.groups].sort(
    (a, b) => compareText(a.created_at, b.created_at) || compareText(a.group_id, b.group_id),
  );
  return toPost(ctx, { post: written.post, items, groups }, thumbnailReady);
}

/** One post whose thumbnail readiness is already known (read with the post). */
export async function viewReadPost(
  ctx: AppContext,
  post: PostsTable,
  thumbnailReady: boolean,
): Promise<PostOut> {
  const [items, groups] = await Promise.all([
    itemsOfPosts(ctx.db, [post.id]),
    groupsOfPosts(ctx.db, [post.id]),
  ]);
  return toPost(ctx, { post, items, groups }, thumbnailReady);
}

/**
 * GET /v2/posts/{postId}: its key among all reads of posts, and its read;
 * `post_not_found` when there is none.
 */
export function postRead(
  ctx: AppContext,
  companyId: string,
  postId: string,
): KeyedRead<ViewedPost> {
  return {
    // Planned slots change as slots start, on whole minutes, even without a write.
    key: `post\n${companyId}\n${postId}\n${Math.floor(ctx.clock.now().getTime() / 60_000)}`,
    read: async () => {
      const found = await findPostView(ctx.db, companyId, postId);
      if (!found) throw new ApiError('post_not_found', `Post ${postId} does not exist`);
      // The thumbnail readiness read with the post, as readPost uses it.
      const ready = found.thumbnailReady;
      const post = await withPlannedSlots(
        ctx,
        companyId,
        await viewReadPost(ctx, found.post, ready),
      );
      return { post, source: thumbnailSource(found.post), ready };
    },
  };
}

/** What the uploads module knows of an upload a post's media is made of (uploadFacts). */
interface UploadFact {
  content_type: string;
  sha256: string | null;
  blob_key: string;
}

export interface MediaItem {
  url: string;
  contentType: string;
  sha256?: string;
}

/**
 * A post's media as expiring download URLs: a carousel's rendered slides (JPEG), otherwise
 * the bytes of the uploads it was made from, with their SHA-256 when known. Shared by the
 * worker's tasks and the reviewer's inbox, so both sign the same way.
 */
export function postMediaItems(
  ctx: AppContext,
  post: { id: string; media_keys: string | null; media_upload_ids: string },
  facts: ReadonlyMap<string, UploadFact>,
  expires: Date,
): MediaItem[] {
  if (post.media_keys) {
    return (JSON.parse(post.media_keys) as string[]).map((key, i) => ({
      url: ctx.media.url(
        { path: postMediaPath(post.id, `slide-${i}`), key, contentType: 'image/jpeg' },
        expires,
      ),
      contentType: 'image/jpeg',
    }));
  }
  return (JSON.parse(post.media_upload_ids) as string[]).map((id) => {
    const f = facts.get(id);
    const contentType = f?.content_type ?? 'application/octet-stream';
    const path = mediaPath(id);
    // An upload gone meanwhile keeps the service URL, which answers not found.
    const url = f
      ? ctx.media.url({ path, key: f.blob_key, contentType }, expires)
      : ctx.signer.sign(path, expires);
    return { url, contentType, ...(f?.sha256 ? { sha256: f.sha256 } : {}) };
  });
}
