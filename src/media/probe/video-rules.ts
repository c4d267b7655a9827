// SPEC 2.1 media rules for videos, applied to what the probe found in the file.
//
// Decisions (SPEC leaves them open):
// - Duration: at most 180 s plus 0.05 s, so a 180.0 s encode whose container rounds
//   up a frame or an AAC packet passes and 180.1 s or 181 s fails.
// - Dimensions are orientation-free: the longer side at most 3840 and the shorter at
//   most 2160, so portrait 2160x3840, landscape 3840x2160 and either one with a
//   rotation matrix all pass. The display size, the sample-entry size and the SPS
//   size (when readable) must all fit, so no one of them can understate the picture.
// - Frame rate: the average rate of each video track must round to at most 60 fps
//   (below 60.5), which accepts 59.94 and 60.0 and refuses 61. The steadiest peak
//   rate (`maxFrameRate`) is reported but not enforced: one short gap between two
//   frames of a variable-rate phone recording is not a 120 fps video.
// - Declared type: the filename must end in .mp4 or .mov and the content type must
//   be video/mp4 or video/quicktime (parameters ignored), and the bytes must really be
//   MP4 or MOV. A `.mov`/video/quicktime upload that holds ISO MP4, or the reverse, is
//   accepted: both are the same box format read by the same demuxer, and renamed
//   exports are common. `info.container` tells what the content really is.
// - A declared `sizeBytes` that differs from the stored file means a short or padded
//   upload and is refused as invalid_media_specs.
import { probeMp4Source } from './mp4.ts';
import { withFileSource, type ByteSource } from './source.ts';
import type { DeclaredMedia, MediaRejection, VideoInfo, VideoInspection } from './types.ts';

export const VIDEO_LIMITS = {
  maxBytes: 209_715_200,
  maxDurationSeconds: 180,
  durationToleranceSeconds: 0.05,
  maxLongSide: 3840,
  maxShortSide: 2160,
  maxFrameRate: 60,
  /** Rates below maxFrameRate + 0.5 round to at most 60. */
  frameRateTolerance: 0.5,
} as const;

const VIDEO_TYPES: Record<string, 'mp4' | 'mov'> = {
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
};
const VIDEO_EXTENSION = /\.(mp4|mov)$/i;

const AUDIO_OK = 'aac';
const VIDEO_CODECS_OK = new Set(['h264', 'hevc']);

function reject(code: MediaRejection['code'], error: string): MediaRejection {
  return { ok: false, code, error };
}

/** Lower-cased `type/subtype` without parameters. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** SPEC 2.1: filename extension and declared content type, before any byte is read. */
export function checkDeclaredVideo(declared: DeclaredMedia): MediaRejection | null {
  if (!VIDEO_EXTENSION.test(declared.filename.trim())) {
    return reject('unsupported_media_type', 'Video filename must end in .mp4 or .mov');
  }
  const type = mediaType(declared.contentType);
  if (!(type in VIDEO_TYPES)) {
    return reject(
      'unsupported_media_type',
      `Video content type "${declared.contentType}" is not supported; use video/mp4 or video/quicktime`,
    );
  }
  return null;
}

/** SPEC 2.1 and 8: at most 209,715,200 bytes, declared or stored. */
export function checkVideoSize(actualBytes: number, declaredBytes?: number): MediaRejection | null {
  const largest = Math.max(actualBytes, declaredBytes ?? 0);
  if (largest > VIDEO_LIMITS.maxBytes) {
    return reject(
      'file_too_large',
      `Video is ${largest} bytes, more than the ${VIDEO_LIMITS.maxBytes} byte (200 MB) limit`,
    );
  }
  if (declaredBytes !== undefined && declaredBytes !== actualBytes) {
    return reject(
      'invalid_media_specs',
      `Video file is ${actualBytes} bytes but ${declaredBytes} bytes were declared`,
    );
  }
  return null;
}

const fmt = (n: number) => n.toFixed(2);

