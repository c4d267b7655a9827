// What a person reviewing posts looks at (the dashboard's approvals inbox): each post's
// media itself through expiring signed URLs, as the worker task view signs them: a
// carousel's rendered slides, otherwise the bytes of the uploads it was made from. One
// read of the posts and one of the uploads' content types, whatever the number of posts.
import type { AppContext } from '../../context.ts';
import { uploadFacts } from '../uploads/index.ts';
import { findPostsMedia } from './posts.repository.ts';
import { mediaUrlExpiry, postMediaItems, type MediaItem } from './posts.view.ts';

export type ReviewMediaItem = MediaItem;

/** Per post id (the company's only): its media items, slides rendered as JPEG. */
export async function reviewMedia(
  ctx: AppContext,
  companyId: string,
  postIds: readonly string[],
): Promise<Map<string, ReviewMediaItem[]>> {
  const rows = await findPostsMedia(ctx.db, companyId, [...new Set(postIds)]);
  const uploadIds = rows.flatMap((r) =>
    r.media_keys ? [] : (JSON.parse(r.media_upload_ids) as string[]),
  );
  const facts = await uploadFacts(ctx.db, [...new Set(uploadIds)]);
  const expires = mediaUrlExpiry(ctx.clock.now());
  return new Map(rows.map((r) => [r.id, postMediaItems(ctx, r, facts, expires)]));
}
