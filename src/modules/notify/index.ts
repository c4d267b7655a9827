// The notify module's face: what was already told (so that a reminder goes out once per
// occasion), and who asked not to be told (opt-outs and the signed unsubscribe links).
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
