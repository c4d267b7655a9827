// The webhooks module's face: what code outside the module may use. Everything else in
// this folder is the module's own.
export { claimDue, fanOut, prune, settleAttempts } from './webhook-deliveries.service.ts';
export type { Attempted, Claimed } from './webhook-deliveries.service.ts';
export {
  TEST_EVENT_TYPE,
  WEBHOOK_EVENTS,
  WEBHOOK_EVENT_TYPES,
  isWebhookEventType,
} from './event-catalog.rules.ts';
export type { SubscribableEventType } from './event-catalog.rules.ts';
export { webhookDocs } from './event-catalog.schemas.ts';
export {
  itemEvents,
  onEventsRecorded,
  recordAnalyticsUpdated,
  recordEvents,
} from './webhook-events.service.ts';
export type { NewEvent, PostItemEventData, PostItemEventType } from './webhook-events.service.ts';
export { sendWebhookDelivery } from './webhook-sender.service.ts';
export type { Transport } from './webhook-sender.service.ts';
export { eventPayloads, listAttempts, replayEvents } from './webhook-delivery-log.service.ts';
export { TEST_EVENTS_PER_MINUTE, sendTestEvent } from './webhook-test.service.ts';
export { webhookSchemas, webhooksRoutes } from './webhooks.routes.ts';
export {
  CreateWebhookBody,
  ListAttemptsQuery,
  ReplayBody,
  UpdateWebhookBody,
} from './webhooks.schemas.ts';
export type { CreateWebhookInput, UpdateWebhookInput } from './webhooks.schemas.ts';
export {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  setWebhookEnabled,
  updateWebhook,
} from './webhooks.service.ts';
