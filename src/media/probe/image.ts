// Image checks (DECISIONS 3): real PNG, JPEG, WebP or HEIC/HEIF content, at most
// 52,428,800 bytes (SPEC 2.1, 8) and at most 8192 px a side. The size is read from the
// format's header without decoding a pixel, with a few small positioned reads.
//
// Decisions:
// - The content decides the format; the declared content type must name that same
//   format. HEIF content may be declared image/heic or image/heif alike, since clients
//   label HEVC-coded HEIF both ways. AVIF is HEIF-based but not an accepted format.
// - The filename is not checked (SPEC sets no image filename rule).
// - The 8192 px limit applies to both sides whatever the orientation metadata says.
import { ProbeError, Reader, decodeHeader, invalid, parseBoxes, treeBudget } from './box.ts';
import type { Box } from './box.ts';
import { describeFormat } from './sniff.ts';
import { WindowedReader, withFileSource } from './source.ts';
import type { ByteSource } from './source.ts';
import { MediaReadError } from './types.ts';
import type {
  DeclaredMedia,
  ImageFormat,
  ImageInfo,
  ImageInspection,
  MediaRejection,
} from './types.ts';
import { mediaType } from './video-rules.ts';

export const IMAGE_LIMITS = { maxBytes: 52_428_800, maxSide: 8192 } as const;

const IMAGE_TYPES: Record<string, ImageFormat[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpeg'],
  'image/webp': ['webp'],
  'image/heic': ['heic', 'heif'],
  'image/heif': ['heic', 'heif'],
};

const FORMAT_NAMES: Record<ImageFormat, string> = {
  png: 'PNG',
  jpeg: 'JPEG',
  webp: 'WebP',
  heic: 'HEIC',
  heif: 'HEIF',
};

export type ImageProbe =
  | { ok: true; format: ImageFormat; width: number; height: number }
  | { ok: false; kind: 'unknown' | 'invalid'; reason: string; unexpected: boolean };

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const HEIF_BRANDS = new Set(['mif1', 'msf1']);
const META_MAX_BYTES = 16 * 1024 * 1024;
const MAX_JPEG_SEGMENTS = 4096;
const MAX_TOP_LEVEL_BOXES = 1024;

function reject(code: MediaRejection['code'], error: string): MediaRejection {
  return { ok: false, code, error };
}

/**
 * Validates the stored image at `path`. Never throws for any file content; throws
 * MediaReadError only when the file cannot be opened or read.
 */
/** The declared content type alone (SPEC 2.1), checked before any byte arrives. */
export function checkDeclaredImage(declared: DeclaredMedia): MediaRejection | null {
  if (!IMAGE_TYPES[mediaType(declared.contentType)]) {
    return reject(
      'unsupported_media_type',
      `Image content type "${declared.contentType}" is not supported; use image/png, image/jpeg, image/webp, image/heic or image/heif`,
    );
  }
  return null;
}

export async function inspectImage(
  path: string,
  declared: DeclaredMedia,
): Promise<ImageInspection> {
  const declaredProblem = checkDeclaredImage(declared);
  if (declaredProblem) return declaredProblem;
  return withFileSource(path, (source) => checkImageSource(source, declared));
}

/** `inspectImage` over any byte source (a stored object read by ranges). */
export async function inspectImageSource(
  source: ByteSource,
  declared: DeclaredMedia,
): Promise<ImageInspection> {
  return checkDeclaredImage(declared) ?? checkImageSource(source, declared);
}

/**
 * The checks of `inspectImage` over bytes from any source (a stored file, or bytes a
 * caller already holds, as the dashboard's workspace upload does). Never throws for any
 * content.
 */
