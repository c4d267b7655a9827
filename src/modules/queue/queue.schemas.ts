import { Type, type Static } from 'typebox';
import { DateTime, ref, StringEnum } from '../../schemas/common.ts';
import { NextCursor, pageQuery } from '../../schemas/pagination.ts';
import { POST_STATUSES } from '../../schemas/statuses.ts';
import { NOT_PLANNED_REASONS } from '../accounts/index.ts';

const At = (description: string) => Type.String({ format: 'date-time', description });

/** SPEC 2.6. Optional fields are left out when they have no value, never sent as null. */
export const QueueItem = Type.Object(
  {
    postId: Type.String(),
    queueItemId: Type.String(),
    status: StringEnum(POST_STATUSES, {
      description:
        'Only items not yet final appear: `processing`, `pending_approval`, `queued`, `posting`',
    }),
    caption: Type.String({ description: 'The post’s caption; "" when it has none' }),
    thumbnailUrl: Type.Optional(
      Type.String({
        format: 'uri',
        description:
          'Signed URL of the post’s thumbnail, valid for an hour; absent while the post has none ' +
          '(a video thumbnail still being made)',
      }),
    ),
    queuedAt: DateTime,
    scheduledAfter: Type.Optional(At('Legacy earliest-release floor; only when the item has one')),
    scheduledSlotStart: Type.Optional(
      At(
        'Planned window start, for `queued` items only: the account’s effective schedule in its ' +
          'timezone, today’s releases and the queue as it stands now (recomputed as it ' +
          'changes). Absent while the account receives no releases (see `notPlannedReason`)',
      ),
    ),
    notPlannedReason: Type.Optional(
      StringEnum(NOT_PLANNED_REASONS, {
        description:
          'On `queued` items of an account that receives no releases, why none is planned: ' +
          '`account_pending_setup` (its worker has not reported it `warming_up` or `active` ' +
          'yet), `account_paused` (the company paused it; POST ' +
          '/v2/accounts/{accountId}/resume), `account_disconnected` (its worker lost access). ' +
          'The items keep their place and are planned again once the account can post.',
      }),
    ),
  },
  { $id: 'QueueItem', additionalProperties: false },
);
export type QueueItemOut = Static<typeof QueueItem>;

export const QueueQuery = Type.Object({ ...pageQuery(25) }, { additionalProperties: false });
export type QueueQueryInput = Static<typeof QueueQuery>;

export const QueuePage = Type.Object(
  { data: Type.Array(ref(QueueItem)), nextCursor: NextCursor },
  { additionalProperties: false },
);
