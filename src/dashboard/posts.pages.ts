// Posts (dashboard page 2): the list with the API's filters (status, account, tag or
// untagged) and a post's detail with each account's state and its analytics over time.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { validationError } from '../http/validation.ts';
import { listAccounts } from '../modules/accounts/index.ts';
import { getPostAnalytics } from '../modules/analytics/index.ts';
import { POST_STATUSES } from '../modules/items/index.ts';
import {
  postDeliveries,
  readPost,
  listPosts,
  ListPostsQuery,
  type ListPostsInput,
} from '../modules/posts/index.ts';
import { plannedSlotsOfPost } from '../modules/queue/index.ts';
import { listTags } from '../modules/tags/index.ts';
import { page } from './layout.ts';
import { chartRows, chartSvg, type SnapshotPoint } from './post-chart.ts';
import { BASE, PageError, redirect, userOf } from './session.ts';

const PAGE_SIZE = 25;
/** Snapshots the chart reads at most (pages of the analytics service's maximum, 100). */
const MAX_SNAPSHOTS = 1000;

/**
 * The list's filters, under the page's own names, by the API's rules. Any account id is
 * taken: one the company does not have answers "not found", whatever it looks like.
 */
const PostsQuery = Type.Object({
  status: ListPostsQuery.properties.status,
  account: Type.Optional(Type.String()),
  tag: ListPostsQuery.properties.contentGroupId,
  cursor: ListPostsQuery.properties.cursor,
});
const PostParams = Type.Object({ postId: Type.String() });

type Filters = Pick<ListPostsInput, 'status' | 'accountId' | 'contentGroupId'>;

/** A filter outside the API's rules: a 400 naming the filter as the page shows it. */
function filterRefusal(errors: FastifySchemaValidationError[], part: string): Error {
  const [first] = errors;
  if (first?.instancePath === '/status') {
    const sent = 'data' in first ? String(first.data) : '';
    return new PageError(400, `Status "${sent}" is not one of the post statuses.`);
  }
  if (first?.instancePath === '/tag') {
    return new PageError(400, 'The tag filter must be a tag, a template or "untagged".');
  }
  return validationError(errors, part);
}

function filtersOf(query: Static<typeof PostsQuery>): Filters {
  return {
    ...(query.status ? { status: query.status } : {}),
    ...(query.account ? { accountId: query.account } : {}),
    ...(query.tag ? { contentGroupId: query.tag } : {}),
  };
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
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const listOptions = {
      schema: { querystring: PostsQuery },
      schemaErrorFormatter: filterRefusal,
    };
    app.get('/posts', listOptions, async (req, reply) => {
      const user = userOf(req);
      const filters = filtersOf(req.query);
      const { cursor } = req.query;
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

    app.get('/posts/:postId', { schema: { params: PostParams } }, async (req, reply) => {
      const user = userOf(req);
      const { postId } = req.params;
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
      const [slots, analytics, delivery] = await Promise.all([
        plannedSlotsOfPost(ctx, user.companyId, postId),
        historyOf(ctx, user.companyId, postId),
        postDeliveries(ctx, user.companyId, postId),
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
        // The delivery record of each account the post was released to.
        deliveries: delivery.deliveries.filter((d) => d.releasedAt !== null),
        graceMinutes: Math.round(ctx.config.deliveryGraceMs / 60_000),
      });
    });
  };
}
