// The notify module's face: what was already told (so that a reminder goes out once per
// occasion), who asked not to be told (opt-outs and the signed unsubscribe links), and
// each person's kinds, channels and quiet hours (recipientsFor, the notifications pages).
export { deleteMarksBefore, markNew, optedOut } from './notices.service.ts';
export type { Mark } from './notices.service.ts';
export { checkUnsubscribe, optIn, optOut, unsubscribeUrl } from './unsubscribe.service.ts';
export type { Unsubscribe } from './unsubscribe.service.ts';
export { approvalDueMail, approvalMissedMail, itemLine, leadWords } from './approval-mail.rules.ts';
export type { ApprovalFacts, WaitingItem } from './approval-mail.rules.ts';
export {
  accountDisconnectedMail,
  handoffUnclaimedMail,
  taskFailedMail,
  taskUnconfirmedMail,
} from './outcome-mail.rules.ts';
export type { AccountFacts, MailTo, TaskFacts } from './outcome-mail.rules.ts';
export { dailySummaryMail, yesterdayWords } from './summary-mail.rules.ts';
export type { SummaryFacts } from './summary-mail.rules.ts';
export {
  AUDIENCES,
  PERSONAL_CHANNELS,
  clockMinutes,
  kindOf,
  kindsOf,
  sendTimeFor,
  supports,
} from './notify-kinds.rules.ts';
export type { Audience, NotifyKind, PersonalChannel, QuietHours } from './notify-kinds.rules.ts';
export {
  ownersOptedIn,
  preferencesOf,
  recipientsFor,
  savePreferences,
} from './preferences.service.ts';
export type {
  KindChoice,
  Preferences,
  PreferencesInput,
  RecipientsRequest,
} from './preferences.service.ts';
