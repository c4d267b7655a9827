// One `trak` of a parsed `moov`: handler, timing, sample entry and sizes.
// Only the tables the rules need are read (stsd, stts, stsz/stz2, stco/co64); every
// entry count is checked against the bytes of its box before it is looped over.
import {
  Reader,
  child,
  childrenOf,
  decodeHeader,
  invalid,
  label,
  parseBoxes,
  path,
} from './box.ts';
import type { Box, TreeBudget } from './box.ts';
import { avcConfigSize, hevcConfigSize } from './sps.ts';
import type { PictureSize } from './sps.ts';
import type { Rotation } from './types.ts';

export interface ParsedTrack {
  trackId: number;
  handler: string;
  kind: 'video' | 'audio' | 'other';
  fourcc: string;
  codec: string;
  encrypted: boolean;
  timescale: number;
  /** `mdhd` duration in media timescale units; null when unknown (all ones). */
  mediaHeaderDuration: number | null;
  /** `tkhd` duration in movie timescale units; null when unknown. */
  headerDuration: number | null;
  hasEditList: boolean;
  sampleCount: number;
  /** Sum of sample durations in media timescale units. */
  durationSum: number;
  /** Shortest sample duration that repeats (a run of at least two), 0 when none. */
  minSteadyDelta: number;
  displayWidth: number;
  displayHeight: number;
  codedWidth: number;
  codedHeight: number;
  sps: PictureSize | null;
  rotation: Rotation;
  /** Highest chunk offset in `stco`/`co64`, -1 without chunks. */
  maxChunkOffset: number;
}

export interface TrackContext {
  buf: Uint8Array;
  fragmented: boolean;
  budget: TreeBudget;
}

const FIXED_ONE = 0x10000;

export function parseTrack(trak: Box, ctx: TrackContext): ParsedTrack {
  const { buf } = ctx;
  const tkhdBox = child(trak, 'tkhd');
  if (!tkhdBox) throw invalid("a track has no 'tkhd' (track header) box");
  const tkhd = readTkhd(Reader.of(buf, tkhdBox));
  const where = `track ${tkhd.trackId}`;
  const mdhdBox = path(trak, 'mdia', 'mdhd');
  if (!mdhdBox) throw invalid(`${where} has no 'mdhd' (media header) box`);
  const mdhd = readTimeHeader(Reader.of(buf, mdhdBox));
  if (mdhd.timescale === 0) throw invalid(`${where} has a media timescale of 0`);
  if (mdhd.duration === null && !ctx.fragmented) {
    throw invalid(`${where} marks its duration as unknown (all ones) in a non-fragmented file`);
  }
  const hdlrBox = path(trak, 'mdia', 'hdlr');
  const handler = hdlrBox ? readHandler(Reader.of(buf, hdlrBox)) : '';
  const stbl = path(trak, 'mdia', 'minf', 'stbl');
  if (!stbl) throw invalid(`${where} has no 'stbl' (sample table) box`);
  const stsdBox = child(stbl, 'stsd');
  if (!stsdBox) throw invalid(`${where} has no 'stsd' (sample description) box`);

  const kind = handler === 'vide' ? 'video' : handler === 'soun' ? 'audio' : 'other';
  const entry = readSampleDescription(stsdBox, kind, ctx, where);
  const timing = readTimeToSample(buf, child(stbl, 'stts'), where);
  checkSampleSizes(buf, child(stbl, 'stsz') ?? child(stbl, 'stz2'));

  const rotation = tkhd.rotation;
  let width = tkhd.width > 0 && tkhd.height > 0 ? tkhd.width : entry.width;
  let height = tkhd.width > 0 && tkhd.height > 0 ? tkhd.height : entry.height;
  if (rotation === 90 || rotation === 270) [width, height] = [height, width];

  return {
    trackId: tkhd.trackId,
    handler,
    kind,
    fourcc: entry.fourcc,
    codec: entry.codec,
    encrypted: entry.encrypted,
    timescale: mdhd.timescale,
    mediaHeaderDuration: mdhd.duration,
    headerDuration: tkhd.duration,
    hasEditList: path(trak, 'edts', 'elst') !== undefined,
    sampleCount: timing.count,
    durationSum: timing.sum,
    minSteadyDelta: timing.minSteady,
    displayWidth: width,
    displayHeight: height,
    codedWidth: entry.width,
    codedHeight: entry.height,
    sps: entry.sps,
    rotation,
    maxChunkOffset: maxChunkOffset(buf, child(stbl, 'stco') ?? child(stbl, 'co64')),
  };
}

