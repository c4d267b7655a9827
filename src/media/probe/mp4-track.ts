// One `trak` of a parsed `moov`: handler, timing, sample entry and sizes. The sample
// tables of video and audio tracks are checked as a decoder will use them
// (sample-tables.ts); every entry count is checked against the bytes of its box before
// it is looped over.
import { Reader, child, invalid, path } from './box.ts';
import type { Box, TreeBudget } from './box.ts';
import { checkDataReferences } from './demuxer-limits.ts';
import { checkEditList } from './edit-list.ts';
import type { SliceParams } from './codec-config.ts';
import { readSampleDescription } from './sample-entry.ts';
import { checkSampleTables } from './sample-tables.ts';
import type { ByteRange } from './sample-tables.ts';
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
  /** The first sample's bytes (video and audio tracks), null without samples. */
  firstSample: ByteRange | null;
  /** The first samples in decoding order whose framing is checked (LEAD_SAMPLES). */
  leadSamples: ByteRange[];
  /** NAL length prefix size of H.264/HEVC samples, 0 for other codecs. */
  lengthSize: number;
  params: SliceParams | null;
}

export interface TrackContext {
  buf: Uint8Array;
  fragmented: boolean;
  budget: TreeBudget;
  fileSize: number;
  /** Payload ranges of the top-level `mdat` boxes, in file order. */
  mdats: ByteRange[];
  /** `mvhd` timescale: the unit of edit-list durations. */
  movieTimescale: number;
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
  if (!hdlrBox) throw invalid(`${where} has no 'hdlr' (handler) box`);
  const handler = readHandler(Reader.of(buf, hdlrBox));
  const stbl = path(trak, 'mdia', 'minf', 'stbl');
  if (!stbl) throw invalid(`${where} has no 'stbl' (sample table) box`);
  const stsdBox = child(stbl, 'stsd');
  if (!stsdBox) throw invalid(`${where} has no 'stsd' (sample description) box`);

  checkDataReferences(buf, trak, where);
  const kind = handler === 'vide' ? 'video' : handler === 'soun' ? 'audio' : 'other';
  const named = kind === 'other' ? where : `${kind} ${where}`;
  const description = readSampleDescription(stsdBox, kind, ctx, named);
  const entry = description.entry;
  const timing = readTimeToSample(buf, child(stbl, 'stts'), where);
  // Other tracks (timecode, text, metadata) are not decoded for playback or thumbnails:
  // only their chunk offsets are held to the file.
  const layout =
    kind === 'other'
      ? checkChunkOffsets(buf, child(stbl, 'stco') ?? child(stbl, 'co64'), ctx.fileSize, where)
      : checkSampleTables(stbl, {
          buf,
          where: named,
          kind,
          fileSize: ctx.fileSize,
          mdats: ctx.mdats,
          sampleEntries: description.count,
          timedSamples: timing.count,
        });

  // Fragmented tracks keep their samples in `moof`s; their edits are not checked here.
  if (kind === 'video' && !ctx.fragmented) {
    const timescales = { movie: ctx.movieTimescale, media: mdhd.timescale };
    checkEditList(buf, trak, stbl, timescales, named);
  }

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
    firstSample: layout.firstSample,
    leadSamples: 'leadSamples' in layout ? layout.leadSamples : [],
    lengthSize: entry.lengthSize,
    params: entry.params,
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

function checkChunkOffsets(
  buf: Uint8Array,
  box: Box | undefined,
  fileSize: number,
  where: string,
): { firstSample: null } {
  if (!box) return { firstSample: null };
  const r = Reader.of(buf, box);
  fullBox(r);
  const entries = r.u32();
  const wide = box.type === 'co64';
  r.needRecords(entries, wide ? 8 : 4, 'chunk offsets');
  for (let i = 1; i <= entries; i += 1) {
    const offset = wide ? r.u64() : r.u32();
    if (offset >= fileSize) {
      throw invalid(
        `${where}: chunk ${i} offset ${offset} is past the end of the file (${fileSize} bytes)`,
      );
    }
  }
  return { firstSample: null };
}
