// The catalog of webhook events: every type, what it means, and the schema of its `data`.
// The OpenAPI document lists them under `webhooks`, so the SDK types them too.
import { Type, type Static, type TSchema } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../schemas/common.ts';
import { ITEM_STATUSES, POST_STATUSES } from '../../schemas/statuses.ts';

const UploadData = Type.Object(
  {
    uploadId: Type.String(),
    kind: StringEnum(['video', 'image'] as const),
    status: StringEnum(['ready', 'failed'] as const),
    error: Nullable(Type.String({ description: 'Why the upload failed; null when ready' })),
  },
  { additionalProperties: false },
);

const PostCreatedData = Type.Object(
  {
    postId: Type.String(),
    status: StringEnum(POST_STATUSES),
    items: Type.Array(
      Type.Object(
        {
          queueItemId: Type.String(),
          accountId: Type.String(),
          status: StringEnum(ITEM_STATUSES),
        },
        { additionalProperties: false },
      ),
      { description: 'One queue item per target account; empty for a draft' },
    ),
  },
  { additionalProperties: false },
);

const PostItemData = Type.Object(
  {
    postId: Type.String(),
    queueItemId: Type.String(),
    accountId: Type.String(),
    status: StringEnum(ITEM_STATUSES, { description: "The item's status after the change" }),
    postUrl: Nullable(Type.String({ description: 'Where it was published, once posted' })),
    reason: Nullable(
      Type.String({ description: 'Why it failed, was rejected or was cancelled, when known' }),
    ),
    delivery: Type.Optional(
      Type.Object(
        {
          releasedAt: DateTime,
          claimedAt: Nullable(DateTime),
          postedAt: Type.String({
            format: 'date-time',
            description: 'When it went out, as the worker reported',
          }),
          slotStart: Nullable(
            Type.String({
              format: 'date-time',
              description: 'When the slot it was released into opened',
            }),
          ),
          onTime: Type.Boolean({
            description: 'Posted within the grace after its slot opened',
          }),
        },
        {
          additionalProperties: false,
          description:
            'With `post.item.posted` only: its proof of punctuality (GET /v2/posts/{postId}/deliveries has the rest)',
        },
      ),
    ),
    rejection: Type.Optional(
      Type.Object(
        {
          reason: Nullable(
            Type.String({
              minLength: 1,
              maxLength: 500,
              description:
                'Why the reviewer rejected it, as they wrote it (1-500 characters); null when ' +
                'rejected without one (the admin CLI)',
            }),
          ),
          rejectedBy: Type.Object(
            {
              userId: Nullable(
                Type.String({ description: 'The dashboard user; null for the operator' }),
              ),
              email: Nullable(
                Type.String({ description: "The dashboard user's email; null for the operator" }),
              ),
            },
            { additionalProperties: false, description: 'Who rejected it' },
          ),
          rejectedAt: DateTime,
        },
        {
          additionalProperties: false,
          description: 'With `post.item.rejected` only: who rejected the item, when and why',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const PostStatusData = Type.Object(
  {
    postId: Type.String(),
    status: StringEnum(POST_STATUSES),
    previousStatus: StringEnum(POST_STATUSES),
  },
  { additionalProperties: false },
);

const AccountStatusData = Type.Object(
  {
    accountId: Type.String(),
    status: Type.String({ description: 'The effective status after the change' }),
    previousStatus: Nullable(Type.String()),
    source: StringEnum(['worker', 'company', 'system'] as const),
    reason: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

const AnalyticsData = Type.Object(
  {
    postId: Type.String(),
    updatedAt: DateTime,
  },
  {
    additionalProperties: false,
    description: 'Read the figures with GET /v2/posts/{postId}/analytics',
  },
);

const WebhookTestData = Type.Object(
  {
    webhookId: Type.String({ description: 'The endpoint the test was sent to' }),
    message: Type.String({ description: 'A note for whoever reads the receiver’s log' }),
  },
  {
    additionalProperties: false,
    description:
      'Sent on request only (POST /v2/webhooks/{webhookId}/test or the dashboard), to that ' +
      'endpoint whatever its event types; nothing changed in Slotline',
  },
);

function item(status: string, what: string) {
  return { schema: PostItemData, description: `A queue item ${what} (item status \`${status}\`).` };
}

/** Every event type, in the order the document lists them. */
export const WEBHOOK_EVENTS = {
  'upload.ready': { schema: UploadData, description: 'An upload was validated and is ready.' },
  'upload.failed': { schema: UploadData, description: 'An upload failed validation or fetch.' },
  'post.created': { schema: PostCreatedData, description: 'A post was created.' },
  'post.item.pending_approval': item('pending_approval', 'waits for approval'),
  'post.item.approved': item('queued', 'was approved, or queued with skipApproval'),
  'post.item.rejected': item('cancelled', 'was rejected in review'),
  'post.item.released': item('posting', "was released to its account's worker"),
  'post.item.posted': item('posted', 'was published'),
  'post.item.failed': item('failed', 'failed'),
  'post.item.unconfirmed': item(
    'failed',
    'was claimed by a worker that never reported, so whether it was posted is unknown',
  ),
  'post.item.cancelled': item('cancelled', 'was cancelled'),
  'post.status_changed': {
    schema: PostStatusData,
    description: "A post's derived status changed.",
  },
  'account.status_changed': {
    schema: AccountStatusData,
    description: "An account's effective status changed.",
  },
  'analytics.updated': {
    schema: AnalyticsData,
    description: "A post's analytics changed; sent at most once per post per minute.",
  },
  'webhook.test': {
    schema: WebhookTestData,
    description:
      'A test event, sent on request to one endpoint to check that it receives and verifies deliveries.',
  },
} as const satisfies Record<string, { schema: TSchema; description: string }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
/** Every type of the catalog, subscribable or not, in the document's order. */
export const ALL_WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** The test event goes to the one endpoint it is sent to, so no endpoint subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test' satisfies WebhookEventType;
export type SubscribableEventType = Exclude<WebhookEventType, typeof TEST_EVENT_TYPE>;
/** The types an endpoint chooses from (`events`): every type but the test event. */
export const WEBHOOK_EVENT_TYPES = ALL_WEBHOOK_EVENT_TYPES.filter(
  (t): t is SubscribableEventType => t !== TEST_EVENT_TYPE,
);

export type WebhookEventData<T extends WebhookEventType> = Static<
  (typeof WEBHOOK_EVENTS)[T]['schema']
>;

export type PostItemEventType = Extract<WebhookEventType, `post.item.${string}`>;
export type PostItemEventData = Static<typeof PostItemData>;

export function isWebhookEventType(value: string): value is WebhookEventType {
  return Object.hasOwn(WEBHOOK_EVENTS, value);
}
