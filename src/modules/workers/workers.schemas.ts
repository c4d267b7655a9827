// Worker API schemas (DECISIONS 6): what a worker sees of its tasks and what it reports.
import { Type, type Static } from 'typebox';
import type { ErrorCode } from '../../errors.ts';
import { DateTime, HttpUrl, Id, Nullable, StringEnum, ref } from '../../schemas/common.ts';
import { NextCursor, pageQuery } from '../../schemas/pagination.ts';
import { Platform, ACCOUNT_STATUSES, WORKER_STATUSES } from '../accounts/index.ts';
import { Sound } from '../posts/index.ts';

/** Counters are whole numbers within JavaScript's exact integer range. */
const Counter = (description: string) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });

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
          sha256: Type.Optional(
            Type.String({
              description: 'SHA-256 (hex) of an uploaded file, to check the download against',
            }),
          ),
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
    proofScreenshotUrl: Nullable(
      Type.String({
        format: 'uri',
        description: 'The screenshot sent as proof of the post (an expiring signed URL)',
      }),
    ),
  },
  { $id: 'WorkerTask', additionalProperties: false },
);
export type TaskOut = Static<typeof Task>;

export const ClaimBody = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 50, description: 'Most tasks to claim (default 10)' }),
    ),
    accountId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Claim only tasks of this account, one this worker operates',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Send `{}` to claim up to 10 tasks of any account this worker operates.',
  },
);
export type ClaimInput = Static<typeof ClaimBody>;

export const TaskListQuery = Type.Object(
  {
    ...pageQuery(25),
    state: Type.Optional(
      StringEnum(['released', 'claimed'], {
        description: 'Only tasks waiting for a claim, or only tasks this worker claimed',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TaskListInput = Static<typeof TaskListQuery>;

export const ClaimedTasks = Type.Object(
  { data: Type.Array(ref(Task), { description: 'The tasks claimed now; empty when none wait' }) },
  { additionalProperties: false },
);

export const TaskIdParams = Type.Object({ taskId: Id }, { additionalProperties: false });

export const TaskList = Type.Object(
  { data: Type.Array(ref(Task)), nextCursor: NextCursor },
  { additionalProperties: false },
);

export type ResultInput =
  { outcome: 'posted'; postUrl: string; postedAt?: string } | { outcome: 'failed'; reason: string };

/**
 * The outcome of a claimed task. One object with if/then rather than a oneOf of two, so a
 * validation error names the real field ("/reason must not be empty") instead of the first
 * branch's ("/postUrl is required").
 */
export const ResultBody = Type.Unsafe<ResultInput>({
  type: 'object',
  description:
    'The outcome of a claimed task: `{ "outcome": "posted", "postUrl", "postedAt"? }` or ' +
    '`{ "outcome": "failed", "reason" }`.',
  properties: {
    outcome: { type: 'string', enum: ['posted', 'failed'] },
    postUrl: HttpUrl('With `posted` (required): where the post is published'),
    postedAt: Type.String({
      format: 'date-time',
      description:
        'With `posted`: when it went out (default: now); not before the release, not in the future',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 500,
      pattern: '\\S',
      'x-pattern-message': 'must not be blank',
      description: 'With `failed` (required): why it did not go out',
    }),
  },
  required: ['outcome'],
  additionalProperties: false,
  if: { properties: { outcome: { const: 'posted' } }, required: ['outcome'] },
  then: {
    properties: { outcome: true, postUrl: true, postedAt: true },
    required: ['postUrl'],
    additionalProperties: false,
  },
  // A nested if, not a bare else: an unknown outcome must fail on /outcome, not on /reason.
  else: {
    if: { properties: { outcome: { const: 'failed' } }, required: ['outcome'] },
    then: {
      properties: { outcome: true, reason: true },
      required: ['reason'],
      additionalProperties: false,
    },
  },
});

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
    // accounts.followers is a 32-bit integer column (PostgreSQL `integer`).
    followers: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Followers now' }),
    posts: Counter('Posts on the account'),
    engagement: Type.Number({
      minimum: 0,
      maximum: 1_000_000,
      description:
        'Engagement rate of the scanned posts as a percentage (4.25 means 4.25 %), stored ' +
        'rounded to two decimals',
    }),
    views: Counter('Views over the scanned posts'),
    likes: Counter('Likes over the scanned posts'),
    comments: Counter('Comments over the scanned posts'),
    scannedPosts: Counter('How many recent posts the figures cover'),
    status: Type.Optional(
      StringEnum(WORKER_STATUSES, {
        description:
          'The account’s status as the worker sees it, reported as by PUT ' +
          '/worker/v1/accounts/{accountId}/status without a reason (prefer that call). ' +
          '`paused` is the company’s and cannot be reported.',
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
    status: StringEnum(ACCOUNT_STATUSES, {
      description:
        'The account’s status: `paused` while its company paused it (releases stop; what this ' +
        'worker reports is kept and applies on resume), otherwise `reportedStatus`',
    }),
    statusSince: DateTime,
    reportedStatus: StringEnum(['pending_setup', ...WORKER_STATUSES], {
      description:
        'What this worker last reported (`pending_setup` until its first report): report ' +
        '`warming_up` while warming the account up with `warmup.searchTerms`, `active` when it ' +
        'can post, `disconnected` when it lost access',
    }),
    reportedAt: Nullable(
      Type.String({ format: 'date-time', description: 'When that report changed it' }),
    ),
    warmup: Type.Object(
      {
        searchTerms: Type.Array(Type.String(), {
          description: 'What to search for and watch while warming the account up',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'WorkerAccount', additionalProperties: false },
);
export type WorkerAccountOut = Static<typeof WorkerAccount>;

export const AccountStatusBody = Type.Object(
  {
    status: StringEnum(WORKER_STATUSES, {
      description:
        '`warming_up`: warming the account up; `active`: it can post; `disconnected`: access ' +
        'to it is lost. Releases go to `warming_up` and `active` accounts only.',
    }),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        pattern: '\\S',
        'x-pattern-message': 'must not be blank',
        description: 'Why, for the company to read (say, why the account is disconnected)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AccountStatusInput = Static<typeof AccountStatusBody>;

export const Heartbeat = Type.Object(
  {
    workerId: Type.String(),
    name: Type.String(),
    timezone: Type.String(),
    serverTime: DateTime,
    accounts: Type.Array(ref(WorkerAccount)),
    openTasks: Type.Object(
      { released: Type.Integer({ minimum: 0 }), claimed: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type HeartbeatOut = Static<typeof Heartbeat>;

/** The OpenAPI tag of every worker operation. */
export const WORKER_TAG = 'Worker API';

/** What every worker operation can answer: no scopes, no request meter, hence no 403 or 429. */
export const WORKER_AUTH_ERRORS: ErrorCode[] = ['unauthorized', 'internal_error'];

/** What every operation with a JSON body can also answer. */
export const BODY_ERRORS: ErrorCode[] = [
  'invalid_request',
  'unsupported_media_type',
  'request_too_large',
];
