// The uploads module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { makeThumbnail, thumbnailScheduler } from './thumbnail.jobs.ts';
export { failExpiredUploads } from './upload-expiry.service.ts';
export { uploadSchemas, uploadsRoutes } from './uploads.routes.ts';
export { SignedQuery } from './uploads.schemas.ts';
export {
  completeUpload,
  createSignedUpload,
  findMediaUploads,
  incomingKey,
  mediaPath,
  storeUploadBytes,
  uploadBlobKeys,
  uploadFacts,
  uploadThumbnailKey,
  uploadsWithThumbnail,
} from './uploads.service.ts';
export type { MediaUpload } from './uploads.service.ts';
export { PROOF_MAX_BYTES, storeProofImage } from './proof-images.service.ts';
