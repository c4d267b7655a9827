// The analytics module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { analyticsRoutes, analyticsSchemas } from './analytics.routes.ts';
export { AccountAnalytics, AnalyticsSnapshot } from './analytics.schemas.ts';
export {
  accountSnapshots,
  accountStatsOf,
  engagementRate,
  getAccountAnalytics,
  getPostAnalytics,
  lastSnapshotTimes,
  postAccountTotals,
  storeAccountStats,
  storeSnapshot,
  totalsByGroup,
} from './analytics.service.ts';
export type { AccountTotals, GroupTotals } from './analytics.service.ts';
