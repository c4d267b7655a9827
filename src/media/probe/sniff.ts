// Names the format of a file from its first bytes, so a rejection can say what the
// file really is ("WebM/Matroska", "text") instead of only what it is not.

function startsWith(head: Uint8Array, bytes: number[], at = 0): boolean {
  return bytes.every((b, i) => head[at + i] === b);
}

function ascii(head: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...head.subarray(at, at + length));
}

const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

/** A short human label for well-known formats, or null when unrecognised. */
export function describeFormat(head: Uint8Array): string | null {
  if (head.length === 0) return 'an empty file';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'WebM/Matroska';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'a PNG image';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'a JPEG image';
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return 'a GIF image';
  if (ascii(head, 0, 4) === 'RIFF') {
    const kind = ascii(head, 8, 4);
    if (kind === 'WEBP') return 'a WebP image';
    if (kind === 'AVI ') return 'AVI';
    if (kind === 'WAVE') return 'WAV audio';
  }
  if (ascii(head, 0, 3) === 'FLV') return 'FLV';
  if (ascii(head, 0, 4) === 'OggS') return 'Ogg';
  if (ascii(head, 0, 3) === 'ID3' || startsWith(head, [0xff, 0xfb])) return 'MP3 audio';
  if (startsWith(head, [0x00, 0x00, 0x01, 0xba])) return 'MPEG program stream';
  if (head[0] === 0x47 && (head.length < 189 || head[188] === 0x47)) return 'MPEG transport stream';
  if (ascii(head, 4, 4) === 'ftyp') {
    const brand = ascii(head, 8, 4);
    if (HEIF_BRANDS.has(brand)) return 'a HEIF/HEIC image';
    if (AVIF_BRANDS.has(brand)) return 'an AVIF image';
  }
  if (looksLikeText(head)) return 'text';
  return null;
}

function looksLikeText(head: Uint8Array): boolean {
  const sample = head.subarray(0, 512);
  for (const b of sample) {
    if (b === 0x09 || b === 0x0a || b === 0x0d) continue;
    if (b < 0x20 || b === 0x7f) return false;
  }
  return true;
}
