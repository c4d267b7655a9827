// Signed downloads of a post's rendered media: carousel slides and thumbnail.
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { REDIRECT_URL_MS, storedMedia, type MediaAnswer } from '../../media/media-urls.ts';
import { findPostMedia } from './posts.repository.ts';
import { postMediaPath } from './posts.view.ts';

export async function openPostMedia(
  ctx: AppContext,
  postId: string,
  part: string,
  expires: number,
  signature: string,
): Promise<MediaAnswer> {
  const path = postMediaPath(postId, part as 'thumbnail');
  const check = ctx.signer.check(path, expires, signature, ctx.clock.now());
  if (check === 'expired') throw new ApiError('invalid_signature', 'This URL has expired');
  if (check === 'invalid')
    throw new ApiError('invalid_signature', 'This URL’s signature is not valid');
  const post = await findPostMedia(ctx.db, postId);
  const slides = post?.media_keys ? (JSON.parse(post.media_keys) as string[]) : [];
  const key = part === 'thumbnail' ? post?.thumbnail_key : slides[Number(part.slice(6))];
  const missing = () => new ApiError('post_not_found', `Post ${postId} has no ${part}`);
  if (!key) throw missing();
  const until = new Date(ctx.clock.now().getTime() + REDIRECT_URL_MS);
  const redirect = ctx.media.direct({ path, key, contentType: 'image/jpeg' }, until);
  if (redirect) return { redirect };
  return storedMedia(ctx.blobs, key, 'image/jpeg', missing);
}