export async function checkImageSource(
  source: ByteSource,
  declared: DeclaredMedia,
): Promise<ImageInspection> {
  const declaredProblem = checkDeclaredImage(declared);
  if (declaredProblem) return declaredProblem;
  const type = mediaType(declared.contentType);
  const accepted = IMAGE_TYPES[type] as ImageFormat[];
  const largest = Math.max(source.size, declared.sizeBytes ?? 0);
  if (largest > IMAGE_LIMITS.maxBytes) {
    return reject(
      'file_too_large',
      `Image is ${largest} bytes, more than the ${IMAGE_LIMITS.maxBytes} byte (50 MiB) limit`,
    );
  }
  if (declared.sizeBytes !== undefined && declared.sizeBytes !== source.size) {
    return reject(
      'invalid_media_specs',
      `Image file is ${source.size} bytes but ${declared.sizeBytes} bytes were declared`,
    );
  }
  const probe = await probeImageSource(source);
  if (!probe.ok && probe.kind === 'unknown') {
    return reject(
      'unsupported_media_type',
      `${probe.reason}; images must be PNG, JPEG, WebP or HEIC`,
    );
  }
  if (!probe.ok) return reject('invalid_media_specs', `Image cannot be read: ${probe.reason}`);
  const name = FORMAT_NAMES[probe.format];
  if (!accepted.includes(probe.format)) {
    return reject(
      'unsupported_media_type',
      `Image content is ${name} but its declared content type is ${type}`,
    );
  }
  const { width, height } = probe;
  if (width > IMAGE_LIMITS.maxSide || height > IMAGE_LIMITS.maxSide) {
    return reject(
      'invalid_media_specs',
      `Image dimensions ${width}x${height} exceed the ${IMAGE_LIMITS.maxSide} px per side limit`,
    );
  }
  const info: ImageInfo = { format: probe.format, width, height, sizeBytes: source.size };
  return { ok: true, info };
}

/** Format and pixel size from the header of an image; a typed outcome for any bytes. */
export async function probeImageSource(source: ByteSource): Promise<ImageProbe> {
  try {
    const head = await source.read(0, 32);
    const format = detect(head);
    if (!format) {
      const what = describeFormat(head);
      return {
        ok: false,
        kind: 'unknown',
        reason: `Image content is ${what ?? 'not a recognised image format'}`,
        unexpected: false,
      };
    }
    const size = await SIZE_READERS[format](source, head);
    if (size.width <= 0 || size.height <= 0)
      throw invalid(`the ${FORMAT_NAMES[format]} header declares an empty image`);
    return { ok: true, format, ...size };
  } catch (error) {
    if (error instanceof ProbeError)
      return { ok: false, kind: 'invalid', reason: error.message, unexpected: false };
    if (error instanceof MediaReadError) throw error;
    return {
      ok: false,
      kind: 'invalid',
      reason: 'the image header could not be parsed',
      unexpected: true,
    };
  }
}

function ascii(buf: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...buf.subarray(at, at + length));
}

function detect(head: Buffer): ImageFormat | null {
  if (
    head.length >= 8 &&
    head.readUInt32BE(0) === 0x89504e47 &&
    head.readUInt32BE(4) === 0x0d0a1a0a
  )
    return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return 'webp';
  if (ascii(head, 4, 4) === 'ftyp' && head.length >= 12) {
    const ftypSize = head.readUInt32BE(0);
    const brands = [ascii(head, 8, 4)];
    for (let at = 16; at + 4 <= Math.min(ftypSize, head.length); at += 4)
      brands.push(ascii(head, at, 4));
    const major = brands[0] ?? '';
    if (major === 'avif' || major === 'avis') return null;
    if (HEIC_BRANDS.has(major)) return 'heic';
    if (HEIF_BRANDS.has(major)) {
      if (brands.includes('avif') || brands.includes('avis')) return null;
      return brands.some((b) => HEIC_BRANDS.has(b)) ? 'heic' : 'heif';
    }
  }
  return null;
}

interface Size {
  width: number;
  height: number;
}

