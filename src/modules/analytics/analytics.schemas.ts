import { Type, type Static } from 'typebox';
import { DateTime, Nullable, ref } from '../../schemas/common.ts';
import { NextCursor, pageQuery } from '../../schemas/pagination.ts';
import { Platform } from '../accounts/index.ts';

const Count = (description?: string) => Type.Integer({ minimum: 0, description });
const Url = Type.String({ format: 'uri' });

const NullablePlatform = Type.Unsafe<'platformA' | 'platformB' | null>({
  type: ['string', 'null'],
  enum: ['platformA', 'platformB', null],
  description: 'Platform of the most viewed account entry; null before any analytics',
});

/** DECISIONS 7: a percentage rounded to two decimals; 0 when views is 0. */
const EngagementRate = Type.Number({
  minimum: 0,
  description:
    '(likes + comments + shares + saves) / views as a percentage, rounded to two decimals ' +
    '(4.25 means 4.25 %); 0 when views is 0. Can exceed 100.',
});

export const AnalyticsSummary = Type.Object(
  {
    views: Count(),
    likes: Count(),
    comments: Count(),
    shares: Count(),
    saves: Count(),
    engagementRate: EngagementRate,
    lastUpdated: Nullable(
      Type.String({
        format: 'date-time',
        description: 'Newest snapshot of the post; null before any analytics',
      }),
    ),
    postUrl: Nullable(
      Type.String({
        format: 'uri',
        description: 'Published URL on the most viewed account; null before any analytics',
      }),
    ),
    accountId: Nullable(
      Type.String({ description: 'The most viewed account; null before any analytics' }),
    ),
    platform: NullablePlatform,
  },
  {
    additionalProperties: false,
    description:
      'Totals over the latest snapshot of each account the post went out to; the counters are 0 ' +
      'before any analytics. `postUrl`, `accountId` and `platform` name the account whose ' +
      'latest snapshot has the most views (ties: the newer snapshot).',
  },
);

export const AnalyticsSnapshot = Type.Object(
  {
    id: Type.String({ description: 'Snapshot id' }),
    videoId: Type.String({ description: 'The post id: the published video or carousel' }),
    accountId: Type.String(),
    platform: Platform,
    postUrl: Nullable(Url),
    views: Count(),
    likes: Count(),
    comments: Count(),
    shares: Count(),
    saves: Count(),
    collectedAt: DateTime,
    taskId: Type.String({ description: 'The queue item (per-account task) the snapshot is of' }),
  },
  { $id: 'AnalyticsSnapshot', additionalProperties: false },
);

export const PostAnalytics = Type.Object(
  {
    summary: AnalyticsSummary,
    history: Type.Array(ref(AnalyticsSnapshot), {
      description: 'Snapshots, newest first (collectedAt desc, then id desc)',
    }),
    nextCursor: NextCursor,
  },
  { $id: 'PostAnalytics', additionalProperties: false },
);
export type PostAnalyticsOut = Static<typeof PostAnalytics>;
export type SnapshotOut = Static<typeof AnalyticsSnapshot>;

export const PostAnalyticsQuery = Type.Object(
  { ...pageQuery(25) },
  { additionalProperties: false },
);
export type PostAnalyticsQueryInput = Static<typeof PostAnalyticsQuery>;

export const AccountAnalytics = Type.Object(
  {
    accountId: Type.String(),
    followers: Count(),
    posts: Count('Posts on the account’s profile'),
    engagement: Type.Number({
      minimum: 0,
      description:
        'Engagement rate of the scanned posts, a percentage rounded to two decimals like ' +
        '`engagementRate` of post analytics',
    }),
    analytics: Type.Object(
      { views: Count(), likes: Count(), comments: Count() },
      { additionalProperties: false, description: 'Totals over the scanned posts' },
    ),
    scannedPosts: Count('Posts whose analytics these figures cover'),
  },
  {
    $id: 'AccountAnalytics',
    additionalProperties: false,
    description:
      'The account’s latest statistics as reported by its worker; zeros until the first ' +
      'report (`followers` then shows the account’s own count).',
  },
);
export type AccountAnalyticsOut = Static<typeof AccountAnalytics>;
