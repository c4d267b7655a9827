// A full decode of an image's pixels, for images the service keeps as they are sent (a
// worker's proof screenshot): the probe reads headers only, so a file cut short in transfer
// passes it and fails later, when its thumbnail is made. sharp decodes every row here.
//
// - The pixels are pulled through a resize to a few pixels, not into a raw buffer: libvips
//   still decodes the whole image (PNG and WebP row by row, JPEG at a reduced DCT scale,
//   which still reads every entropy-coded block), but never holds a full-size copy.
// - `failOn: 'truncated'`: a stream that ends early is refused; harmless decoder warnings
//   (extra bytes after a JPEG's end marker) are not, as browsers show those images too.
// - HEIC/HEIF is not decoded: the prebuilt sharp has no HEVC decoder (see thumbnails.ts),
//   so its header check stays the only one.
import sharp from 'sharp';
import { IMAGE_LIMITS, type ImageFormat } from './probe/index.ts';

export type DecodeOutcome = { ok: true } | { ok: false; reason: string };

const NAMES: Record<'png' | 'jpeg' | 'webp', string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP' };

/** Decodes every pixel of `bytes` (an image of `format`, its header already checked). */
export async function decodeWholeImage(bytes: Buffer, format: ImageFormat): Promise<DecodeOutcome> {
  if (format === 'heic' || format === 'heif') return { ok: true };
  try {
    await sharp(bytes, {
      failOn: 'truncated',
      limitInputPixels: IMAGE_LIMITS.maxSide * IMAGE_LIMITS.maxSide,
    })
      .resize(8, 8, { fit: 'inside' })
      .raw()
      .toBuffer();
    return { ok: true };
  } catch {
    // The decoder's own words (libvips's "pngload_buffer: end of stream") mean nothing to
    // the sender; what it can act on is that the file is not whole.
    return {
      ok: false,
      reason: `the ${NAMES[format]} image data is cut short or damaged, so its pixels cannot be decoded`,
    };
  }
}