const SIZE_READERS: Record<ImageFormat, (source: ByteSource, head: Buffer) => Promise<Size>> = {
  png: pngSize,
  jpeg: jpegSize,
  webp: webpSize,
  heic: heifSize,
  heif: heifSize,
};

/** PNG: IHDR must be the first chunk (PNG spec §5.6). */
function pngSize(_source: ByteSource, head: Buffer): Promise<Size> {
  if (head.length < 24) throw invalid('the PNG file is truncated before its IHDR header');
  if (head.readUInt32BE(8) !== 13 || ascii(head, 12, 4) !== 'IHDR') {
    throw invalid('the PNG file does not start with an IHDR header');
  }
  const width = head.readUInt32BE(16);
  const height = head.readUInt32BE(20);
  if (width > 0x7fffffff || height > 0x7fffffff)
    throw invalid('the PNG header declares an impossible size');
  return Promise.resolve({ width, height });
}

/** JPEG: walks the marker segments up to the first SOFn (ITU T.81 §B.2). */
async function jpegSize(source: ByteSource): Promise<Size> {
  const headers = new WindowedReader(source);
  let pos = 2;
  for (let segment = 0; segment < MAX_JPEG_SEGMENTS; segment += 1) {
    const bytes = await headers.read(pos, 16);
    if (bytes.length < 2) throw invalid('the JPEG file is truncated inside its headers');
    if (bytes[0] !== 0xff) throw invalid(`the JPEG file has no marker at offset ${pos}`);
    // Fill bytes (extra 0xFF) may precede a marker; a run longer than the window is not sane.
    let i = 0;
    while (bytes[i] === 0xff && i < bytes.length - 1) i += 1;
    const marker = bytes[i] ?? 0xff;
    if (marker === 0xff) throw invalid(`the JPEG file has a run of fill bytes at offset ${pos}`);
    pos += i + 1;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd9 || marker === 0xda || marker === 0xd8 || marker === 0x00) {
      throw invalid('the JPEG file has no frame header (SOF) before its image data');
    }
    const r = new Reader(bytes, i + 1, bytes.length, 'the JPEG file (inside its headers)');
    const length = r.u16();
    if (length < 2) throw invalid(`the JPEG file has a segment of invalid length ${length}`);
    const isFrame =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (length < 8) throw invalid('the JPEG frame header is too short');
      r.skip(1); // sample precision
      const height = r.u16();
      const width = r.u16();
      if (height === 0)
        throw invalid('the JPEG frame header leaves the height to a later DNL marker');
      return { width, height };
    }
    pos += length;
    if (pos >= source.size) break;
  }
  throw invalid('the JPEG file has no frame header (SOF)');
}

/** WebP: RIFF header, then a VP8, VP8L or VP8X first chunk (WebP container spec). */
function webpSize(source: ByteSource, head: Buffer): Promise<Size> {
  if (head.length < 30) throw invalid('the WebP file is truncated before its image header');
  const riffSize = head.readUInt32LE(4);
  if (riffSize + 8 > source.size) throw invalid('the WebP file is truncated');
  const chunk = ascii(head, 12, 4);
  if (chunk === 'VP8 ') {
    if (head[23] !== 0x9d || head[24] !== 0x01 || head[25] !== 0x2a) {
      throw invalid('the WebP VP8 chunk does not start with a key frame');
    }
    return Promise.resolve({
      width: head.readUInt16LE(26) & 0x3fff,
      height: head.readUInt16LE(28) & 0x3fff,
    });
  }
  if (chunk === 'VP8L') {
    if (head[20] !== 0x2f) throw invalid('the WebP VP8L chunk has a bad signature');
    const bits = head.readUInt32LE(21);
    return Promise.resolve({ width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 });
  }
  if (chunk === 'VP8X') {
    return Promise.resolve({
      width: head.readUIntLE(24, 3) + 1,
      height: head.readUIntLE(27, 3) + 1,
    });
  }
  throw invalid(`the WebP file starts with an unknown chunk '${chunk}'`);
}

