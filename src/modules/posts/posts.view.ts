// The post as the API shows it (SPEC 2.2), built from its row, items and groups.
import type { AppContext } from '../../context.ts';
import type { PostContentGroupsTable, PostsTable } from '../../db/types.ts';
import { mediaPath } from '../uploads/uploads.service.ts';
import type { ItemWithAccount } from './posts.repository.ts';
import * as repo from './posts.repository.ts';
import type { PostOut, SoundInput } from './posts.schemas.ts';
import type { PostStatus } from './posts.status.ts';

/** Signed media URLs in post responses live for an hour. */
const URL_MS = 60 * 60 * 1000;

export function postMediaPath(postId: string, part: 'thumbnail' | `slide-${number}`): string {
  return `/v2/media/posts/${encodeURIComponent(postId)}/${part}`;
}

export interface PostBundle {
  post: PostsTable;
  items: ItemWithAccount[];
  groups: PostContentGroupsTable[];
}

export function toPost(ctx: AppContext, b: PostBundle, thumbnailReady: boolean): PostOut {
  const { post } = b;
  const uploads = JSON.parse(post.media_upload_ids) as string[];
  const slides = post.slides ? (JSON.parse(post.slides) as unknown[]) : null;
  const expires = new Date(ctx.clock.now().getTime() + URL_MS);
  let thumbnailUrl: string | null = null;
  if (slides && post.thumbnail_key) {
    thumbnailUrl = ctx.signer.sign(postMediaPath(post.id, 'thumbnail'), expires);
  } else if (!slides && thumbnailReady && post.thumbnail_upload_id) {
    thumbnailUrl = ctx.signer.sign(mediaPath(post.thumbnail_upload_id, true), expires);
  }
  return {
    postId: post.id,
    status: post.status as PostStatus,
    media: {
      kind: post.media_kind === 'video' ? 'video' : 'image',
      count: slides ? slides.length : uploads.length,
      thumbnailUrl,
    },
    caption: post.caption,
    hashtags: JSON.parse(post.hashtags) as string[],
    sound: post.sound ? (JSON.parse(post.sound) as SoundInput) : null,
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
      return entry;
    }),
  };
}

/** Loads items, groups and thumbnail readiness for many posts in three queries. */
export async function viewPosts(ctx: AppContext, posts: PostsTable[]): Promise<PostOut[]> {
  const ids = posts.map((p) => p.id);
  const thumbUploads = [
    ...new Set(posts.map((p) => p.thumbnail_upload_id).filter((x): x is string => !!x)),
  ];
  const [items, groups, thumbs] = await Promise.all([
    repo.itemsOfPosts(ctx.db, ids),
    repo.groupsOfPosts(ctx.db, ids),
    thumbUploads.length
      ? ctx.db
          .selectFrom('uploads')
          .select('id')
          .where('id', 'in', thumbUploads)
          .where('thumbnail_key', 'is not', null)
          .execute()
      : Promise.resolve([]),
  ]);
  const ready = new Set(thumbs.map((t) => t.id));
  const itemsBy = new Map<string, ItemWithAccount[]>();
  for (const i of items) itemsBy.set(i.post_id, [...(itemsBy.get(i.post_id) ?? []), i]);
  const groupsBy = new Map<string, PostContentGroupsTable[]>();
  for (const g of groups) groupsBy.set(g.post_id, [...(groupsBy.get(g.post_id) ?? []), g]);
  return posts.map((post) =>
    toPost(
      ctx,
      { post, items: itemsBy.get(post.id) ?? [], groups: groupsBy.get(post.id) ?? [] },
      !!post.thumbnail_upload_id && ready.has(post.thumbnail_upload_id),
    ),
  );
}

export async function viewPost(ctx: AppContext, post: PostsTable): Promise<PostOut> {
  return (await viewPosts(ctx, [post]))[0] as PostOut;
}
