// The posts module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { carouselScheduler, carouselThumbnailKey, slideKey } from './carousel.ts';
export { createPost, readPost } from './posts.create.ts';
export { listPosts } from './posts.list.ts';
export { postExists } from './posts.lookup.ts';
export { reviewMedia } from './posts.review-media.ts';
export { postSchemas, postsRoutes } from './posts.routes.ts';
export { ListPostsQuery, PostIdParams, Sound } from './posts.schemas.ts';
export type { ListPostsInput, SoundInput } from './posts.schemas.ts';
export {
  postMediaItems,
  postThumbnailUrl,
  readyThumbnails,
  thumbnailUrlUntil,
} from './posts.view.ts';
