// What a person reviewing posts looks at (the dashboard's approvals inbox): each post's
// media itself through expiring signed URLs, as the worker task view signs them: a
// carousel's rendered slides, otherwise the bytes of the uploads it was made from. One
// read of the posts and one of the uploads' content types, whatever the number of posts.
import type { AppContext } from '../../context.ts';
import { mediaPath, uploadFacts } from '../uploads/uploads.service.ts';
import { findPostsMedia } from './posts.repository.ts';
import { mediaUrlExpiry, postMediaPath } from './posts.view.ts';

export interface ReviewMediaItem {
  url: string;
  contentType: string;
}

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
  return new Map(
    rows.map((r) => {
      const slides = r.media_keys ? (JSON.parse(r.media_keys) as string[]) : null;
      const items = slides
        ? slides.map((key, i) => ({
            url: ctx.media.url(
              { path: postMediaPath(r.id, `slide-${i}`), key, contentType: 'image/jpeg' },
              expires,
            ),
            contentType: 'image/jpeg',
          }))
        : (JSON.parse(r.media_upload_ids) as string[]).map((id) => {
            const f = facts.get(id);
            const contentType = f?.content_type ?? 'application/octet-stream';
            const path = mediaPath(id);
            // An upload gone meanwhile keeps the service URL, which answers not found.
            const url = f
              ? ctx.media.url({ path, key: f.blob_key, contentType }, expires)
              : ctx.signer.sign(path, expires);
            return { url, contentType };
          });
      return [r.id, items];
    }),
  );
}
