// Worker API schemas (DECISIONS 6): what a worker sees of its tasks and what it reports.
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, StringEnum } from '../../schemas/common.ts';
import { NextCursor } from '../../http/pagination.ts';
import { Platform } from '../accounts/accounts.schemas.ts';
import { Sound } from '../posts/posts.schemas.ts';

/** Counters are whole numbers within JavaScript's exact integer range. */
const Counter = (description: string) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
const HttpUrl = (description: string) =>
  Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://', description });

export const TaskState = StringEnum(['released', 'claimed', 'posted', 'failed'], {
  description:
    '`released`: waiting for a claim; `claimed`: taken by this worker, report the outcome; ' +
    '`posted` and `failed`: final',
});

export const TaskMedia = Type.Object(
  {
    kind: StringEnum(['video', 'images', 'carousel'], {
      description: '`carousel`: slides rendered by the service, in order',
    }),
    items: Type.Array(
      Type.Object(
        {
          url: Type.String({ format: 'uri', description: 'Signed download URL' }),
          contentType: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
    thumbnailUrl: Nullable(Type.String({ format: 'uri' })),
    expiresAt: Type.String({ format: 'date-time', description: 'When the signed URLs expire' }),
  },
  { additionalProperties: false },
);

export const Task = Type.Object(
  {
    taskId: Type.String({ description: 'The released queue item' }),
    postId: Type.String(),
    accountId: Type.String(),
    platform: Platform,
    username: Type.String(),
    state: TaskState,
    caption: Nullable(Type.String()),
    hashtags: Type.Array(Type.String()),
    sound: Nullable(Sound),
    platformBPostFormat: StringEnum(['reel', 'post']),
    media: TaskMedia,
    releasedAt: DateTime,
    claimedAt: Nullable(Type.String({ format: 'date-time' })),
    reportBy: Nullable(
      Type.String({
        format: 'date-time',
        description:
          'Deadline for the outcome; an open task still unreported then fails as unconfirmed',
      }),
    ),
    postedAt: Nullable(Type.String({ format: 'date-time' })),
    postUrl: Nullable(Type.String({ format: 'uri' })),
    failureReason: Nullable(Type.String()),
  },
  { $id: 'WorkerTask', additionalProperties: false },
);
export type TaskOut = Static<typeof Task>;

export const ClaimBody = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 50, description: 'Most tasks to claim (default 10)' }),
    ),
    accountId: Type.Optional(Type.String({ description: 'Claim only tasks of this account' })),
  },
  { additionalProperties: false },
);
export type ClaimInput = Static<typeof ClaimBody>;

export const TaskListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    state: Type.Optional(StringEnum(['released', 'claimed'])),
  },
  { additionalProperties: false },
);
export type TaskListInput = Static<typeof TaskListQuery>;

export const TaskList = Type.Object(
  { data: Type.Array(Task), nextCursor: NextCursor },
  { additionalProperties: false },
);

export const ResultBody = Type.Union(
  [
    Type.Object(
      {
        outcome: Type.Literal('posted'),
        postUrl: HttpUrl('Where the post is published'),
        postedAt: Type.Optional(
          Type.String({ format: 'date-time', description: 'When it went out (default: now)' }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        outcome: Type.Literal('failed'),
        reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why it did not go out' }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'The outcome of a claimed task' },
);
export type ResultInput = Static<typeof ResultBody>;

export const SnapshotBody = Type.Object(
  {
    views: Counter('Views so far'),
    likes: Counter('Likes so far'),
    comments: Counter('Comments so far'),
    shares: Counter('Shares so far'),
    saves: Counter('Saves so far'),
    collectedAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'When counted (default: now)' }),
    ),
  },
  { additionalProperties: false },
);
export type SnapshotInput = Static<typeof SnapshotBody>;

export const AccountStatsBody = Type.Object(
  {
    followers: Counter('Followers now'),
    posts: Counter('Posts on the account'),
    engagement: Type.Number({
      minimum: 0,
      maximum: 1_000_000,
      description: 'Engagement of the account as a percentage',
    }),
    views: Counter('Views over the scanned posts'),
    likes: Counter('Likes over the scanned posts'),
    comments: Counter('Comments over the scanned posts'),
    scannedPosts: Counter('How many recent posts the figures cover'),
    status: Type.Optional(
      StringEnum(['warming_up', 'active', 'paused', 'disconnected'], {
        description: 'The account’s state as the worker sees it',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AccountStatsInput = Static<typeof AccountStatsBody>;

export const WorkerAccount = Type.Object(
  {
    accountId: Type.String(),
    platform: Platform,
    username: Type.String(),
    timezone: Type.String(),
    status: Type.String(),
  },
  { additionalProperties: false },
);

export const Heartbeat = Type.Object(
  {
    workerId: Type.String(),
    name: Type.String(),
    timezone: Type.String(),
    serverTime: DateTime,
    accounts: Type.Array(WorkerAccount),
    openTasks: Type.Object(
      { released: Type.Integer({ minimum: 0 }), claimed: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type HeartbeatOut = Static<typeof Heartbeat>;
