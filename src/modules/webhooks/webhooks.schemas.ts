import { Type, type Static } from 'typebox';
import type { ErrorCode } from '../../errors.ts';
import { DateTime, Nullable, ref, StringEnum } from '../../schemas/common.ts';
import { NextCursor, pageQuery } from '../../schemas/pagination.ts';
import { WEBHOOK_EVENT_TYPES } from './event-catalog.rules.ts';

/** Endpoints a company may have. */
export const MAX_ENDPOINTS = 20;

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Where events are POSTed: https (http only for hosts the operator allows in ' +
    'REMOTE_FETCH_ALLOW); never a private, loopback or link-local address',
});
const Events = Type.Array(StringEnum(WEBHOOK_EVENT_TYPES), {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  uniqueItems: true,
  description: 'The event types sent to this endpoint',
});
const Description = Type.String({ maxLength: 500 });

export const WebhookEndpoint = Type.Object(
  {
    webhookId: Type.String(),
    url: Type.String(),
    description: Type.String(),
    events: Type.Array(StringEnum(WEBHOOK_EVENT_TYPES)),
    status: StringEnum(['active', 'failing', 'disabled'] as const, {
      description:
        '`failing` after a failed attempt until the next success; `disabled` by request, on ' +
        'a 410 answer, or after 5 days of failures (pending deliveries then fail)',
    }),
    disabledReason: Nullable(Type.String()),
    failingSince: Nullable(DateTime),
    lastSuccessAt: Nullable(DateTime),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'WebhookEndpoint', additionalProperties: false },
);
export type WebhookEndpointOut = Static<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...WebhookEndpoint.properties,
    secret: Type.String({
      description: 'The signing secret (`whsec_...`); shown only here and on rotation',
    }),
  },
  { additionalProperties: false },
);

export const CreateWebhookBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description) },
  { additionalProperties: false },
);
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookInput = Static<typeof UpdateWebhookBody>;

export const WebhookIdParams = Type.Object(
  { webhookId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const ListWebhooksQuery = Type.Object({ ...pageQuery(50) }, { additionalProperties: false });

export const WebhookPage = Type.Object(
  { data: Type.Array(ref(WebhookEndpoint)), nextCursor: NextCursor },
  { additionalProperties: false },
);

export const RotatedSecret = Type.Object(
  {
    webhookId: Type.String(),
    secret: Type.String({ description: 'The new signing secret' }),
    previousSecretExpiresAt: DateTime,
  },
  {
    additionalProperties: false,
    description:
      'Until previousSecretExpiresAt (24 hours) every delivery carries a signature by each ' +
      'secret, so receivers can switch at any time in between',
  },
);

export const ReplayBody = Type.Object(
  {
    eventId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'One event (its webhook-id)' }),
    ),
    since: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Every event of the subscribed types since this time (within 30 days)',
      }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of eventId and since' },
);
export type ReplayInput = Static<typeof ReplayBody>;

export const ReplayResult = Type.Object(
  {
    replayed: Type.Integer({ description: 'Events queued for delivery again' }),
    truncated: Type.Boolean({
      description: 'true when more than 10,000 events matched: replay again from the last one',
    }),
  },
  { additionalProperties: false },
);

export const TestEventResult = Type.Object(
  {
    eventId: Type.String({
      description: 'The test event’s id, sent as `webhook-id`; its attempts are in the log',
    }),
    deliveryId: Type.String({ description: 'Its delivery to the endpoint' }),
  },
  { additionalProperties: false },
);

export const WebhookAttempt = Type.Object(
  {
    attemptId: Type.String(),
    deliveryId: Type.String(),
    eventId: Type.String(),
    eventType: Type.String(),
    attempt: Type.Integer({ description: '1, 2, ... within the delivery (a replay starts at 1)' }),
    trigger: StringEnum(['scheduled', 'replay'] as const),
    startedAt: DateTime,
    durationMs: Type.Integer(),
    outcome: StringEnum(['succeeded', 'failed'] as const),
    responseStatus: Nullable(Type.Integer()),
    responseBody: Nullable(Type.String({ description: 'The first 1 KiB of the answer' })),
    error: Nullable(Type.String({ description: 'Why no HTTP answer came' })),
  },
  { $id: 'WebhookAttempt', additionalProperties: false },
);
export type WebhookAttemptOut = Static<typeof WebhookAttempt>;

export const ListAttemptsQuery = Type.Object(
  {
    ...pageQuery(50),
    eventId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    outcome: Type.Optional(StringEnum(['succeeded', 'failed'] as const)),
  },
  { additionalProperties: false },
);

export const AttemptPage = Type.Object(
  { data: Type.Array(ref(WebhookAttempt)), nextCursor: NextCursor },
  { additionalProperties: false },
);

export const WebhookDelivery = Type.Object(
  {
    deliveryId: Type.String(),
    eventId: Type.String(),
    eventType: Type.String(),
    status: StringEnum(['pending', 'succeeded', 'failed'] as const),
    attempts: Type.Integer(),
    nextAttemptAt: Nullable(DateTime),
    lastAttemptAt: Nullable(DateTime),
    lastResponseStatus: Nullable(Type.Integer()),
    createdAt: DateTime,
  },
  { $id: 'WebhookDelivery', additionalProperties: false },
);
export type WebhookDeliveryOut = Static<typeof WebhookDelivery>;

export const ListWebhookDeliveriesQuery = Type.Object(
  {
    ...pageQuery(50),
    status: Type.Optional(StringEnum(['pending', 'succeeded', 'failed'] as const)),
    eventId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const WebhookDeliveryPage = Type.Object(
  { data: Type.Array(ref(WebhookDelivery)), nextCursor: NextCursor },
  { additionalProperties: false },
);

/** The OpenAPI tags of every webhook operation. */
export const WEBHOOK_TAGS = ['webhooks'];

/** What every operation with a JSON body can also answer. */
export const BODY_ERRORS: readonly ErrorCode[] = [
  'invalid_request',
  'unsupported_media_type',
  'request_too_large',
];
