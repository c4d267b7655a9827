// MP4/MOV (ISO-BMFF and QuickTime) probe. It walks the top-level box headers with
// positioned reads (mp4-top-level.ts; so `moov` may sit after a 200 MB `mdat`), reads the
// `moov` box and, for fragmented files, each `moof` box, and nothing else: the media data
// is never read.
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
  parseBoxes,
  treeBudget,
} from './box.ts';
import type { Box } from './box.ts';
import { addFragments, readMovieExtendsDuration, readTrackExtends } from './fragments.ts';
import { checkNesting } from './demuxer-limits.ts';
import { checkFirstSample } from './first-sample.ts';
import { containerOf, readExactly, walkTopLevel } from './mp4-top-level.ts';
import { parseTrack, readTimeHeader } from './mp4-track.ts';
import type { ParsedTrack } from './mp4-track.ts';
import { withFileSource } from './source.ts';
import type { ByteSource } from './source.ts';
import { MediaReadError } from './types.ts';
import type { TrackInfo, VideoInfo, VideoTrackInfo } from './types.ts';

export { MAX_TOP_LEVEL_BOXES, METADATA_MAX_BYTES, MOOF_MAX_BYTES } from './mp4-top-level.ts';

export const MOOV_MAX_BYTES = 64 * 1024 * 1024;

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
