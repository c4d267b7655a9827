// The outbox module's face: messages to people as rows, written by the modules whose events
// cause them and sent by the outbox loop (dispatch/outbox-loop.ts).
export {
  MAX_ATTEMPTS,
  MESSAGE_STATUSES,
  PUSH_HOST_HEADER,
  PUSH_OWNER_HEADER,
  claimMail,
  enqueueMail,
  enqueueMany,
  getMessage,
  listMessages,
  onMailEnqueued,
  outboxBacklog,
  retryDelayMs,
  sendMail,
  settleMail,
} from './outbox.service.ts';
export type {
  Channel,
  ClaimedMail,
  MailEnvelope,
  Mailing,
  MessageStatus,
  OutboxMessage,
  OutgoingMail,
  PushTarget,
  SendResult,
} from './outbox.service.ts';
export { smtpMailer, type Mailer } from './mail-transport.service.ts';
export { escapeHtml, mailDateTime, renderMail } from './mail-layout.rules.ts';
export { mailKindLabel } from './mail-kinds.rules.ts';
export type { MailContent, RenderedMail } from './mail-layout.rules.ts';
