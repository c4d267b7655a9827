// The posts module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { carouselScheduler, carouselThumbnailKey, slideKey } from './carousel-render.jobs.ts';
export { createPost, readPost } from './post-create.service.ts';
export { listPosts } from './posts-list.service.ts';
export { postDeliveries } from './post-deliveries.service.ts';
export type { DeliveryOut } from './post-deliveries.schemas.ts';
export { postExists } from './posts-lookup.service.ts';
export { reviewMedia } from './review-media.service.ts';
export { postSchemas, postsRoutes } from './posts.routes.ts';
export { ListPostsQuery, PostIdParams, Sound } from './posts.schemas.ts';
export type { ListPostsInput, SoundInput } from './posts.schemas.ts';
export {
  postMediaItems,
  postThumbnailUrl,
  readyThumbnails,
  thumbnailUrlUntil,
} from './posts.view.ts';
