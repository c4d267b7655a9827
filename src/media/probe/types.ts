// Typed results of the media probes. The probes never throw on bad content: every
// outcome is one of these values. Only a file that cannot be read at all (missing,
// not a regular file, I/O error) raises MediaReadError, an infrastructure fault.

/** API error codes a media check can end in (SPEC 7, DECISIONS 1: 413 / 415 / 422). */
export type MediaErrorCode = 'file_too_large' | 'unsupported_media_type' | 'invalid_media_specs';

export interface MediaRejection {
  ok: false;
  code: MediaErrorCode;
  /** One human-readable sentence naming the problem and, where there is one, the limit. */
  error: string;
}

export type Rotation = 0 | 90 | 180 | 270;

export interface VideoTrackInfo {
  kind: 'video';
  trackId: number;
  /** Sample entry fourcc as stored (`avc1`, `hvc1`, `encv`, ...). */
  fourcc: string;
  /** `h264`, `hevc`, or the fourcc of the (original, when encrypted) sample entry. */
  codec: string;
  encrypted: boolean;
  timescale: number;
  sampleCount: number;
  /** Sum of sample durations (or the media header duration when larger), in seconds. */
  mediaDurationSeconds: number;
  /** Presentation duration: the edit-list duration from `tkhd` when the track has one. */
  durationSeconds: number;
  /** Display size: `tkhd` size (or the sample entry size), swapped for 90/270 rotation. */
  width: number;
  height: number;
  /** Size written in the sample entry. */
  codedWidth: number;
  codedHeight: number;
  /** Size decoded from the first SPS in `avcC`/`hvcC`, when it could be read. */
  spsWidth: number | null;
  spsHeight: number | null;
  rotation: Rotation;
  /** Average rate: samples / (sum of sample durations / timescale). */
  frameRate: number;
  /** Highest steady rate seen in the timing table (see mp4-track.ts); informational. */
  maxFrameRate: number;
}

export interface AudioTrackInfo {
  kind: 'audio';
  trackId: number;
  fourcc: string;
  /** `aac`, `mp3`, `opus`, `ac3`, `eac3`, `mp4a.<oti hex>`, or the fourcc. */
  codec: string;
  encrypted: boolean;
  timescale: number;
  sampleCount: number;
  mediaDurationSeconds: number;
  durationSeconds: number;
}

export interface OtherTrackInfo {
  kind: 'other';
  trackId: number;
  /** `hdlr` handler type, e.g. `tmcd`, `text`, `meta`. */
  handler: string;
  fourcc: string;
  timescale: number;
  sampleCount: number;
  mediaDurationSeconds: number;
  durationSeconds: number;
}

export type TrackInfo = VideoTrackInfo | AudioTrackInfo | OtherTrackInfo;

export interface VideoInfo {
  container: 'mp4' | 'mov';
  /** `ftyp` major brand, or null for a QuickTime file without `ftyp`. */
  brand: string | null;
  fragmented: boolean;
  sizeBytes: number;
  /** Longest of the movie header duration and every track's presentation duration. */
  durationSeconds: number;
  /** Summary of the first video track. */
  width: number;
  height: number;
  rotation: Rotation;
  videoCodec: string;
  frameRate: number;
  maxFrameRate: number;
  /** Summary of the first audio track, null without audio. */
  audioCodec: string | null;
  hasAudio: boolean;
  /** True when any audio or video track uses a protected sample entry (`encv`/`enca`). */
  encrypted: boolean;
  tracks: TrackInfo[];
}

export type VideoInspection = { ok: true; info: VideoInfo } | MediaRejection;

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'heic' | 'heif';

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
  sizeBytes: number;
}

export type ImageInspection = { ok: true; info: ImageInfo } | MediaRejection;

/** What the caller said about the upload (SPEC 4.1 signed form). */
export interface DeclaredMedia {
  filename: string;
  contentType: string;
  /** The declared `sizeBytes`; when given it must equal the stored file's size. */
  sizeBytes?: number;
}

/** The stored file could not be read (missing, not a regular file, I/O error). */
export class MediaReadError extends Error {
  readonly code = 'media_read_error';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaReadError';
  }
}
