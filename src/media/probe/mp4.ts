// MP4/MOV (ISO-BMFF and QuickTime) probe. It walks the top-level box headers with
// positioned reads (so `moov` may sit after a 200 MB `mdat`), reads the `moov` box and,
// for fragmented files, each `moof` box, and nothing else: the media data is never read.
//
// Fragmented MP4 is supported: duration and frame rate come from every fragment's
// `trun` sample durations (defaults from `tfhd`, then `trex`) laid on the `tfdt`
// timeline, and `mehd` when it is longer. All metadata read is capped (`moov` 64 MiB, one `moof` 16 MiB, 64 MiB in
// total) and every count is checked against its box, so work and memory are bounded
// by the file's real bytes, never by a declared number.
import {
  ProbeError,
  Reader,
  child,
  childrenOf,
  decodeHeader,
  invalid,
  isPrintableFourcc,
  label,
  parseBoxes,
  treeBudget,
} from './box.ts';
import type { Box } from './box.ts';
import { addFragments, readMovieExtendsDuration, readTrackExtends } from './fragments.ts';
import { checkNesting } from './demuxer-limits.ts';
import { checkFirstSample } from './first-sample.ts';
import { parseTrack, readTimeHeader } from './mp4-track.ts';
import type { ParsedTrack } from './mp4-track.ts';
import { describeFormat } from './sniff.ts';
import { WindowedReader, withFileSource } from './source.ts';
import type { ByteSource } from './source.ts';
import { MediaReadError } from './types.ts';
import type { TrackInfo, VideoInfo, VideoTrackInfo } from './types.ts';
import type { ByteRange } from './sample-tables.ts';

export const MOOV_MAX_BYTES = 64 * 1024 * 1024;
export const MOOF_MAX_BYTES = 16 * 1024 * 1024;
export const METADATA_MAX_BYTES = 64 * 1024 * 1024;
/** A 3-minute 60 fps file with one fragment per frame has ~40,000 top-level boxes. */
export const MAX_TOP_LEVEL_BOXES = 100_000;
const FTYP_MAX_BYTES = 4096;

export type Mp4Probe =
  | { ok: true; info: VideoInfo }
  | {
      ok: false;
      /** `not_mp4`: not an ISO-BMFF/QuickTime file; `invalid`: a broken or unusable one. */
      kind: 'not_mp4' | 'invalid';
      reason: string;
      /** True when the failure came from an unexpected exception (a parser defect). */
      unexpected: boolean;
    };

/**
 * Probes the MP4/MOV file at `path`. Returns a typed outcome for any content; throws
 * only MediaReadError when the file itself cannot be opened or read.
 */
export function probeMp4(path: string): Promise<Mp4Probe> {
  return withFileSource(path, (source) => probeMp4Source(source));
}

export async function probeMp4Source(source: ByteSource): Promise<Mp4Probe> {
  try {
    return { ok: true, info: await probe(source) };
  } catch (error) {
    if (error instanceof ProbeError) {
      return { ok: false, kind: error.kind, reason: error.message, unexpected: false };
    }
    if (error instanceof MediaReadError) throw error;
    return {
      ok: false,
      kind: 'invalid',
      reason: 'the MP4 structure could not be parsed',
      unexpected: true,
    };
  }
}

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

interface TopLevel {
  ftyp: { major: string; compatible: string[] } | null;
  moov: { start: number; end: number } | null;
  /** Copies of every `moof` box and where it starts, read during the walk (capped). */
  moofs: { at: number; bytes: Buffer }[];
  /** Payload ranges of the `mdat` boxes: where sample data may be. */
  mdats: ByteRange[];
}

