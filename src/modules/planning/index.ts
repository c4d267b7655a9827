// The planning module's face: where items are planned, and choosing their windows.
export { plannedSlotStarts, plannedSlotsOfPost } from './planning.service.ts';
export {
  CHOICE_DAYS,
  accountWindows,
  moveItemToWindow,
  plannedStartFor,
} from './window-choices.service.ts';
export type {
  AccountWindows,
  MoveRefusal,
  MoveResult,
  PlanBasis,
  WindowChoice,
} from './window-choices.service.ts';