/**
 * HEIF (ISO/IEC 23008-12): the `ispe` property associated with the primary item
 * (`pitm` + `ipma`), or the largest `ispe` when the associations are absent.
 */
async function heifSize(source: ByteSource): Promise<Size> {
  let pos = 0;
  for (let count = 0; count < MAX_TOP_LEVEL_BOXES && pos < source.size; count += 1) {
    const head = await source.read(pos, 32);
    const header = decodeHeader(head, 0, source.size - pos, 'the file');
    const end = header.size === null ? source.size : pos + header.size;
    if (header.type === 'meta') {
      if (end - pos > META_MAX_BYTES)
        throw invalid(`the HEIF 'meta' box is larger than ${META_MAX_BYTES / 1048576} MiB`);
      const buf = await source.read(pos, end - pos);
      if (buf.length !== end - pos) throw invalid("the file is truncated inside the 'meta' box");
      return primarySize(buf, header.headerSize);
    }
    pos = end;
  }
  throw invalid("the HEIF file has no 'meta' box");
}

function primarySize(buf: Buffer, headerSize: number): Size {
  const budget = treeBudget();
  // `meta` is a full box: version and flags precede its children.
  const meta = parseBoxes(buf, headerSize + 4, buf.length, 1, 'meta', budget);
  const iprp = meta.find((b) => b.type === 'iprp');
  if (!iprp) throw invalid("the HEIF file has no 'iprp' (item properties) box");
  const inner = parseBoxes(buf, iprp.payloadStart, iprp.end, 2, 'iprp', budget);
  const ipco = inner.find((b) => b.type === 'ipco');
  if (!ipco) throw invalid("the HEIF file has no 'ipco' (property container) box");
  const properties = parseBoxes(buf, ipco.payloadStart, ipco.end, 3, 'ipco', budget);
  const primary = primaryItem(
    buf,
    meta.find((b) => b.type === 'pitm'),
  );
  const associated =
    primary === null
      ? null
      : associations(
          buf,
          inner.filter((b) => b.type === 'ipma'),
          primary,
        );
  const candidates = associated
    ? associated.flatMap((index) => (properties[index - 1] ? [properties[index - 1] as Box] : []))
    : properties;
  let best: Size | null = null;
  for (const property of candidates) {
    if (property.type !== 'ispe') continue;
    const r = Reader.of(buf, property);
    r.skip(4);
    const size = { width: r.u32(), height: r.u32() };
    if (associated) return size;
    if (!best || size.width * size.height > best.width * best.height) best = size;
  }
  if (!best)
    throw invalid("the HEIF file has no 'ispe' (image size) property for its primary image");
  return best;
}

function primaryItem(buf: Buffer, pitm: Box | undefined): number | null {
  if (!pitm) return null;
  const r = Reader.of(buf, pitm);
  const version = r.u8();
  r.skip(3);
  return version === 0 ? r.u16() : r.u32();
}

/** Property indexes (1-based) associated with `item` in the `ipma` boxes, or null. */
function associations(buf: Buffer, ipmas: Box[], item: number): number[] | null {
  for (const ipma of ipmas) {
    const r = Reader.of(buf, ipma);
    const version = r.u8();
    const flags = r.u24();
    const entries = r.u32();
    // Each entry is at least an item id and a count byte.
    r.needRecords(entries, version < 1 ? 3 : 5, 'item associations');
    for (let e = 0; e < entries; e += 1) {
      const id = version < 1 ? r.u16() : r.u32();
      const count = r.u8();
      const wide = (flags & 1) === 1;
      r.needRecords(count, wide ? 2 : 1, 'property associations');
      const indexes: number[] = [];
      for (let a = 0; a < count; a += 1) indexes.push(wide ? r.u16() & 0x7fff : r.u8() & 0x7f);
      if (id === item) return indexes;
    }
  }
  return null;
}
