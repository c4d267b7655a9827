// Thumbnails for ready uploads (DECISIONS 3: every ready upload has a thumbnailUrl).
// Images are decoded by sharp; videos by the ffmpeg binary of @ffmpeg-installer/ffmpeg,
// which hands one frame to sharp. Both end in the same small JPEG.
//
// Decisions:
// - Output: JPEG, quality 80, longest side at most 480 px, never upscaled, orientation
//   applied, no metadata (sharp drops EXIF/ICC unless told to keep them), transparency
//   flattened onto white so logos on transparent PNG/WebP don't turn black.
// - Images are bounded by limitInputPixels (8192 x 8192, the upload limit); the per-side
//   limit itself is the probe's job. sharp's global concurrency and cache are left at
//   their defaults: a library module must not retune a process-wide setting, and the
//   media loop (dispatch/media-loop.ts) already runs one thumbnail at a time.
// - HEIC: the prebuilt sharp/libvips reads HEIF headers but has no HEVC decoder, and the
//   bundled ffmpeg 4.1 has no HEIF demuxer, so HEVC-coded HEIC rejects with reason
//   'unsupported'. Callers treat that as "no thumbnail", not as a broken upload.
// - Video frame: `-ss` before `-i` with -noaccurate_seek and -vsync passthrough, so ffmpeg
//   jumps to the keyframe at or before the seek point and outputs it: one decoded frame
//   whatever the GOP length (exact seeking decoded up to a GOP of 4K HEVC: 1.3 s instead
//   of 0.3 s). Seek point: 1 s, or 10% of the duration for long clips, never past the
//   middle; the first frame for clips under 1 s, and as a retry when the seek point yields
//   no frame (duration unknown, or a stream shorter than the container says).
// - ffmpeg is confined: the mov/mp4 demuxer is forced (content sniffing could otherwise
//   pick a playlist demuxer that opens other files), only the `file` protocol is allowed,
//   the input is an absolute `file:` path (a name starting with '-' or holding ':' is not
//   an option or a protocol), no stdin, an empty environment (no FFREPORT), one thread and
//   a raised nice level so thumbnails never starve the API. It is killed on timeout and
//   when its output passes 64 MiB; the call settles only after the process has exited.
// - ffmpeg pre-scales the frame to at most 960 px (twice the thumbnail) and squares
//   non-square pixels, which keeps the piped PNG small for 4K input; sharp makes the final
//   480 px resize. Rotation metadata is applied by ffmpeg's autorotate (on by default; it
//   inserts the transpose before these filters).
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { IMAGE_LIMITS, probeMp4 } from './probe/index.ts';

export const THUMBNAIL_LIMITS = {
  /** Longest side of a thumbnail, in pixels. */
  maxSide: 480,
  quality: 80,
  /** Decoded image area accepted from sharp's input (the 8192 px a side upload limit). */
  maxInputPixels: IMAGE_LIMITS.maxSide * IMAGE_LIMITS.maxSide,
  /** Bytes of ffmpeg output buffered before it is killed. */
  maxFrameBytes: 64 * 1024 * 1024,
  videoTimeoutMs: 20_000,
  /** Niceness added to ffmpeg (0 = normal, 19 = lowest). */
  ffmpegNice: 10,
} as const;

/** Largest side of the frame ffmpeg hands to sharp: twice the thumbnail, for a clean downscale. */
const FRAME_MAX_SIDE = THUMBNAIL_LIMITS.maxSide * 2;
const STDERR_KEEP_CHARS = 2000;

/**
 * - `unavailable`: the input file or the ffmpeg binary cannot be used (an infrastructure
 *   fault; retrying later may succeed).
 * - `unsupported`: valid content this build cannot decode (HEVC-coded HEIC).
 * - `invalid`: the content cannot be decoded (corrupt, truncated, not an image/video).
 * - `no_frame`: the video decoded but produced no picture.
 * - `timeout`, `too_large`: ffmpeg was stopped at a limit.
 */
export type ThumbnailFailure =
  'unavailable' | 'unsupported' | 'invalid' | 'no_frame' | 'timeout' | 'too_large';

export class ThumbnailError extends Error {
  readonly code = 'thumbnail_error';
  constructor(
    readonly reason: ThumbnailFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ThumbnailError';
  }
}

export interface VideoThumbnailOptions {
  /** Where to take the frame; by default chosen from the probed duration (see above). */
  atSeconds?: number;
  /** Limit for the whole call, ffmpeg included; default 20 s. */
  timeoutMs?: number;
  /** Another ffmpeg binary; default the one from @ffmpeg-installer/ffmpeg. */
  ffmpegPath?: string;
}

