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
} as const satisfies Record<string, { schema: TSchema; description: string }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

export type WebhookEventData<T extends WebhookEventType> = Static<
  (typeof WEBHOOK_EVENTS)[T]['schema']
>;

export type PostItemEventType = Extract<WebhookEventType, `post.item.${string}`>;
export type PostItemEventData = Static<typeof PostItemData>;

export function isWebhookEventType(value: string): value is WebhookEventType {
  return Object.hasOwn(WEBHOOK_EVENTS, value);
}
