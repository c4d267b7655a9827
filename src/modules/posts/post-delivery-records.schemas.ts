// GET /v2/posts/{postId}/deliveries: the delivery record of each item of a post.
import { Type, type Static } from 'typebox';
import { DateTime, HttpUrl, Id, Nullable, StringEnum, ref } from '../../schemas/common.ts';
import { ITEM_STATUSES } from '../../schemas/statuses.ts';
import { Platform } from '../accounts/index.ts';

export const DeliveryRecordSlot = Type.Object(
  {
    start: Type.String({
      format: 'date-time',
      description: 'When the slot opened: the reference of `onTime`',
    }),
    localDate: Type.String({ description: "The release's day in the worker's timezone" }),
    label: Type.String({ description: 'The slot\'s local time, "HH:mm"' }),
    kind: StringEnum(['window', 'makeup'], {
      description:
        "`window`: one of the schedule's windows; `makeup`: a standard slot the schedule does not use, taking the place of a window that released nothing although an item was due",
    }),
  },
  { additionalProperties: false },
);

export const DeliveryRecord = Type.Object(
  {
    accountId: Id,
    username: Type.String(),
    platform: Platform,
    status: StringEnum(ITEM_STATUSES),
    releasedAt: Nullable(DateTime),
    claimedAt: Nullable(
      Type.String({ format: 'date-time', description: "When the account's worker took it" }),
    ),
    postedAt: Nullable(
      Type.String({ format: 'date-time', description: 'When it went out, as the worker reported' }),
    ),
    reportedAt: Nullable(
      Type.String({ format: 'date-time', description: "When the worker's report arrived" }),
    ),
    slot: Nullable(DeliveryRecordSlot),
    onTime: Nullable(
      Type.Boolean({
        description:
          'Whether it was posted within the grace (60 minutes unless the service is configured otherwise) after its slot opened; null until posted',
      }),
    ),
    minutesAfterSlotStart: Nullable(
      Type.Integer({ description: 'Minutes from the slot opening to the posting' }),
    ),
    postUrl: Nullable(HttpUrl()),
    failureReason: Nullable(Type.String()),
    proofScreenshotUrl: Nullable(
      Type.String({
        format: 'uri',
        description:
          'The screenshot the worker sent as proof (an expiring signed URL); null until the ' +
          'item is posted',
      }),
    ),
  },
  { $id: 'Delivery', additionalProperties: false },
);
export type DeliveryRecordOut = Static<typeof DeliveryRecord>;

export const PostDeliveryRecords = Type.Object(
  {
    postId: Id,
    deliveries: Type.Array(ref(DeliveryRecord), {
      description: 'One entry per account the post is queued for, in queue order',
    }),
  },
  { additionalProperties: false },
);
