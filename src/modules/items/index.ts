// The items module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export {
  ApprovalError,
  approve,
  calendarItems,
  changePriority,
  findTasks,
  itemCountsByStatus,
  itemsOfPost,
  itemsOfPosts,
  lockOpenItems,
  openTaskCounts,
  openTaskIds,
  pageQueue,
  postedByWorker,
  postedOfAccount,
  queueActivity,
  queuedItems,
  queuedOfAccountsIn,
  reject,
  releasedBetween,
  releasesSince,
} from './items.service.ts';
export type {
  CalendarRow,
  ItemWithAccount,
  PlanningRow,
  QueueActivityRow,
  QueueKey,
  QueueRow,
  TaskRow,
} from './items.service.ts';
export {
  UNCONFIRMED_REASON,
  cancelItems,
  claimItem,
  claimItems,
  enqueueItems,
  failProcessingItems,
  failUnreported,
  finishItem,
  openProcessedItems,
  queueAgain,
  releaseToSlots,
} from './items.state.ts';
export {
  POST_STATUSES,
  derivePostStatus,
  isCancellable,
  isEditable,
  isFinal,
  isPublished,
  openingStatus,
} from './items.status.ts';
export type { ItemStatus, PostStatus } from './items.status.ts';
