// The top-level walk of an MP4/MOV file: box headers read with positioned reads, so `moov`
// may sit after a 200 MB `mdat`, copies of the `moof` boxes, and the file type. The media
// data is never read. Every size is capped (`ftyp` 4 KiB, one `moof` 16 MiB, 64 MiB of
// metadata in total, 100,000 boxes) before anything is read.
import { ProbeError, Reader, decodeHeader, invalid, isPrintableFourcc, label } from './box.ts';
import { describeFormat } from './sniff.ts';
import { WindowedReader } from './source.ts';
import type { ByteSource } from './source.ts';
import type { ByteRange } from './sample-tables.ts';

export const MOOF_MAX_BYTES = 16 * 1024 * 1024;
export const METADATA_MAX_BYTES = 64 * 1024 * 1024;
/** A 3-minute 60 fps file with one fragment per frame has ~40,000 top-level boxes. */
export const MAX_TOP_LEVEL_BOXES = 100_000;
const FTYP_MAX_BYTES = 4096;

/** Box types a QuickTime or ISO file may start with. */
const FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'uuid']);
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso7',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'mp71',
  'avc1',
  'hvc1',
  'dash',
  'cmfc',
  'cmf2',
  'msdh',
  'msix',
  'M4V ',
  'M4VH',
  'M4VP',
  'MSNV',
  'f4v ',
  'mmp4',
  'XAVC',
]);
const IMAGE_BRANDS = new Set([
  'heic',
  'heix',
  'heim',
  'heis',
  'hevc',
  'hevx',
  'mif1',
  'msf1',
  'avif',
  'avis',
]);

export interface TopLevel {
  ftyp: { major: string; compatible: string[] } | null;
  moov: { start: number; end: number } | null;
  /** Copies of every `moof` box and where it starts, read during the walk (capped). */
  moofs: { at: number; bytes: Buffer }[];
  /** Payload ranges of the `mdat` boxes: where sample data may be. */
  mdats: ByteRange[];
}

export async function readExactly(
  source: ByteSource,
  start: number,
  length: number,
  what: string,
): Promise<Buffer> {
  const buf = await source.read(start, length);
  if (buf.length !== length) throw invalid(`the file is truncated inside the '${what}' box`);
  return buf;
}

export async function walkTopLevel(source: ByteSource): Promise<TopLevel> {
  const top: TopLevel = { ftyp: null, moov: null, moofs: [], mdats: [] };
  if (source.size === 0) throw new ProbeError('not_mp4', 'the file is empty');
  const headers = new WindowedReader(source);
  let pos = 0;
  let count = 0;
  let metadata = 0;
  let room = source.size;
  // A box running past the end of the file is reported as truncation.
  const overflow = (type: string, declared: bigint) =>
    truncated(type, top, declared - BigInt(room));
  while (pos < source.size) {
    count += 1;
    if (count > MAX_TOP_LEVEL_BOXES)
      throw invalid(`the file has more than ${MAX_TOP_LEVEL_BOXES} top-level boxes`);
    const head = headers.peek(pos, 32) ?? (await headers.read(pos, 32));
    if (count === 1) checkFirstBox(head);
    if (head.length < 8) {
      if (head.every((b) => b === 0)) break;
      throw invalid(`the file ends with ${head.length} stray bytes after its last box`);
    }
    // Some recorders preallocate and leave zeros after the last box.
    if (top.moov && head.subarray(0, 8).every((b) => b === 0)) break;
    const type = head.toString('latin1', 4, 8);
    if (!isPrintableFourcc(type)) {
      throw invalid(`the file has unreadable data at offset ${pos} where a box was expected`);
    }
    room = source.size - pos;
    const header = decodeHeader(head, 0, room, 'the file', overflow);
    const end = header.size === null ? source.size : pos + header.size;
    if (header.type === 'ftyp' && !top.ftyp) {
      top.ftyp = await readFileType(source, pos, header.headerSize, end);
    } else if (header.type === 'moov') {
      if (top.moov) throw invalid("the file has more than one 'moov' box");
      top.moov = { start: pos, end };
      metadata += end - pos;
    } else if (header.type === 'moof') {
      metadata += end - pos;
      checkFragmentSize(end - pos, metadata);
      const bytes = headers.peek(pos, end - pos) ?? (await headers.read(pos, end - pos));
      if (bytes.length !== end - pos) throw invalid("the file is truncated inside a 'moof' box");
      // A copy: the window it came from is dropped at the next read.
      top.moofs.push({ at: pos, bytes: Buffer.from(bytes) });
    } else if (header.type === 'mdat') {
      top.mdats.push({ start: pos + header.headerSize, end });
    }
    pos = end;
  }
  return top;
}

function checkFirstBox(head: Buffer): void {
  const type = head.length >= 8 ? head.toString('latin1', 4, 8) : '';
  if (!FIRST_BOXES.has(type)) {
    const format = describeFormat(head);
    throw new ProbeError('not_mp4', `the file content is ${format ?? 'not MP4 or MOV'}`);
  }
  if (type === 'ftyp' && head.length >= 12 && IMAGE_BRANDS.has(head.toString('latin1', 8, 12))) {
    throw new ProbeError('not_mp4', `the file content is ${describeFormat(head) ?? 'an image'}`);
  }
}

function truncated(type: string, top: TopLevel, missing: bigint): ProbeError {
  if (type === 'moov') return invalid("the file is truncated inside the 'moov' box (movie header)");
  if (type === 'mdat' && !top.moov) {
    return invalid(
      "the file is truncated: it ends inside the media data and has no 'moov' box (movie header)",
    );
  }
  if (type === 'mdat')
    return invalid(`the file is truncated: the media data is missing its last ${missing} bytes`);
  return invalid(`the file is truncated inside the top-level box ${label(type)}`);
}

async function readFileType(
  source: ByteSource,
  start: number,
  headerSize: number,
  end: number,
): Promise<TopLevel['ftyp']> {
  if (end - start > FTYP_MAX_BYTES)
    throw invalid(`the 'ftyp' box is larger than ${FTYP_MAX_BYTES} bytes`);
  const buf = await readExactly(source, start, end - start, 'ftyp');
  const r = new Reader(buf, headerSize, buf.length, "box 'ftyp'");
  const major = r.fourcc();
  r.skip(4); // minor version
  const compatible: string[] = [];
  while (r.remaining >= 4) compatible.push(r.fourcc());
  return { major, compatible };
}

/**
 * `qt  ` as major brand → MOV; a major or compatible ISO brand → MP4; `qt  ` only among
 * the compatible brands → MOV. A QuickTime file without `ftyp` is MOV.
 */
export function containerOf(top: TopLevel): 'mp4' | 'mov' {
  if (!top.ftyp) return 'mov';
  const { major, compatible } = top.ftyp;
  if (major === 'qt  ') return 'mov';
  if (MP4_BRANDS.has(major) || compatible.some((b) => MP4_BRANDS.has(b))) return 'mp4';
  if (compatible.includes('qt  ')) return 'mov';
  throw new ProbeError(
    'not_mp4',
    `the file is an ISO media file of brand ${label(major)}, not MP4 or MOV`,
  );
}

function checkFragmentSize(size: number, metadata: number): void {
  if (size > MOOF_MAX_BYTES) {
    throw invalid(
      `a 'moof' box is ${size} bytes, more than the ${MOOF_MAX_BYTES / 1048576} MiB accepted`,
    );
  }
  if (metadata > METADATA_MAX_BYTES) {
    throw invalid(
      `the file's movie and fragment headers exceed ${METADATA_MAX_BYTES / 1048576} MiB`,
    );
  }
}