/** SPEC 2.1 codec, duration, dimension and frame-rate rules on a probed file. */
export function checkVideoInfo(info: VideoInfo): MediaRejection | null {
  const invalidSpecs = (error: string) => reject('invalid_media_specs', error);
  if (info.encrypted) {
    return invalidSpecs('Video is encrypted (DRM-protected); upload an unencrypted file');
  }
  for (const track of info.tracks) {
    if (track.kind === 'video' && !VIDEO_CODECS_OK.has(track.codec)) {
      return invalidSpecs(`Video codec ${track.codec} is not supported; use H.264 or HEVC (H.265)`);
    }
    if (track.kind === 'audio' && track.codec !== AUDIO_OK) {
      return invalidSpecs(`Audio codec ${track.codec} is not supported; audio must be AAC`);
    }
  }
  const maxSeconds = VIDEO_LIMITS.maxDurationSeconds;
  if (info.durationSeconds > maxSeconds + VIDEO_LIMITS.durationToleranceSeconds) {
    return invalidSpecs(
      `Video duration ${fmt(info.durationSeconds)} s exceeds the ${maxSeconds} s (3 minute) limit`,
    );
  }
  for (const track of info.tracks) {
    if (track.kind !== 'video') continue;
    const sizes: [number, number][] = [
      [track.width, track.height],
      [track.codedWidth, track.codedHeight],
    ];
    if (track.spsWidth !== null && track.spsHeight !== null) {
      sizes.push([track.spsWidth, track.spsHeight]);
    }
    if (track.width <= 0 || track.height <= 0) {
      return invalidSpecs(`Video track ${track.trackId} does not declare its dimensions`);
    }
    for (const [w, h] of sizes) {
      if (Math.max(w, h) > VIDEO_LIMITS.maxLongSide || Math.min(w, h) > VIDEO_LIMITS.maxShortSide) {
        return invalidSpecs(
          `Video dimensions ${w}x${h} exceed the 2160x3840 limit (shorter side at most 2160 px, longer side at most 3840 px)`,
        );
      }
    }
    if (track.frameRate >= VIDEO_LIMITS.maxFrameRate + VIDEO_LIMITS.frameRateTolerance) {
      return invalidSpecs(
        `Video frame rate ${fmt(track.frameRate)} fps exceeds the ${VIDEO_LIMITS.maxFrameRate} fps limit`,
      );
    }
  }
  return null;
}

/** Maps a probe failure to the API outcome, as one sentence. */
function probeRejection(kind: 'not_mp4' | 'invalid', reason: string): MediaRejection {
  const sentence = reason.charAt(0).toUpperCase() + reason.slice(1);
  if (kind === 'not_mp4') {
    return reject('unsupported_media_type', `${sentence}; videos must be MP4 or MOV`);
  }
  return reject('invalid_media_specs', `Video cannot be read as MP4/MOV: ${reason}`);
}

/**
 * Validates the stored video at `path` against SPEC 2.1. Never throws for any file
 * content; throws MediaReadError only when the file cannot be opened or read.
 */
export async function inspectVideo(
  path: string,
  declared: DeclaredMedia,
): Promise<VideoInspection> {
  const declaredProblem = checkDeclaredVideo(declared);
  if (declaredProblem) return declaredProblem;
  return withFileSource(path, (source) => inspectVideoSource(source, declared));
}

/** The checks of `inspectVideo` over any byte source (a stored object read by ranges). */
export async function inspectVideoSource(
  source: ByteSource,
  declared: DeclaredMedia,
): Promise<VideoInspection> {
  const declaredProblem = checkDeclaredVideo(declared);
  if (declaredProblem) return declaredProblem;
  const sizeProblem = checkVideoSize(source.size, declared.sizeBytes);
  if (sizeProblem) return sizeProblem;
  const probe = await probeMp4Source(source);
  if (!probe.ok) return probeRejection(probe.kind, probe.reason);
  return checkVideoInfo(probe.info) ?? { ok: true, info: probe.info };
}
