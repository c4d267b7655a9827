// The alerts module's face: chat alert hooks (incoming webhooks in the Slack format) of a
// company or of the operator side, the alerts producers write for them as outbox rows, and
// the sender the chat loop uses.
export {
  ALERT_KIND_LABELS,
  COMPANY_ALERT_KINDS,
  ChatHookError,
  MAX_ALERT_TEXT,
  MAX_HOOKS,
  MAX_LABEL,
  MAX_URL,
  OPERATOR_ALERT_KINDS,
  TEST_ALERT_KIND,
  chatEscape,
  chatLink,
  chatText,
  checkHookUrl,
  defaultKinds,
  isAlertKind,
  kindLabel,
  kindWords,
  kindsOf,
  maskHookUrl,
} from './chat-alerts.rules.ts';
export type {
  AlertKind,
  ChatHookCode,
  ChatHookProblem,
  ChatMarkup,
  CompanyAlertKind,
  OperatorAlertKind,
} from './chat-alerts.rules.ts';
export {
  addChatHook,
  changeChatHook,
  chatHookNames,
  getChatHook,
  listChatHooks,
  removeChatHook,
} from './chat-hooks.service.ts';
export type { ChatHook, HookOwner, NewChatHook } from './chat-hooks.service.ts';
export {
  clipChatText,
  companiesWantingAlert,
  queueChatAlert,
  sendTestAlert,
} from './chat-alerts.service.ts';
export type { ChatAlert } from './chat-alerts.service.ts';
export { chatHookDesk } from './chat-hook-desk.service.ts';
export type { ChatHookDesk } from './chat-hook-desk.service.ts';
export { chatSender } from './chat-sender.service.ts';
export type { ChatPolicy } from './chat-sender.service.ts';
