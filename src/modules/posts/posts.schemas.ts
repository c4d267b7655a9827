import { Type, type Static } from 'typebox';
import {
  DateTime,
  ErrorCodeSchema,
  HttpUrl,
  Id,
  Nullable,
  StringEnum,
  ref,
} from '../../schemas/common.ts';
import { Platform } from '../accounts/index.ts';
import { NextCursor, pageQuery } from '../../schemas/pagination.ts';
import { POST_STATUSES } from '../../schemas/statuses.ts';

const GROUP_PATTERN = '^(template|tag):[^:]+$';

export const PostStatus = StringEnum(POST_STATUSES);

export const Sound = Type.Object(
  {
    mode: StringEnum(['trending', 'original', 'specific']),
    url: Type.Optional(HttpUrl()),
    urlsByPlatform: Type.Optional(
      Type.Object(
        { platformA: Type.Optional(HttpUrl()), platformB: Type.Optional(HttpUrl()) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type SoundInput = Static<typeof Sound>;

// SPEC 2.3: every style field but positionY has a default, applied on the way in.
export const TextStyle = Type.Object(
  {
    backgroundColor: Type.Optional(
      StringEnum(['none', 'black', 'white', 'red', 'yellow', 'blue'], { default: 'none' }),
    ),
    textColor: Type.Optional(
      StringEnum(['white', 'black', 'red', 'yellow', 'blue'], { default: 'white' }),
    ),
    fontSize: Type.Optional(Type.Number({ minimum: 6, maximum: 72, default: 16 })),
    fontWeight: Type.Optional(StringEnum(['normal', 'bold'], { default: 'normal' })),
    textAlign: Type.Optional(StringEnum(['left', 'center', 'right'], { default: 'center' })),
    textMode: Type.Optional(
      StringEnum(['stroke', 'background', 'plain', 'snapchat'], { default: 'stroke' }),
    ),
    positionX: Type.Optional(Type.Number({ minimum: 0, maximum: 100, default: 50 })),
    positionY: Type.Number({ minimum: 0, maximum: 100 }),
    width: Type.Optional(Type.Number({ minimum: 20, maximum: 100, default: 88 })),
    padding: Type.Optional(Type.Number({ minimum: 0, maximum: 20, default: 0 })),
  },
  { additionalProperties: false },
);

export const TextElement = Type.Object(
  { content: Type.String({ minLength: 1, maxLength: 500 }), style: TextStyle },
  { additionalProperties: false },
);

export const Slide = Type.Object(
  {
    image: Id,
    textElements: Type.Array(TextElement, { maxItems: 6 }),
    imageFit: Type.Optional(StringEnum(['fit', 'fill'], { default: 'fill' })),
    role: Type.Optional(StringEnum(['hook', 'middle', 'cta'])),
  },
  { additionalProperties: false },
);
export type SlideInput = Static<typeof Slide>;

const ContentGroupIds = Type.Array(
  Type.String({
    maxLength: 240,
    pattern: GROUP_PATTERN,
    'x-pattern-message': 'must look like "tag:<tagId>" or "template:<templateId>"',
  }),
  { maxItems: 10 },
);

const metadata = {
  caption: Type.Optional(Type.String({ maxLength: 2200 })),
  hashtags: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 30 })),
  sound: Type.Optional(Sound),
  notes: Type.Optional(Type.String({ maxLength: 2000 })),
  priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  platformBPostFormat: Type.Optional(StringEnum(['reel', 'post'])),
  skipApproval: Type.Optional(Type.Boolean()),
};

const AccountIds = Type.Array(Id, { minItems: 1, maxItems: 50 });

export const CreatePostBody = Type.Object(
  {
    media: Type.Array(Id, { minItems: 1, maxItems: 10 }),
    accountIds: AccountIds,
    ...metadata,
    contentGroupIds: Type.Optional(ContentGroupIds),
    slides: Type.Optional(Type.Array(Slide, { minItems: 2, maxItems: 10 })),
  },
  { additionalProperties: false },
);
export type CreatePostInput = Static<typeof CreatePostBody>;

/** One problem a create with the body would meet (POST /v2/posts/validate). */
export const PostProblem = Type.Object(
  {
    code: ErrorCodeSchema('The error code POST /v2/posts would answer with'),
    message: Type.String({ description: 'What is wrong, naming the field' }),
    hint: Type.String({ description: 'The next step to take' }),
    field: Type.Optional(
      Type.String({
        description:
          'JSON pointer of the body field the problem is about (`/slides/0/image`), when it ' +
          'is about one',
      }),
    ),
  },
  { $id: 'PostProblem', additionalProperties: false },
);
export type Problem = Static<typeof PostProblem>;

export const PostValidation = Type.Object(
  {
    valid: Type.Boolean({ description: 'True exactly when `problems` is empty' }),
    problems: Type.Array(ref(PostProblem), {
      description:
        'Every problem found, in the order a create meets them: schema violations, then ' +
        'media, accounts, content tags, feed format and quota',
    }),
  },
  { $id: 'PostValidation', additionalProperties: false },
);
export type PostValidationOut = Static<typeof PostValidation>;

export const QueuePostBody = Type.Object(
  { accountIds: AccountIds, ...metadata },
  { additionalProperties: false },
);
export type QueuePostInput = Static<typeof QueuePostBody>;

export const UpdatePostBody = Type.Object(
  {
    caption: Type.Optional(Type.String({ maxLength: 2200 })),
    hashtags: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 30 })),
    sound: Type.Optional(Nullable(Sound)),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    contentGroupIds: Type.Optional(ContentGroupIds),
    platformBPostFormat: Type.Optional(StringEnum(['reel', 'post'])),
  },
  { additionalProperties: false },
);
export type UpdatePostInput = Static<typeof UpdatePostBody>;

