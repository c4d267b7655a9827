// Turns a slide's image bytes into the 1080 x 1920 RGBA pixels the text is
// drawn over, with a small cache so an image used by several slides (or a
// carousel rendered again) is decoded once.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { ImageFit } from './style.ts';

export const OUTPUT_WIDTH = 1080;
export const OUTPUT_HEIGHT = 1920;

// Each entry holds 1080 * 1920 * 4 bytes (about 8 MB); a carousel has at most
// 10 slides, and reuse is mostly neighbouring slides sharing an image.
const CACHE_ENTRIES = 4;
const cache = new Map<string, Promise<Uint8ClampedArray>>();

async function decode(bytes: Buffer, fit: ImageFit): Promise<Uint8ClampedArray> {
  const { data } = await sharp(bytes)
    // Phone photos carry their orientation in EXIF; honour it before cropping.
    .rotate()
    .resize(OUTPUT_WIDTH, OUTPUT_HEIGHT, {
      fit: fit === 'fill' ? 'cover' : 'contain',
      position: 'centre',
      background: { r: 0, g: 0, b: 0, alpha: 1 },
    })
    // Transparent PNG/WebP areas become black, the same as `fit` letterboxing.
    .flatten({ background: { r: 0, g: 0, b: 0 } })
    .ensureAlpha(1)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * RGBA pixels of the slide background: `fill` covers the canvas with a centre
 * crop, `fit` contains the whole image on black. The returned array is shared
 * with the cache and must not be modified.
 */
export function backgroundPixels(bytes: Buffer, fit: ImageFit): Promise<Uint8ClampedArray> {
  const key = `${fit}:${createHash('sha256').update(bytes).digest('base64')}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    // Re-insert so the Map's insertion order doubles as recency order.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const pending = decode(bytes, fit);
  cache.set(key, pending);
  pending.catch(() => cache.delete(key));
  while (cache.size > CACHE_ENTRIES) {
    const oldest = cache.keys().next();
    if (oldest.done === true) break;
    cache.delete(oldest.value);
  }
  return pending;
}

export function clearBackgroundCache(): void {
  cache.clear();
}
