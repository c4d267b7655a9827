// Public entry points of the media probes; the upload endpoints import from here.
export {
  inspectVideo,
  inspectVideoSource,
  checkVideoInfo,
  checkDeclaredVideo,
  VIDEO_LIMITS,
} from './video-rules.ts';
export {
  inspectImage,
  inspectImageSource,
  checkImageSource,
  checkDeclaredImage,
  probeImageSource,
  IMAGE_LIMITS,
} from './image.ts';
export { probeMp4, probeMp4Source } from './mp4.ts';
export { FileSource, bufferSource, withFileSource } from './source.ts';
export { MediaReadError } from './types.ts';
export type { Mp4Probe } from './mp4.ts';
export type { ImageProbe } from './image.ts';
export type { ByteSource } from './source.ts';
export type {
  AudioTrackInfo,
  DeclaredMedia,
  ImageFormat,
  ImageInfo,
  ImageInspection,
  MediaErrorCode,
  MediaRejection,
  OtherTrackInfo,
  Rotation,
  TrackInfo,
  VideoInfo,
  VideoInspection,
  VideoTrackInfo,
} from './types.ts';
