// Posts (dashboard page 2): the list with the API's filters (status, account, tag or
// untagged), each post with its accounts by name and platform, a selection for bulk actions
// and a CSV export of what the filters show; and a post's page (post-detail.ts) with what an
// editor may do to it (post-actions.pages.ts, post-bulk.pages.ts).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { listAccounts } from '../../modules/accounts/index.ts';
import { ListPostsQuery, postMediaDetails, readPost } from '../../modules/posts/index.ts';
import { listAllTags } from '../../modules/tags/index.ts';
import { roleAllows } from '../../modules/users/index.ts';
import { takeFlash } from './flash.ts';
import { page } from './layout.ts';
import { mediaKind, mediaKindLabel, mediaLabel } from './media-label.ts';
import { accountRef, groupRef, postTitle } from './names.ts';
import { postActionPages } from './post-actions.pages.ts';
import { postBulkPages } from './post-bulk.pages.ts';
import { renderPost } from './post-detail.ts';
import { filterRefusal, filtersOf, PostFilterFields, type PostFilters } from './post-filters.ts';
import { listShownPosts, SHOWN_STATUSES } from './post-states.ts';
import { BASE, redirect, userOf } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** Posts a page of the list shows (a page's first load stays small: issue 22). */
const PAGE_SIZE = 15;
/**
 * How long a browser keeps a thumbnail's redirect: well inside the hour its signed URL holds
 * (the calendar's thumbnails alike).
 */
const THUMBNAIL_CACHE = 'private, max-age=600';

const PostsQuery = Type.Object({
  ...PostFilterFields,
  cursor: ListPostsQuery.properties.cursor,
});
const PostParams = Type.Object({ postId: Type.String() });

type Filters = PostFilters;

/** The filters as the list's own query parameters (`status`, `account`, `tag`). */
function filterParams(filters: Filters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.accountId) params.set('account', filters.accountId);
  if (filters.contentGroupId) params.set('tag', filters.contentGroupId);
  return params;
}

function listUrl(filters: Filters, cursor?: string): string {
  const params = filterParams(filters);
  if (cursor) params.set('cursor', cursor);
  const qs = params.toString();
  return `${BASE}/posts${qs ? `?${qs}` : ''}`;
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
      let result;
      try {
        result = await listShownPosts(ctx, user.companyId, filters, PAGE_SIZE, cursor);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        // A cursor of other filters or an expired one starts the list over.
        if (err.code === 'invalid_cursor') return redirect(req, reply, listUrl(filters));
        if (err.code === 'account_not_found') {
          throw new ActionRefused('not_found', 'That account does not exist.');
        }
        throw err;
      }
      const [accounts, tags, details] = await Promise.all([
        listAccounts(ctx, user.companyId, { limit: 100 }),
        listAllTags(ctx.db, user.companyId),
        postMediaDetails(
          ctx,
          user.companyId,
          result.data.map((p) => p.postId),
        ),
      ]);
      const byGroup = new Map(tags.map((t) => [t.contentGroupId, t]));
      const exportQuery = filterParams(filters).toString();
      return page(req, reply, 'posts.eta', 'Posts', {
        posts: result.data.map((p) => ({
          ...p,
          title: postTitle(p.caption, mediaKind(p.media)),
          mediaLabel: mediaLabel({
            ...p.media,
            durationSeconds: details.get(p.postId)?.durationSeconds ?? null,
          }),
          mediaKindLabel: mediaKindLabel(p.media),
          accountRefs: p.accounts.map((a) => ({ ...accountRef(a), status: a.shown })),
          groupRefs: p.contentGroupIds.map((g) => groupRef(g, byGroup)),
        })),
        filters,
        statuses: SHOWN_STATUSES,
        partial: result.partial,
        accounts: accounts.data,
        tags,
        filtered: Object.keys(filters).length > 0,
        next: result.nextCursor ? listUrl(filters, result.nextCursor) : null,
        first: cursor ? listUrl(filters) : null,
        here: listUrl(filters, cursor),
        exportUrl: `${BASE}/exports/posts.csv${exportQuery ? `?${exportQuery}` : ''}`,
        canAct: roleAllows(user.role, 'editor'),
        done: takeFlash(ctx, req, reply),
      });
    });

    app.get('/posts/:postId', { schema: { params: PostParams } }, async (req, reply) =>
      renderPost(ctx, req, reply, req.params.postId),
    );

    // A post's thumbnail by a short address the lists show (the posts list, the approvals
    // inbox): a redirect to its signed URL, signed when the picture is asked for.
    app.get('/posts/:postId/thumbnail', { schema: { params: PostParams } }, async (req, reply) => {
      const user = userOf(req);
      let url: string | null;
      try {
        url = (await readPost(ctx, user.companyId, req.params.postId)).media.thumbnailUrl;
      } catch (err) {
        // Another company's post reads as unknown.
        if (err instanceof ApiError && err.code === 'post_not_found') url = null;
        else throw err;
      }
      if (url === null) throw new ActionRefused('not_found', 'Not found.');
      return reply.header('cache-control', THUMBNAIL_CACHE).redirect(url, 302);
    });

    await postActionPages(ctx)(app);
    await postBulkPages(ctx)(app);
  };
}