function fullBox(r: Reader): { version: number; flags: number } {
  const version = r.u8();
  return { version, flags: r.u24() };
}

export interface TimeHeader {
  timescale: number;
  duration: number | null;
}

/** `mvhd` and `mdhd` share this layout up to the duration. */
export function readTimeHeader(r: Reader): TimeHeader {
  const { version } = fullBox(r);
  if (version > 1) throw invalid(`${r.where} has unknown version ${version}`);
  const wide = version === 1;
  r.skip(wide ? 16 : 8); // creation and modification times
  const timescale = r.u32();
  const unknown = r.allOnes(wide ? 8 : 4);
  const duration = wide ? r.u64() : r.u32();
  return { timescale, duration: unknown ? null : duration };
}

interface TrackHeader {
  trackId: number;
  duration: number | null;
  width: number;
  height: number;
  rotation: Rotation;
}

function readTkhd(r: Reader): TrackHeader {
  const { version } = fullBox(r);
  if (version > 1) throw invalid(`box 'tkhd' has unknown version ${version}`);
  const wide = version === 1;
  r.skip(wide ? 16 : 8);
  const trackId = r.u32();
  r.skip(4);
  const unknown = r.allOnes(wide ? 8 : 4);
  const duration = wide ? r.u64() : r.u32();
  r.skip(16); // reserved, layer, alternate group, volume, reserved
  const m = [r.i32(), r.i32(), r.i32(), r.i32(), r.i32(), r.i32(), r.i32(), r.i32(), r.i32()];
  const width = Math.round(r.u32() / FIXED_ONE);
  const height = Math.round(r.u32() / FIXED_ONE);
  return { trackId, duration: unknown ? null : duration, width, height, rotation: rotationOf(m) };
}

/**
 * Only the four exact quarter-turn matrices (a, b, c, d of ±1/0 in 16.16) count as a
 * rotation; any scaling, shear or mirroring matrix is reported as 0. The dimension
 * rule is orientation-free, so this only affects the reported display size.
 */
function rotationOf(m: number[]): Rotation {
  const [a = 0, b = 0, , c = 0, d = 0] = m;
  const one = FIXED_ONE;
  if (a === one && b === 0 && c === 0 && d === one) return 0;
  if (a === 0 && b === one && c === -one && d === 0) return 90;
  if (a === -one && b === 0 && c === 0 && d === -one) return 180;
  if (a === 0 && b === -one && c === one && d === 0) return 270;
  return 0;
}

function readHandler(r: Reader): string {
  fullBox(r);
  r.skip(4); // pre_defined (QuickTime: component type)
  return r.fourcc();
}

interface Timing {
  count: number;
  sum: number;
  minSteady: number;
}

function readTimeToSample(buf: Uint8Array, box: Box | undefined, where: string): Timing {
  if (!box) throw invalid(`${where} has no 'stts' (time-to-sample) box`);
  const r = Reader.of(buf, box);
  fullBox(r);
  const entries = r.u32();
  r.needRecords(entries, 8, 'entries');
  let count = 0;
  let sum = 0;
  let minSteady = 0;
  for (let i = 0; i < entries; i += 1) {
    const n = r.u32();
    const delta = r.u32();
    count += n;
    sum += n * delta;
    if (n >= 2 && delta > 0 && (minSteady === 0 || delta < minSteady)) minSteady = delta;
  }
  return { count, sum, minSteady };
}

