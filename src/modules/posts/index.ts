// The posts module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  carouselThumbnailKey,
  renderGaveUp,
  runRenderJob,
  slideKey,
} from './carousel-render.jobs.ts';
export { createPost, readPost } from './post-create.service.ts';
export { validatePost } from './post-validate.service.ts';
export { postOfCreateKey } from './idempotency.service.ts';
export { renderSlidePreview } from './slide-preview.service.ts';
export { listPosts } from './post-list.service.ts';
export { postDeliveryRecords } from './post-delivery-records.service.ts';
export type { DeliveryRecordOut } from './post-delivery-records.schemas.ts';
export { postExists } from './post-lookup.service.ts';
export { postLabels, queuePostAs } from './post-actions.service.ts';
export type { PostLabel } from './post-actions.service.ts';
export { cancelPost } from './post-cancel.service.ts';
export type { SkipReason } from './post-cancel.service.ts';
export { updatePost } from './post-update.service.ts';
export { reviewMedia } from './review-media.service.ts';
export { postMediaDetails } from './post-media-details.service.ts';
export type { PostMediaDetails } from './post-media-details.service.ts';
export { postSchemas, postsRoutes } from './posts.routes.ts';
export {
  CreatePostBody,
  ListPostsQuery,
  PostIdParams,
  QueuePostBody,
  Slide,
  Sound,
  TextStyle,
  UpdatePostBody,
} from './posts.schemas.ts';
export type {
  CancelledPostOut,
  CreatePostInput,
  SlideInput,
  ListPostsInput,
  PostOut,
  PostValidationOut,
  Problem,
  QueuePostInput,
  SoundInput,
  UpdatePostInput,
} from './posts.schemas.ts';
export {
  postMediaItems,
  postThumbnailUrl,
  readyThumbnails,
  thumbnailUrlUntil,
} from './posts.view.ts';