// Named as clients write it; header names are case-insensitive on the wire and the
// framework validates them in lower case.
export const IdempotencyHeaders = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Repeat-safe key, kept 24 hours' }),
  ),
});

export const PostAccount = Type.Object(
  {
    accountId: Type.String(),
    username: Type.String(),
    platform: Platform,
    status: PostStatus,
    queuedAt: DateTime,
    approvedAt: Type.Optional(DateTime),
    scheduledAfter: Type.Optional(DateTime),
    scheduledSlotStart: Type.Optional(DateTime),
    postedAt: Type.Optional(DateTime),
    postUrl: Type.Optional(Type.String({ format: 'uri' })),
    error: Type.Optional(
      Type.String({
        description:
          'Why the item failed, present when its status is `failed`: the worker’s reason, a ' +
          'media error, or a missed report deadline (nothing is retried on its own; queue ' +
          'the post again for the account to retry)',
      }),
    ),
  },
  { additionalProperties: false },
);

const postFields = {
  postId: Type.String(),
  status: PostStatus,
  media: Type.Object(
    {
      kind: StringEnum(['video', 'image']),
      count: Type.Integer(),
      thumbnailUrl: Nullable(Type.String({ format: 'uri' })),
    },
    { additionalProperties: false },
  ),
  caption: Nullable(Type.String()),
  hashtags: Type.Array(Type.String()),
  sound: Nullable(Sound),
  notes: Nullable(Type.String()),
  contentGroupIds: Type.Array(Type.String()),
  platformBPostFormat: StringEnum(['reel', 'post']),
  createdAt: DateTime,
  accounts: Type.Array(PostAccount),
};

export const Post = Type.Object(postFields, { $id: 'Post', additionalProperties: false });
export type PostOut = Static<typeof Post>;

export const CancelledPost = Type.Object(
  {
    ...postFields,
    cancellation: Type.Object(
      {
        cancelled: Type.Array(Type.String()),
        skipped: Type.Array(
          Type.Object(
            { accountId: Type.String(), reason: Type.String() },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type CancelledPostOut = Static<typeof CancelledPost>;

export const PostIdParams = Type.Object({ postId: Id }, { additionalProperties: false });

export const ListPostsQuery = Type.Object(
  {
    ...pageQuery(25),
    accountId: Type.Optional(Id),
    status: Type.Optional(PostStatus),
    since: Type.Optional(Type.String({ format: 'date-time' })),
    contentGroupId: Type.Optional(
      Type.String({
        maxLength: 240,
        pattern: '^((template|tag):[^:]+|untagged)$',
        'x-pattern-message': 'must be "tag:<tagId>", "template:<templateId>" or "untagged"',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListPostsInput = Static<typeof ListPostsQuery>;

export const PostPage = Type.Object(
  { data: Type.Array(ref(Post)), nextCursor: NextCursor },
  { additionalProperties: false },
);
export type PostPageOut = Static<typeof PostPage>;

export const CancelQuery = Type.Object(
  { accountId: Type.Optional(Id) },
  { additionalProperties: false },
);