function checkSampleSizes(buf: Uint8Array, box: Box | undefined): void {
  if (!box) return;
  const r = Reader.of(buf, box);
  fullBox(r);
  if (box.type === 'stsz') {
    const size = r.u32();
    const count = r.u32();
    if (size === 0) r.needRecords(count, 4, 'sample sizes');
    return;
  }
  r.skip(3);
  const fieldBits = r.u8();
  if (fieldBits !== 4 && fieldBits !== 8 && fieldBits !== 16) {
    throw invalid(`box 'stz2' has an invalid field size ${fieldBits}`);
  }
  const count = r.u32();
  r.needRecords(Math.ceil((count * fieldBits) / 8), 1, 'bytes of sample sizes');
}

function maxChunkOffset(buf: Uint8Array, box: Box | undefined): number {
  if (!box) return -1;
  const r = Reader.of(buf, box);
  fullBox(r);
  const entries = r.u32();
  const wide = box.type === 'co64';
  r.needRecords(entries, wide ? 8 : 4, 'chunk offsets');
  let max = -1;
  for (let i = 0; i < entries; i += 1) {
    const offset = wide ? r.u64() : r.u32();
    if (offset > max) max = offset;
  }
  return max;
}

interface SampleEntry {
  fourcc: string;
  codec: string;
  encrypted: boolean;
  width: number;
  height: number;
  sps: PictureSize | null;
}

/** Bytes between a sample entry header and its child boxes (14496-12 §12.1.3, §12.2.3). */
const VISUAL_ENTRY_FIELDS = 78;
const AUDIO_ENTRY_FIELDS = 28;

function readSampleDescription(
  stsd: Box,
  kind: ParsedTrack['kind'],
  ctx: TrackContext,
  where: string,
): SampleEntry {
  const { buf } = ctx;
  const r = Reader.of(buf, stsd);
  fullBox(r);
  const entries = r.u32();
  if (entries === 0) throw invalid(`${where} has no sample description`);
  r.needRecords(entries, 8, 'sample entries');
  let first: SampleEntry | undefined;
  for (let i = 0; i < entries; i += 1) {
    const header = decodeHeader(buf, r.pos, r.remaining, "'stsd'");
    if (header.size === null) throw invalid("a sample entry in 'stsd' has size 0");
    const entryBox: Box = {
      type: header.type,
      start: r.pos,
      payloadStart: r.pos + header.headerSize,
      end: r.pos + header.size,
      children: null,
    };
    const entry = readSampleEntry(entryBox, kind, ctx);
    if (first && entry.codec !== first.codec) {
      throw invalid(
        `${where} mixes sample entries ${label(first.fourcc)} and ${label(entry.fourcc)}`,
      );
    }
    first ??= entry;
    r.pos = entryBox.end;
  }
  // entries >= 1, so the loop assigned `first`.
  return first as SampleEntry;
}

function readSampleEntry(box: Box, kind: ParsedTrack['kind'], ctx: TrackContext): SampleEntry {
  const { buf } = ctx;
  const r = Reader.of(buf, box);
  const fourcc = box.type;
  const plain = { fourcc, codec: fourcc.trim(), encrypted: false, width: 0, height: 0, sps: null };
  if (kind === 'video') {
    r.skip(24);
    const width = r.u16();
    const height = r.u16();
    r.skip(VISUAL_ENTRY_FIELDS - 28);
    const children = parseBoxes(buf, r.pos, box.end, 8, fourcc, ctx.budget);
    const original = fourcc === 'encv' ? originalFormat(buf, children) : fourcc;
    const config = children.find((b) => b.type === 'avcC' || b.type === 'hvcC');
    const record = config ? buf.subarray(config.payloadStart, config.end) : undefined;
    const sps = !record
      ? null
      : config?.type === 'avcC'
        ? avcConfigSize(record)
        : hevcConfigSize(record);
    return {
      fourcc,
      codec: videoCodec(original),
      encrypted: fourcc === 'encv',
      width,
      height,
      sps,
    };
  }
  if (kind === 'audio') {
    r.skip(8);
    const version = r.u16();
    r.skip(AUDIO_ENTRY_FIELDS - 10);
    // QuickTime sound description versions 1 and 2 add fields before the children.
    if (version === 1) r.skip(16);
    else if (version === 2) r.skip(36);
    const children = parseBoxes(buf, r.pos, box.end, 8, fourcc, ctx.budget);
    const original = fourcc === 'enca' ? originalFormat(buf, children) : fourcc;
    return { ...plain, codec: audioCodec(original, buf, children), encrypted: fourcc === 'enca' };
  }
  return plain;
}

