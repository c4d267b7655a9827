// GET /v2/posts (SPEC 4.2, 8; DECISIONS 7): newest first, keyset cursors bound
// to the company and every filter.
import type { AppContext } from '../../context.ts';
import type { KeyedRead } from '../../db/versioned-memo.ts';
import { cursorScope } from '../../lib/cursor.ts';
import { ApiError } from '../../errors.ts';
import { getAccountRow } from '../accounts/index.ts';
import * as repo from './posts.repository.ts';
import type { ListPostsInput, PostPageOut } from './posts.schemas.ts';
import {
  mediaUrlExpiry,
  thumbnailUrlUntil,
  viewPostsWithThumbnails,
  type ViewedPost,
} from './posts.view.ts';

/**
 * created_at is stored as `toISOString()` text, so `since` is compared in that
 * form: any RFC 3339 offset or precision selects the same instant.
 */
function normaliseSince(since: string | undefined): string | undefined {
  if (since === undefined) return undefined;
  const ms = Date.parse(since);
  if (Number.isNaN(ms)) {
    throw new ApiError(
      'invalid_request',
      `query parameter since ${JSON.stringify(since)} is not a date-time`,
      {
        hint: 'Send an RFC 3339 date-time such as 2026-03-01T00:00:00Z.',
      },
    );
  }
  return new Date(ms).toISOString();
}

/** A page of posts as read; thumbnail URLs and the cursor carry expiries and are made per use. */
export interface PostPageRead {
  posts: ViewedPost[];
  /** The cursor scope, and the (created_at, id) a next page starts after; null on the last page. */
  scope: string;
  last: [string, string] | null;
}

/**
 * The page `query` asks for: its key among all reads of posts (company,
 * filters, size, position), and its read. Throws at once for a malformed
 * `since` or a cursor that is not this list's.
 */
export function postPageRead(
  ctx: AppContext,
  companyId: string,
  query: ListPostsInput,
  now: Date,
): KeyedRead<PostPageRead> {
  const limit = query.limit ?? 25;
  const since = normaliseSince(query.since);
  const filters = {
    accountId: query.accountId,
    status: query.status,
    since,
    contentGroupId: query.contentGroupId,
  };
  const scope = cursorScope(companyId, 'posts', filters);
  const after = query.cursor
    ? (ctx.cursors.decode(scope, query.cursor, now, 2) as [string, string])
    : undefined;
  const key = JSON.stringify([
    'list',
    companyId,
    filters.accountId ?? null,
    filters.status ?? null,
    filters.since ?? null,
    filters.contentGroupId ?? null,
    limit,
    after ?? null,
  ]);
  return {
    key,
    read: async () => {
      // An account that is unknown or another company's is named as such rather
      // than answered with an empty page, so a typo in the filter is visible.
      if (query.accountId !== undefined) await getAccountRow(ctx.db, companyId, query.accountId);
      const rows = await repo.pagePosts(ctx.db, companyId, {
        ...filters,
        after,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        posts: await viewPostsWithThumbnails(ctx, page),
        scope,
        last: rows.length > limit && last ? [last.created_at, last.id] : null,
      };
    },
  };
}

/** GET /v2/posts as data, for callers other than the route. */
export async function listPosts(
  ctx: AppContext,
  companyId: string,
  query: ListPostsInput,
): Promise<PostPageOut> {
  const now = ctx.clock.now();
  const page = await postPageRead(ctx, companyId, query, now).read();
  const expires = mediaUrlExpiry(now);
  return {
    data: page.posts.map((v) => ({
      ...v.post,
      media: { ...v.post.media, thumbnailUrl: thumbnailUrlUntil(ctx, v.source, v.ready, expires) },
    })),
    nextCursor: page.last ? ctx.cursors.encode(page.scope, page.last, now) : null,
  };
}