/**
 * JPEG thumbnail of the image at `input`, a path or the bytes themselves (PNG, JPEG,
 * WebP; HEIC when decodable).
 */
export async function imageThumbnail(input: string | Buffer): Promise<Buffer> {
  if (typeof input === 'string') await assertReadableFile(input);
  try {
    const image = sharp(input, {
      limitInputPixels: THUMBNAIL_LIMITS.maxInputPixels,
      autoOrient: true,
      // Warnings (stray bytes, odd markers) are common in camera files and harmless.
      failOn: 'error',
    });
    return await encodeThumbnail(image);
  } catch (error) {
    throw await classifyImageFailure(input, error);
  }
}

/** JPEG thumbnail of one frame of the MP4/MOV video at `inputPath` (H.264 or HEVC). */
export async function videoThumbnail(
  inputPath: string,
  options: VideoThumbnailOptions = {},
): Promise<Buffer> {
  const timeoutMs = options.timeoutMs ?? THUMBNAIL_LIMITS.videoTimeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  }
  if (options.atSeconds !== undefined && !(options.atSeconds >= 0 && options.atSeconds < 1e6)) {
    throw new RangeError(`atSeconds must be between 0 and 1e6, got ${options.atSeconds}`);
  }
  const deadline = Date.now() + timeoutMs;
  const path = resolve(inputPath);
  await assertReadableFile(path);
  const binary = options.ffmpegPath ?? bundledFfmpegPath();
  const at = options.atSeconds ?? seekSeconds(await probedDuration(path));

  let frame = await extractFrame(binary, path, at, deadline);
  if (frame === null && at > 0) frame = await extractFrame(binary, path, 0, deadline);
  if (frame === null) {
    throw new ThumbnailError('no_frame', 'ffmpeg decoded no video frame from the file');
  }
  try {
    return await encodeThumbnail(
      sharp(frame, { limitInputPixels: THUMBNAIL_LIMITS.maxInputPixels }),
    );
  } catch (error) {
    throw new ThumbnailError('invalid', 'the frame ffmpeg produced could not be read', {
      cause: error,
    });
  }
}

/** Seek point for a clip of `duration` seconds (null: unknown). */
export function seekSeconds(duration: number | null): number {
  if (duration === null || !Number.isFinite(duration)) return 1;
  if (duration < 1) return 0;
  return Math.min(Math.max(1, duration * 0.1), duration / 2);
}

function encodeThumbnail(image: sharp.Sharp): Promise<Buffer> {
  const side = THUMBNAIL_LIMITS.maxSide;
  return image
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: THUMBNAIL_LIMITS.quality })
    .toBuffer();
}

async function assertReadableFile(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    throw new ThumbnailError('unavailable', `cannot read the input file: ${errorText(error)}`, {
      cause: error,
    });
  }
  if (!isFile) throw new ThumbnailError('unavailable', 'the input is not a regular file');
}

async function classifyImageFailure(
  path: string | Buffer,
  error: unknown,
): Promise<ThumbnailError> {
  if (error instanceof ThumbnailError) return error;
  // Reading the header again tells "valid HEIC we cannot decode" from "broken file".
  const meta = await sharp(path)
    .metadata()
    .catch(() => null);
  if (meta?.format === 'heif' && meta.compression === 'hevc') {
    return new ThumbnailError(
      'unsupported',
      'HEVC-coded HEIC images cannot be decoded by this build of sharp/libvips',
      { cause: error },
    );
  }
  return new ThumbnailError('invalid', `the image cannot be decoded: ${firstLine(error)}`, {
    cause: error,
  });
}

async function probedDuration(path: string): Promise<number | null> {
  try {
    const probe = await probeMp4(path);
    return probe.ok ? probe.info.durationSeconds : null;
  } catch (error) {
    throw new ThumbnailError('unavailable', `cannot read the input file: ${errorText(error)}`, {
      cause: error,
    });
  }
}

let ffmpegPathCache: string | undefined;

// Resolved on first use, not at import: the installer package throws when the binary
// for this platform is missing, which must fail a thumbnail, not the whole service.
function bundledFfmpegPath(): string {
  if (ffmpegPathCache !== undefined) return ffmpegPathCache;
  try {
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as {
      path: string;
    };
    ffmpegPathCache = installer.path;
    return installer.path;
  } catch (error) {
    throw new ThumbnailError('unavailable', `no ffmpeg binary: ${errorText(error)}`, {
      cause: error,
    });
  }
}

