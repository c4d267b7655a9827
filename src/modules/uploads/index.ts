// The uploads module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { runThumbnailJob, thumbnailGaveUp, uploadThumbnailKey } from './thumbnail.jobs.ts';
// SPEC 2.1's media rules, for pages that check a file before sending it.
export { IMAGE_LIMITS, VIDEO_LIMITS } from '../../media/probe/index.ts';
export { failExpiredUploads } from './upload-expiry.service.ts';
export { uploadSchemas, uploadsRoutes } from './uploads.routes.ts';
export { CreateUploadBody, SignedQuery } from './uploads.schemas.ts';
export type { CreateUploadInput, CreatedUploadOut, UploadOut } from './uploads.schemas.ts';
export { readImageUpload, uploadHeldImage } from './upload-images.service.ts';
// The remote form of POST /v2/uploads, for the dashboard's import of posts from a file.
export { createRemoteUpload } from './upload-remote.service.ts';
export type { HeldImage } from './upload-images.service.ts';
export {
  completeUpload,
  createSignedUpload,
  findMediaUploads,
  getUpload,
  incomingKey,
  mediaPath,
  storeUploadBytes,
  uploadBlobKeys,
  uploadDurations,
  uploadFacts,
  uploadsWithThumbnail,
} from './uploads.service.ts';
export type { MediaUpload } from './uploads.service.ts';
export { PROOF_MAX_BYTES, proofTooLarge, storeProofImage } from './proof-images.service.ts';
