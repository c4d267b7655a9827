// The rows of `slotline-client export`: the dashboard's posts CSV (src/pages/company/
// exports.pages.ts: the same columns, cells and order) and an analytics CSV, one row per
// post and account, both built from the API alone.
import type { SlotlineClient } from '../client.ts';
import type { components } from '../schema.ts';

type Post = components['schemas']['Post'];
export type Cell = string | number;

export const POST_COLUMNS = [
  'Post ID',
  'Created at (UTC)',
  'Caption',
  'Hashtags',
  'Tags',
  'Username',
  'Platform',
  'Status',
  'Posted at (UTC)',
  'Post URL',
  'Views',
  'Likes',
  'Comments',
  'Shares',
  'Saves',
] as const;

export const ANALYTICS_COLUMNS = [
  'Post ID',
  'Created at (UTC)',
  'Caption (start)',
  'Tags',
  'Account ID',
  'Username',
  'Platform',
  'Views',
  'Likes',
  'Comments',
  'Shares',
  'Saves',
  'Engagement rate (%)',
  'Last updated (UTC)',
  'Post URL',
] as const;

/** Characters of the caption the analytics file shows: enough to recognise the post. */
export const CAPTION_START = 60;

/** One account's figures of a post: its latest snapshot of each time it went out there. */
export interface Figures {
  views: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
  lastUpdated: string;
  postUrl: string | null;
}

type Snapshot = components['schemas']['AnalyticsSnapshot'];
const COUNTERS = ['views', 'likes', 'comments', 'shares', 'saves'] as const;

/**
 * Each account's figures of a post, as the dashboard sums them (the latest snapshot of
 * each of its queue items on that account); an account without any snapshot is absent.
 * A post on one account is its analytics `summary`. Otherwise the history is read, newest
 * first, until every account has been seen and the accounts' sums equal the summary's
 * totals, or it ends: any item not seen yet then has only zeros, which change no sum.
 */
export async function accountFigures(
  api: SlotlineClient,
  post: Post,
): Promise<Map<string, Figures>> {
  const out = new Map<string, Figures>();
  const query = { limit: 100 } as { limit: number; cursor?: string };
  const path = { postId: post.postId };
  const { data: first } = await api.GET('/v2/posts/{postId}/analytics', {
    params: { path, query },
  });
  const { summary } = first!;
  const only = post.accounts.length === 1 ? post.accounts[0] : undefined;
  if (only) {
    if (summary.lastUpdated !== null) {
      out.set(only.accountId, {
        ...pick(summary),
        lastUpdated: summary.lastUpdated,
        postUrl: summary.postUrl,
      });
    }
    return out;
  }
  const latest = new Map<string, Snapshot>();
  let page = first!;
  for (;;) {
    for (const s of page.history) if (!latest.has(s.taskId)) latest.set(s.taskId, s);
    const sums = sumByAccount(latest.values());
    const seenAll = post.accounts.every((a) => sums.has(a.accountId));
    const total = pick({ views: 0, likes: 0, comments: 0, shares: 0, saves: 0 });
    for (const f of sums.values()) for (const c of COUNTERS) total[c] += f[c];
    const complete = COUNTERS.every((c) => total[c] === summary[c]);
    if ((seenAll && complete) || page.nextCursor === null) return sums;
    const { data } = await api.GET('/v2/posts/{postId}/analytics', {
      params: { path, query: { ...query, cursor: page.nextCursor } },
    });
    page = data!;
  }
}

function pick(source: Record<(typeof COUNTERS)[number], number>) {
  return {
    views: source.views,
    likes: source.likes,
    comments: source.comments,
    shares: source.shares,
    saves: source.saves,
  };
}

