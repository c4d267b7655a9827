// The usage module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { RequestMeter } from './request-meter.jobs.ts';
export { usageRoutes } from './usage.routes.ts';
export {
  consumeDaily,
  consumePostQuota,
  consumeVideoQuota,
  planOf,
  postQuotaProblem,
  postsCreatedToday,
  readUsageDetail,
  videosUploaded,
} from './usage.service.ts';
