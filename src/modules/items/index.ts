// The items module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  MAX_REJECT_REASON,
  approve,
  changePostPriority,
  changePriority,
  itemPlaces,
  reject,
  setReleaseFloor,
} from './items.service.ts';
export type { PostPriorityResult } from './items.service.ts';
export {
  deliveryRecordRows,
  itemCountsByStatus,
  itemsOfPost,
  itemsOfPosts,
  lockOpenItems,
  pageQueue,
  planningOfAccounts,
  queuedItems,
  queuedOfAccountsIn,
  rejectedAccounts,
  releasedBetween,
  releasesSince,
} from './item-reads.service.ts';
export type {
  AccountPlanningRow,
  DeliveryRecordRow,
  ItemWithAccount,
  PlanningRow,
  QueueKey,
  QueueRow,
} from './item-reads.service.ts';
export {
  dayTally,
  findTasks,
  openTaskCounts,
  openTaskIds,
  openTasksIn,
  pendingApprovalItems,
  postedByWorker,
  postedOfAccount,
} from './task-reads.service.ts';
export type { DayTally, OpenTaskRow, PendingApprovalRow, TaskRow } from './task-reads.service.ts';
export {
  calendarDetails,
  calendarQueued,
  calendarReleased,
  calendarReleasedCounts,
  calendarReleasedToday,
  calendarWaiting,
  queueActivity,
} from './calendar-reads.service.ts';
export type {
  CalendarDetailRow,
  CalendarOpenRow,
  CalendarReleasedRow,
  CalendarTodayRow,
  QueueActivityRow,
} from './calendar-reads.service.ts';
export {
  UNCLAIMED_REASON,
  UNCONFIRMED_REASON,
  attachProof,
  claimItem,
  claimItems,
  failUnreported,
  finishItem,
} from './released-items.state.ts';
export type { FailedUnreported } from './released-items.state.ts';
export {
  cancelItems,
  enqueueItems,
  failProcessingItems,
  newPostItems,
  openProcessedItems,
  queueAgain,
  releaseToSlots,
} from './items.state.ts';
export type { PostItemsRequest } from './items.state.ts';
export {
  POST_STATUSES,
  derivePostStatus,
  isCancellable,
  isEditable,
  isFinal,
  isPublished,
  openingStatus,
} from './item-status.rules.ts';
export type { ItemStatus, PostStatus } from './item-status.rules.ts';
export {
  DELIVERY_FIGURE_PERIODS,
  deliveryFigures,
  deliveryFigureTotals,
} from './delivery-figures.service.ts';
export type {
  DeliveryFigures,
  DeliveryFigurePeriod,
  DeliveryFigureScope,
} from './delivery-figures.service.ts';
export { DUE_SOON_MS, fulfilmentBoard } from './board.service.ts';
export type { BoardFilter, BoardSection, BoardTask, FulfilmentBoard } from './board.service.ts';
