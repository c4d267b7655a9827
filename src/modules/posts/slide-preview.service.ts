// A preview of one carousel slide (the dashboard's composer): the slide drawn by the same
// renderer that makes a carousel post's media (carousel-render.jobs.ts), at half size,
// since it is looked at in a page, often and while being edited.
import sharp from 'sharp';
import { renderSlide } from '../../media/render/slide-renderer.ts';
import type { SlideInput } from './posts.schemas.ts';

/** Half of the rendered 1080 x 1920: sharp enough to judge the text, a fraction of the bytes. */
const PREVIEW_WIDTH = 540;
const PREVIEW_HEIGHT = 960;

/** The slide over `image` (the bytes of its background image) as a JPEG preview. */
export async function renderSlidePreview(slide: SlideInput, image: Buffer): Promise<Buffer> {
  const full = await renderSlide(slide, image);
  return sharp(full).resize(PREVIEW_WIDTH, PREVIEW_HEIGHT).jpeg({ quality: 82 }).toBuffer();
}