async function probe(source: ByteSource): Promise<VideoInfo> {
  const top = await walkTopLevel(source);
  const container = containerOf(top);
  if (!top.moov) throw invalid("the file has no 'moov' box (movie header)");

  const moovSize = top.moov.end - top.moov.start;
  if (moovSize > MOOV_MAX_BYTES) {
    throw invalid(
      `the 'moov' box is ${moovSize} bytes, more than the ${MOOV_MAX_BYTES / 1048576} MiB accepted`,
    );
  }
  const buf = await readExactly(source, top.moov.start, moovSize, 'moov');
  const budget = treeBudget();
  const header = decodeHeader(buf, 0, buf.length, 'the file');
  const moov = parseBoxes(buf, header.headerSize, buf.length, 1, 'moov', budget);
  checkNesting(buf, header.headerSize, buf.length);
  const moovBox: Box = {
    type: 'moov',
    start: 0,
    payloadStart: header.headerSize,
    end: buf.length,
    children: moov,
  };

  const mvhdBox = child(moovBox, 'mvhd');
  if (!mvhdBox) throw invalid("the 'moov' box has no 'mvhd' (movie header)");
  const mvhd = readTimeHeader(Reader.of(buf, mvhdBox));
  if (mvhd.timescale === 0) throw invalid('the movie timescale is 0');
  const mvex = child(moovBox, 'mvex');
  const fragmented = mvex !== undefined;
  if (top.moofs.length > 0 && !fragmented) {
    throw invalid("the file has movie fragments but no 'mvex' box declaring them");
  }
  if (mvhd.duration === null && !fragmented) {
    throw invalid('the movie duration is marked unknown (all ones) in a non-fragmented file');
  }

  const traks = childrenOf(moovBox, 'trak');
  if (traks.length === 0) throw invalid('the movie has no tracks');
  const context = {
    buf,
    fragmented,
    budget,
    fileSize: source.size,
    mdats: top.mdats,
    movieTimescale: mvhd.timescale,
  };
  const tracks = traks.map((trak) => parseTrack(trak, context));

  let extendsDuration: number | null = null;
  if (fragmented) {
    extendsDuration = readMovieExtendsDuration(buf, mvex);
    addFragments(top.moofs, readTrackExtends(buf, mvex), tracks, context);
  }
  // The first frame must survive the decoder's NAL splitting; encrypted samples are
  // refused by the rules and cannot be read anyway.
  for (const t of tracks) {
    if (t.kind === 'video' && t.firstSample && t.lengthSize > 0 && !t.encrypted) {
      const lead = t.leadSamples.length > 0 ? t.leadSamples : [t.firstSample];
      for (const [i, sample] of lead.entries()) {
        // Only the first sample's first slice is parsed: the picture decoding starts from.
        const params = i === 0 ? t.params : null;
        await checkFirstSample(source, sample, t.lengthSize, `video track ${t.trackId}`, params);
      }
    }
  }

  const infos = tracks.map((t) => trackInfo(t, mvhd.timescale));
  const video = infos.find((t): t is VideoTrackInfo => t.kind === 'video');
  if (!video) throw invalid('the file has no video track');
  for (const t of infos) {
    if (t.kind === 'video' && t.sampleCount === 0)
      throw invalid(`video track ${t.trackId} has no samples`);
  }
  const audio = infos.find((t) => t.kind === 'audio');

  const movieSeconds = Math.max(mvhd.duration ?? 0, extendsDuration ?? 0) / mvhd.timescale;
  const durationSeconds = Math.max(movieSeconds, ...infos.map((t) => t.durationSeconds));
  return {
    container,
    brand: top.ftyp?.major ?? null,
    fragmented,
    sizeBytes: source.size,
    durationSeconds,
    width: video.width,
    height: video.height,
    rotation: video.rotation,
    videoCodec: video.codec,
    frameRate: video.frameRate,
    maxFrameRate: video.maxFrameRate,
    audioCodec: audio && audio.kind === 'audio' ? audio.codec : null,
    hasAudio: audio !== undefined,
    encrypted: infos.some((t) => t.kind !== 'other' && t.encrypted),
    tracks: infos,
  };
}

async function readExactly(
  source: ByteSource,
  start: number,
  length: number,
  what: string,
): Promise<Buffer> {
  const buf = await source.read(start, length);
  if (buf.length !== length) throw invalid(`the file is truncated inside the '${what}' box`);
  return buf;
}

async function walkTopLevel(source: ByteSource): Promise<TopLevel> {
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
function containerOf(top: TopLevel): 'mp4' | 'mov' {
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

function trackInfo(t: ParsedTrack, movieTimescale: number): TrackInfo {
  // The media duration is the longer of the header and the sample table, so neither a
  // short `mdhd` nor a short `stts` can hide the other.
  const mediaUnits = Math.max(t.mediaHeaderDuration ?? 0, t.durationSum);
  const mediaDurationSeconds = mediaUnits / t.timescale;
  // An edit list decides what is presented (AAC priming, trimmed starts); `tkhd` holds
  // its length in movie units. Without a usable one the media duration is presented.
  const durationSeconds =
    t.hasEditList && t.headerDuration !== null && t.headerDuration > 0
      ? t.headerDuration / movieTimescale
      : mediaDurationSeconds;
  const base = {
    trackId: t.trackId,
    fourcc: t.fourcc,
    timescale: t.timescale,
    sampleCount: t.sampleCount,
    mediaDurationSeconds,
    durationSeconds,
  };
  if (t.kind === 'audio') return { kind: 'audio', ...base, codec: t.codec, encrypted: t.encrypted };
  if (t.kind === 'other') return { kind: 'other', ...base, handler: t.handler };

  const timingSeconds = t.durationSum > 0 ? t.durationSum / t.timescale : mediaDurationSeconds;
  if (t.sampleCount > 1 && timingSeconds <= 0) {
    throw invalid(`video track ${t.trackId} has ${t.sampleCount} samples but no duration`);
  }
  const frameRate = timingSeconds > 0 ? t.sampleCount / timingSeconds : 0;
  const steadyRate = t.minSteadyDelta > 0 ? t.timescale / t.minSteadyDelta : 0;
  return {
    kind: 'video',
    ...base,
    codec: t.codec,
    encrypted: t.encrypted,
    width: t.displayWidth,
    height: t.displayHeight,
    codedWidth: t.codedWidth,
    codedHeight: t.codedHeight,
    spsWidth: t.sps?.width ?? null,
    spsHeight: t.sps?.height ?? null,
    rotation: t.rotation,
    frameRate,
    maxFrameRate: Math.max(frameRate, steadyRate),
  };
}
