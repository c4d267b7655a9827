export { createClient } from './client.ts';
export type { ClientOptions, ListItem, ListPath, SlotlineClient } from './client.ts';
export { SlotlineError, UploadFailedError } from './errors.ts';
export type { ErrorCode } from './errors.ts';
export type { FetchLike, RetryOptions } from './transport.ts';
export { WebhookVerificationError, verifyWebhook } from './webhooks.ts';
export type {
  VerifyWebhookOptions,
  WebhookEvent,
  WebhookHeaders,
  WebhookVerificationReason,
} from './webhooks.ts';
export type { components, operations, paths } from './schema.ts';