function sumByAccount(snapshots: Iterable<Snapshot>): Map<string, Figures> {
  const sums = new Map<string, Figures>();
  for (const s of snapshots) {
    const sum = sums.get(s.accountId) ?? {
      ...pick({ views: 0, likes: 0, comments: 0, shares: 0, saves: 0 }),
      lastUpdated: s.collectedAt,
      postUrl: s.postUrl,
    };
    for (const c of COUNTERS) sum[c] += s[c];
    if (s.collectedAt >= sum.lastUpdated) {
      sum.lastUpdated = s.collectedAt;
      sum.postUrl = s.postUrl ?? sum.postUrl;
    }
    sums.set(s.accountId, sum);
  }
  return sums;
}

/**
 * DECISIONS 7 (as the service computes it): (likes + comments + shares + saves) / views as
 * a percentage rounded half up to two decimals, 0 without views; integers, so exact.
 */
export function engagementRate(f: Omit<Figures, 'lastUpdated' | 'postUrl'>): number {
  if (f.views <= 0) return 0;
  const engaged = BigInt(f.likes + f.comments + f.shares + f.saves);
  const views = BigInt(f.views);
  return Number((engaged * 20_000n + views) / (2n * views)) / 100;
}

/** The caption's first characters on one line, with an ellipsis when cut. */
export function captionStart(caption: string | null, length = CAPTION_START): string {
  const line = (caption ?? '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length <= length ? line : `${chars.slice(0, length).join('').trimEnd()}…`;
}

/** What the rows of one post need besides the post. */
export interface RowContext {
  /** Tag names by `tag:<tagId>` group. */
  tagNames: Map<string, string>;
  /** Only this account's rows, when the export is of one account. */
  accountId?: string;
  /** Figures by account; null when the key may not read analytics. */
  figures: Map<string, Figures> | null;
}

function tagsOf(post: Post, tagNames: Map<string, string>): string {
  return post.contentGroupIds
    .filter((g) => g.startsWith('tag:'))
    .map((g) => tagNames.get(g) ?? g)
    .join('; ');
}

function accountsOf(post: Post, accountId: string | undefined) {
  return post.accounts.filter((a) => accountId === undefined || a.accountId === accountId);
}

/** The dashboard's posts rows of one post: one per account, or one for a draft. */
export function postRows(post: Post, context: RowContext): Cell[][] {
  const common: Cell[] = [
    post.postId,
    post.createdAt,
    post.caption ?? '',
    post.hashtags.join(' '),
    tagsOf(post, context.tagNames),
  ];
  const rows: Cell[][] = [];
  if (post.accounts.length === 0) {
    rows.push([...common, '', '', post.status, '', '', '', '', '', '', '']);
  }
  for (const a of accountsOf(post, context.accountId)) {
    const f = context.figures?.get(a.accountId);
    rows.push([
      ...common,
      a.username,
      a.platform,
      a.status,
      a.postedAt ?? '',
      a.postUrl ?? '',
      ...(f ? COUNTERS.map((c) => f[c]) : ['', '', '', '', '']),
    ]);
  }
  return rows;
}

/** The analytics rows of one post: one per account (a draft: one without an account). */
export function analyticsRows(post: Post, context: RowContext): Cell[][] {
  const common: Cell[] = [
    post.postId,
    post.createdAt,
    captionStart(post.caption),
    tagsOf(post, context.tagNames),
  ];
  const rows: Cell[][] = [];
  if (post.accounts.length === 0) rows.push([...common, '', '', '', ...blank(8)]);
  for (const a of accountsOf(post, context.accountId)) {
    const f = context.figures?.get(a.accountId);
    const figures = f
      ? [
          ...COUNTERS.map((c) => f[c]),
          engagementRate(f),
          f.lastUpdated,
          f.postUrl ?? a.postUrl ?? '',
        ]
      : [...blank(7), a.postUrl ?? ''];
    rows.push([...common, a.accountId, a.username, a.platform, ...figures]);
  }
  return rows;
}

function blank(n: number): string[] {
  return Array.from({ length: n }, () => '');
}
