// The webhooks module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { claimDue, fanOut, prune, settleAttempts } from './deliveries.service.ts';
export type { Attempted, Claimed } from './deliveries.service.ts';
export { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from './webhook-events.catalog.ts';
export { webhookDocs } from './webhook-events.openapi.ts';
export {
  itemEvents,
  onEventsRecorded,
  recordAnalyticsUpdated,
  recordEvents,
} from './webhook-events.ts';
export type { NewEvent, PostItemEventData, PostItemEventType } from './webhook-events.ts';
export { sendDelivery } from './webhook-sender.ts';
export type { Transport } from './webhook-sender.ts';
export { listAttempts, replayEvents } from './webhooks.log.ts';
export { webhookSchemas, webhooksRoutes } from './webhooks.routes.ts';
export { CreateWebhookBody, ListAttemptsQuery, ReplayBody } from './webhooks.schemas.ts';
export type { CreateWebhookInput } from './webhooks.schemas.ts';
export {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  setWebhookEnabled,
} from './webhooks.service.ts';
