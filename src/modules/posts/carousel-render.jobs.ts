// Carousel rendering (DECISIONS 4): off the request path, each slide becomes a
// 1080 x 1920 JPEG stored beside the post; then the post's items leave
// `processing` for their opening status. The work is a media job written with the post
// (dispatch/media-loop.ts runs it). Content that cannot be rendered (an image gone, one
// the renderer cannot decode) fails the items with the reason at once, and queueing later
// answers `media_not_ready`; storage that fails is tried again by the job, and fails the
// items only once its attempts are spent. Running twice writes the same slides.
import sharp from 'sharp';
import type { AppContext } from '../../context.ts';
import type { DbOrTx, PostsTable } from '../../db/types.ts';
import { IMAGE_LIMITS } from '../../media/probe/index.ts';
import { renderSlide, type SlideSpec } from '../../media/render/slide-renderer.ts';
import { uploadBlobKeys } from '../uploads/index.ts';
import { failProcessingItems, openProcessedItems } from '../items/index.ts';
import { addMediaJob, type MediaOutcome } from '../media-jobs/index.ts';
import * as repo from './posts.repository.ts';

export function slideKey(post: Pick<PostsTable, 'company_id' | 'id'>, index: number): string {
  return `posts/${post.company_id}/${post.id}/slide-${index}.jpg`;
}
export function carouselThumbnailKey(post: Pick<PostsTable, 'company_id' | 'id'>): string {
  return `posts/${post.company_id}/${post.id}/thumbnail.jpg`;
}

/** Content the renderer cannot make slides of: trying again would not help. */
class Unrenderable extends Error {}

/** The render job of a new carousel post, in the transaction that writes the post. */
export function addRenderJob(tx: DbOrTx, post: PostsTable): Promise<void> {
  return addMediaJob(tx, {
    kind: 'render',
    subjectId: post.id,
    companyId: post.company_id,
    at: post.created_at,
  });
}

/** Renders the post's slides as JPEGs and stores them and its thumbnail: the slides' keys. */
async function renderAndStoreSlides(
  ctx: AppContext,
  post: PostsTable,
  signal: AbortSignal,
): Promise<string[]> {
  const slides = JSON.parse(post.slides as string) as SlideSpec[];
  const ids = [...new Set(slides.map((s) => s.image))];
  const uploads = await uploadBlobKeys(ctx.db, post.company_id, ids);
  const bytes = new Map<string, Buffer>();
  for (const u of uploads) {
    const image = await ctx.blobs.read(u.blob_key, IMAGE_LIMITS.maxBytes);
    if (image) bytes.set(u.id, image);
  }
  const keys: string[] = [];
  let first: Buffer | null = null;
  for (const [i, slide] of slides.entries()) {
    signal.throwIfAborted();
    const image = bytes.get(slide.image);
    if (!image) throw new Unrenderable(`slide ${i}: image ${slide.image} is no longer available`);
    const jpeg = await renderSlide(slide, image).catch((err: unknown) => {
      throw new Unrenderable(`slide ${i}: ${(err as Error).message}`);
    });
    first ??= jpeg;
    const key = slideKey(post, i);
    await ctx.blobs.put(key, jpeg, { contentType: 'image/jpeg' });
    keys.push(key);
  }
  const thumb = await sharp(first as Buffer)
    .resize(270, 480)
    .jpeg({ quality: 80 })
    .toBuffer();
  await ctx.blobs.put(carouselThumbnailKey(post), thumb, { contentType: 'image/jpeg' });
  return keys;
}

/**
 * The render job of post `postId`: renders its slides and opens its items, or fails them
 * when its content cannot be rendered. A post no longer waiting for its slides (rendered
 * by an earlier attempt, or gone) needs nothing. Throws what is worth trying again.
 */
export async function runRenderJob(
  ctx: AppContext,
  companyId: string,
  postId: string,
  signal: AbortSignal,
): Promise<MediaOutcome> {
  const post = await repo.findPost(ctx.db, companyId, postId);
  if (!post || post.media_state !== 'processing') return { ok: true };
  let keys: string[];
  try {
    keys = await renderAndStoreSlides(ctx, post, signal);
  } catch (err) {
    if (!(err instanceof Unrenderable)) throw err;
    const reason = `Slides could not be rendered: ${err.message}`;
    await renderGaveUp(ctx, companyId, postId, err.message);
    return { ok: false, reason };
  }
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (tx) => {
    // Items before the post row: the lock order of every item change (items.state.ts).
    // Items cancelled meanwhile stay cancelled; the rest open as they would have, and
    // the post's status follows them.
    await openProcessedItems(tx, post.id, at);
    await repo.updatePost(tx, post.id, {
      media_state: 'ready',
      media_keys: JSON.stringify(keys),
      thumbnail_key: carouselThumbnailKey(post),
      updated_at: at,
    });
  });
  return { ok: true };
}

/** The post's slides will not be made (`why`): its items still processing fail with it. */
export async function renderGaveUp(
  ctx: AppContext,
  companyId: string,
  postId: string,
  why: string,
): Promise<void> {
  const reason = `Slides could not be rendered: ${why}`;
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (tx) => {
    const post = await repo.findPost(tx, companyId, postId);
    if (!post || post.media_state !== 'processing') return;
    await failProcessingItems(tx, postId, reason, at);
    await repo.updatePost(tx, postId, {
      media_state: 'failed',
      media_error: reason,
      updated_at: at,
    });
  });
}