/** `sinf/frma` names the sample entry type an `encv`/`enca` entry replaces. */
function originalFormat(buf: Uint8Array, children: Box[]): string {
  const frma = children.find((b) => b.type === 'sinf')?.children?.find((b) => b.type === 'frma');
  if (!frma) return 'encrypted';
  return Reader.of(buf, frma).fourcc();
}

export function videoCodec(fourcc: string): string {
  if (fourcc === 'avc1' || fourcc === 'avc3') return 'h264';
  if (fourcc === 'hvc1' || fourcc === 'hev1') return 'hevc';
  return fourcc.trim();
}

const AUDIO_FOURCCS: Record<string, string> = {
  Opus: 'opus',
  '.mp3': 'mp3',
  'ac-3': 'ac3',
  'ec-3': 'eac3',
  fLaC: 'flac',
  alac: 'alac',
};

function audioCodec(fourcc: string, buf: Uint8Array, children: Box[]): string {
  if (fourcc !== 'mp4a') return AUDIO_FOURCCS[fourcc] ?? fourcc.trim();
  // ISO puts `esds` in the entry; QuickTime puts it inside a `wave` atom.
  const esds =
    children.find((b) => b.type === 'esds') ??
    childrenOf(
      children.find((b) => b.type === 'wave'),
      'esds',
    )[0];
  if (!esds) return 'mp4a';
  const oti = objectTypeIndication(Reader.of(buf, esds));
  if (oti === null) return 'mp4a';
  return OBJECT_TYPES[oti] ?? `mp4a.${oti.toString(16).padStart(2, '0')}`;
}

/** ISO/IEC 14496-1 objectTypeIndication values (MP4RA registry). */
const OBJECT_TYPES: Record<number, string> = {
  0x40: 'aac',
  0x66: 'aac',
  0x67: 'aac',
  0x68: 'aac',
  0x69: 'mp3',
  0x6b: 'mp3',
  0xa5: 'ac3',
  0xa6: 'eac3',
  0xad: 'opus',
  0xdd: 'vorbis',
};

/** Finds DecoderConfigDescriptor (tag 4) directly or inside ES_Descriptor (tag 3). */
function objectTypeIndication(r: Reader): number | null {
  fullBox(r);
  // Each step consumes at least a tag byte, so this loop ends with the box.
  while (r.remaining >= 2) {
    const tag = r.u8();
    const length = descriptorLength(r);
    const end = Math.min(r.end, r.pos + length);
    if (tag === 4) return r.u8();
    if (tag === 3) {
      r.skip(2); // ES_ID
      const flags = r.u8();
      if (flags & 0x80) r.skip(2);
      if (flags & 0x40) r.skip(r.u8());
      if (flags & 0x20) r.skip(2);
      continue;
    }
    r.pos = end;
  }
  return null;
}

/** Expandable size: up to four bytes of 7 bits, high bit set while more follow. */
function descriptorLength(r: Reader): number {
  let length = 0;
  for (let i = 0; i < 4; i += 1) {
    const b = r.u8();
    length = length * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) break;
  }
  return length;
}