/**
 * How ffmpeg is confined before its input: no stdin, errors only, one thread, the
 * file protocol only and the mov demuxer forced, whatever the file claims to be.
 * Shared with the fuzzer's decode oracle, so both judge a file the same way.
 */
export const FFMPEG_CONFINEMENT: readonly string[] = [
  '-nostdin',
  '-hide_banner',
  '-loglevel',
  'error',
  '-threads',
  '1',
  '-protocol_whitelist',
  'file',
  '-f',
  'mov',
];

function ffmpegArguments(path: string, atSeconds: number): string[] {
  // Display size (square pixels) scaled to fit FRAME_MAX_SIDE, in one step so that an
  // absurd sample aspect ratio cannot ask for a giant intermediate picture.
  const fit = `min(1,${FRAME_MAX_SIDE}/max(iw*sar,ih))`;
  const scale = `scale=w='max(1,round(iw*sar*${fit}))':h='max(1,round(ih*${fit}))',setsar=1`;
  return [
    ...FFMPEG_CONFINEMENT,
    '-filter_threads',
    '1',
    '-ss',
    atSeconds.toFixed(3),
    '-noaccurate_seek',
    '-i',
    `file:${path}`,
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    // Keep the keyframe before the seek point, which has a negative timestamp after
    // input seeking; the default sync would drop it and decode on to the seek point.
    '-vsync',
    'passthrough',
    '-vf',
    scale,
    '-pix_fmt',
    'rgb24',
    '-threads',
    '1',
    '-f',
    'image2pipe',
    '-vcodec',
    'png',
    'pipe:1',
  ];
}

/** One PNG frame from ffmpeg, or null when it exited cleanly without writing one. */
function extractFrame(
  binary: string,
  path: string,
  atSeconds: number,
  deadline: number,
): Promise<Buffer | null> {
  const remainingMs = deadline - Date.now();
  if (remainingMs <= 0) return Promise.reject(timeoutError());
  return new Promise((resolvePromise, reject) => {
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(binary, ffmpegArguments(path, atSeconds), {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {},
      });
    } catch (error) {
      reject(
        new ThumbnailError('unavailable', `cannot start ffmpeg: ${errorText(error)}`, {
          cause: error,
        }),
      );
      return;
    }
    // With -threads 1 and -filter_threads 1 ffmpeg runs on one thread, the one this sets.
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, THUMBNAIL_LIMITS.ffmpegNice);
      } catch {
        // The process may already have exited; its priority no longer matters.
      }
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: ThumbnailError | null = null;
    let settled = false;

    const stop = (error: ThumbnailError) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(timeoutError()), remainingMs);

    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (failure) reject(failure);
      else if (code !== 0) reject(exitError(code, signal, stderr));
      else resolvePromise(size > 0 ? Buffer.concat(chunks, size) : null);
    };

    child.stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      size += chunk.length;
      if (size > THUMBNAIL_LIMITS.maxFrameBytes) {
        chunks.length = 0;
        stop(
          new ThumbnailError(
            'too_large',
            `ffmpeg wrote more than ${THUMBNAIL_LIMITS.maxFrameBytes} bytes for one frame`,
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_KEEP_CHARS);
    });
    child.on('error', (error) => {
      failure ??= new ThumbnailError('unavailable', `cannot run ffmpeg: ${errorText(error)}`, {
        cause: error,
      });
      // A process that never started emits no 'close' to wait for.
      if (child.pid === undefined) finish(null, null);
    });
    // 'close' comes after the process has exited and its pipes are drained, so a
    // settled call never leaves a running or unreaped ffmpeg behind.
    child.on('close', finish);
  });
}

function timeoutError(): ThumbnailError {
  return new ThumbnailError('timeout', 'ffmpeg did not produce a frame in time and was stopped');
}

function exitError(
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
): ThumbnailError {
  const detail = stderr.trim().split('\n').slice(-3).join(' | ');
  if (code === null) {
    return new ThumbnailError('unavailable', `ffmpeg was killed by ${signal ?? 'a signal'}`);
  }
  return new ThumbnailError(
    'invalid',
    `ffmpeg could not decode the video (exit ${code})${detail ? `: ${detail}` : ''}`,
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function firstLine(error: unknown): string {
  return errorText(error).split('\n')[0] ?? '';
}
