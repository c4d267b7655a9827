// GET /v2/posts/{postId} and GET /v2/posts, answered from the read cache: a
// post or a page is serialized once per data version, and its thumbnail URLs
// and cursor, which carry expiries, are written per request. Also GET
// /v2/posts/{postId}/deliveries, read afresh (its proof URLs expire).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { ReadCache, type BodyPlan, type HoleWriter } from '../../http/read-cache.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import { ListPostsQuery, Post, PostIdParams, PostPage, type PostOut } from './posts.schemas.ts';
import { postPageRead, type PostPageRead } from './post-list.service.ts';
import { PostDeliveryRecords } from './post-delivery-records.schemas.ts';
import { postDeliveryRecords } from './post-delivery-records.service.ts';
import { mediaUrlExpiry, postRead, thumbnailUrlUntil, type ViewedPost } from './posts.view.ts';

const THUMBNAIL_HOLE = { thumbnailUrl: 'null' };
const PAGE_HOLES = { thumbnailUrl: 'null', nextCursor: 'null' };

function withoutThumbnail(post: PostOut): PostOut {
  return { ...post, media: { ...post.media, thumbnailUrl: null } };
}

function writeThumbnails(
  ctx: AppContext,
  posts: readonly ViewedPost[],
  now: Date,
  out: HoleWriter,
): void {
  const expires = mediaUrlExpiry(now);
  // A signature covers whole seconds of its expiry, so one URL serves a second.
  const second = Math.floor(expires.getTime() / 1000);
  for (const v of posts) out.keep(second, () => thumbnailUrlUntil(ctx, v.source, v.ready, expires));
}

function postPlan(ctx: AppContext): BodyPlan<ViewedPost> {
  return {
    skeleton: (viewed) => ({
      body: withoutThumbnail(viewed.post),
      holes: THUMBNAIL_HOLE,
      count: 1,
    }),
    fill: (viewed, now, out) => writeThumbnails(ctx, [viewed], now, out),
  };
}

function pagePlan(ctx: AppContext): BodyPlan<PostPageRead> {
  return {
    skeleton: (page) => ({
      body: { data: page.posts.map((v) => withoutThumbnail(v.post)), nextCursor: null },
      // A last page's null cursor is the same for every request.
      holes: page.last ? PAGE_HOLES : THUMBNAIL_HOLE,
      count: page.posts.length + (page.last ? 1 : 0),
    }),
    fill(page, now, out) {
      writeThumbnails(ctx, page.posts, now, out);
      const last = page.last;
      // A cursor carries its expiry in milliseconds.
      if (last) out.keep(now.getTime(), () => ctx.cursors.encode(page.scope, last, now));
    },
  };
}

export function postReadRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    // One bound for posts and pages alike; their read keys differ.
    const bodies = new ReadCache(5000);
    const onePost = postPlan(ctx);
    const onePage = pagePlan(ctx);

    app.get(
      '/posts/:postId',
      {
        config: { scopes: ['posts:read'] },
        schema: {
          operationId: 'getPost',
          tags: ['posts'],
          summary: 'Get a post',
          params: PostIdParams,
          response: {
            200: ref(Post),
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'post_not_found']),
          },
        },
      },
      (req, reply) => {
        const read = postRead(ctx, principalOf(req).companyId, req.params.postId);
        return bodies.send(reply, ctx.db, onePost, read, ctx.clock.now());
      },
    );

    app.get(
      '/posts',
      {
        config: { scopes: ['posts:read'] },
        schema: {
          operationId: 'listPosts',
          tags: ['posts'],
          summary: 'List posts, newest first',
          description:
            'Filters combine. `accountId`: posts with an item for that account; an account that ' +
            'does not exist or belongs to another company answers 404 `account_not_found`, not ' +
            'an empty page. `status`: the post status. `since`: posts created at or after it. ' +
            '`contentGroupId`: posts attributed to that tag or template group, or `untagged` ' +
            'for posts with no group at all. A cursor is good only for the filters it came ' +
            'from (otherwise `invalid_cursor`) and for 24 hours. A walk returns every post that ' +
            'existed when it began exactly once; posts created meanwhile are newer and show up ' +
            'on a new walk, and nothing is ever returned twice.',
          querystring: ListPostsQuery,
          response: {
            200: PostPage,
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'invalid_cursor',
              'account_not_found',
            ]),
          },
        },
      },
      (req, reply) => {
        const now = ctx.clock.now();
        const read = postPageRead(ctx, principalOf(req).companyId, req.query, now);
        return bodies.send(reply, ctx.db, onePage, read, now);
      },
    );

    app.get(
      '/posts/:postId/deliveries',
      {
        config: { scopes: ['posts:read'] },
        schema: {
          operationId: 'listPostDeliveries',
          tags: ['posts'],
          summary: "Proof and punctuality of a post's deliveries",
          description:
            'One entry per account the post is queued for: when its item was released and into ' +
            'which slot (a window of the schedule, or a make-up slot standing in for a missed ' +
            "one), when the account's worker claimed it, when it was posted and when the " +
            'report arrived, whether it was on time (posted within the grace after its slot ' +
            "opened), the post's URL, a failure's reason, and the screenshot the worker sent as " +
            'proof (an expiring signed URL). Items not released yet have nulls there.',
          params: PostIdParams,
          response: {
            200: PostDeliveryRecords,
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'post_not_found']),
          },
        },
      },
      (req) => postDeliveryRecords(ctx, principalOf(req).companyId, req.params.postId),
    );
  };
}
