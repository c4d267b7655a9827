// Carousel rendering (DECISIONS 4): off the request path, each slide becomes a
// 1080 x 1920 JPEG stored beside the post; then the post's items leave
// `processing` for their opening status. A failed render fails the items with
// the reason, and queueing later answers `media_not_ready`.
import sharp from 'sharp';
import type { AppContext } from '../../context.ts';
import type { DbOrTx, PostsTable } from '../../db/types.ts';
import { IMAGE_LIMITS } from '../../media/probe/index.ts';
import { renderSlide, type SlideSpec } from '../../media/render/slide-renderer.ts';
import { uploadBlobKeys } from '../uploads/index.ts';
import { failProcessingItems, openProcessedItems } from '../items/index.ts';
import * as repo from './posts.repository.ts';

export function slideKey(post: Pick<PostsTable, 'company_id' | 'id'>, index: number): string {
  return `posts/${post.company_id}/${post.id}/slide-${index}.jpg`;
}
export function carouselThumbnailKey(post: Pick<PostsTable, 'company_id' | 'id'>): string {
  return `posts/${post.company_id}/${post.id}/thumbnail.jpg`;
}

async function renderAll(ctx: AppContext, post: PostsTable): Promise<string[]> {
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
    const image = bytes.get(slide.image);
    if (!image) throw new Error(`slide ${i}: image ${slide.image} is no longer available`);
    const jpeg = await renderSlide(slide, image);
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

export async function renderCarousel(ctx: AppContext, post: PostsTable): Promise<void> {
  let keys: string[] | null = null;
  let error: string | null = null;
  try {
    keys = await renderAll(ctx, post);
  } catch (err) {
    error = `Slides could not be rendered: ${(err as Error).message}`;
  }
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (tx) => {
    if (keys) {
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
    } else {
      await failRender(tx, post.id, error as string, at);
    }
  });
}

/** The post has no usable media: its items still processing fail with the reason. */
async function failRender(tx: DbOrTx, postId: string, reason: string, at: string): Promise<void> {
  await failProcessingItems(tx, postId, reason, at);
  await repo.updatePost(tx, postId, { media_state: 'failed', media_error: reason, updated_at: at });
}

/** The hook post creation calls for carousels. */
export function carouselScheduler(ctx: AppContext): (post: PostsTable) => void {
  return (post) => {
    try {
      ctx.renders.enqueue(() => renderCarousel(ctx, post));
    } catch {
      // A full queue is retried by nothing yet: fail the items so the caller sees why.
      // Nobody awaits this, so its own failure goes where the queue's jobs' failures go.
      renderFailed(ctx, post).catch((err: unknown) => ctx.renders.report(err));
    }
  };
}

async function renderFailed(ctx: AppContext, post: PostsTable): Promise<void> {
  const at = ctx.clock.now().toISOString();
  const reason = 'Slides could not be rendered: the rendering queue is full';
  await ctx.db.transaction().execute((tx) => failRender(tx, post.id, reason, at));
}
