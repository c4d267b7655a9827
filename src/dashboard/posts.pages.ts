// Posts (dashboard page 2): the list with the API's filters (status, account, tag or
// untagged) and a post's detail with each account's state and its analytics over time.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { listAccounts } from '../modules/accounts/accounts.list.ts';
import { getPostAnalytics } from '../modules/analytics/analytics.service.ts';
import { POST_STATUSES, type PostStatus } from '../modules/items/items.status.ts';
import { readPost } from '../modules/posts/posts.create.ts';
import { listPosts } from '../modules/posts/posts.list.ts';
import type { ListPostsInput } from '../modules/posts/posts.schemas.ts';
import { plannedSlotsOfPost } from '../modules/queue/queue.service.ts';
import { listTags } from '../modules/tags/tags.service.ts';
import { page } from './layout.ts';
import { chartRows, chartSvg, type SnapshotPoint } from './post-chart.ts';
import { BASE, PageError, redirect, userOf } from './session.ts';

const PAGE_SIZE = 25;
/** Snapshots the chart reads at most (pages of the analytics service's maximum, 100). */
const MAX_SNAPSHOTS = 1000;
const GROUP = /^((template|tag):[^:]+|untagged)$/;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

interface Filters {
  status?: PostStatus;
  accountId?: string;
  contentGroupId?: string;
}

/** The list's filters from the query string; a value outside the API's rules is a 400. */
function filtersOf(query: Record<string, unknown>): Filters {
  const filters: Filters = {};
  const status = text(query.status);
  if (status !== undefined) {
    if (!(POST_STATUSES as readonly string[]).includes(status)) {
      throw new PageError(400, `Status "${status}" is not one of the post statuses.`);
    }
    filters.status = status as PostStatus;
  }
  const accountId = text(query.account);
  if (accountId !== undefined) filters.accountId = accountId;
  const group = text(query.tag);
  if (group !== undefined) {
    if (group.length > 240 || !GROUP.test(group)) {
      throw new PageError(400, 'The tag filter must be a tag, a template or "untagged".');
    }
    filters.contentGroupId = group;
  }
  return filters;
}

function listUrl(filters: Filters, cursor?: string): string {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.accountId) params.set('account', filters.accountId);
  if (filters.contentGroupId) params.set('tag', filters.contentGroupId);
  if (cursor) params.set('cursor', cursor);
  const qs = params.toString();
  return `${BASE}/posts${qs ? `?${qs}` : ''}`;
}

/** Every snapshot of the post, oldest pages last, up to MAX_SNAPSHOTS. */
async function historyOf(ctx: AppContext, companyId: string, postId: string) {
  const first = await getPostAnalytics(ctx, companyId, postId, { limit: 100 });
  const history: SnapshotPoint[] = [...first.history];
  let cursor = first.nextCursor;
  while (cursor && history.length < MAX_SNAPSHOTS) {
    const next = await getPostAnalytics(ctx, companyId, postId, { limit: 100, cursor });
    history.push(...next.history);
    cursor = next.nextCursor;
  }
  return { summary: first.summary, history, truncated: cursor !== null };
}

export function postPages(ctx: AppContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/posts', async (req, reply) => {
      const user = userOf(req);
      const query = req.query as Record<string, unknown>;
      const filters = filtersOf(query);
      const cursor = text(query.cursor);
      const input: ListPostsInput = { ...filters, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) };
      let result;
      try {
        result = await listPosts(ctx, user.companyId, input);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        // A cursor of other filters or an expired one starts the list over.
        if (err.code === 'invalid_cursor') return redirect(req, reply, listUrl(filters));
        if (err.code === 'account_not_found') {
          throw new PageError(404, 'That account does not exist.');
        }
        throw err;
      }
      const [accounts, tags] = await Promise.all([
        listAccounts(ctx, user.companyId, { limit: 100 }),
        listTags(ctx, user.companyId, { limit: 100 }),
      ]);
      return page(req, reply, 'posts.eta', 'Posts', {
        posts: result.data,
        filters,
        statuses: POST_STATUSES,
        accounts: accounts.data,
        tags: tags.data,
        filtered: Object.keys(filters).length > 0,
        next: result.nextCursor ? listUrl(filters, result.nextCursor) : null,
        first: cursor ? listUrl(filters) : null,
      });
    });

    app.get('/posts/:postId', async (req, reply) => {
      const user = userOf(req);
      const { postId } = req.params as { postId: string };
      let post;
      try {
        post = await readPost(ctx, user.companyId, postId);
      } catch (err) {
        // Another company's post reads exactly as an unknown one.
        if (err instanceof ApiError && err.code === 'post_not_found') {
          throw new PageError(404, 'Not found.');
        }
        throw err;
      }
      const [slots, analytics] = await Promise.all([
        plannedSlotsOfPost(ctx, user.companyId, postId),
        historyOf(ctx, user.companyId, postId),
      ]);
      const rows = chartRows(analytics.history);
      return page(req, reply, 'post.eta', `Post ${post.postId}`, {
        post,
        accounts: post.accounts.map((a) => ({
          ...a,
          scheduledSlotStart: a.scheduledSlotStart ?? slots.get(a.accountId) ?? null,
        })),
        summary: analytics.summary,
        rows,
        chart: chartSvg(rows, 'chart-title'),
        truncated: analytics.truncated,
      });
    });
  };
}
