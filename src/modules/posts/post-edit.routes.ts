// Changing a post once it exists: its metadata and content tags, or cancelling it.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import { CancelledPost, CancelQuery, Post, PostIdParams, UpdatePostBody } from './posts.schemas.ts';
import { updatePost } from './post-update.service.ts';
import { cancelPost } from './post-cancel.service.ts';

export function postEditRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.patch(
      '/posts/:postId',
      {
        config: { scopes: ['posts:write'] },
        schema: {
          operationId: 'updatePost',
          tags: ['posts'],
          summary: 'Update post metadata or content tags',
          description:
            '`caption`, `hashtags`, `sound`, `notes` and `platformBPostFormat` change only ' +
            'while no item has reached `posting` (`post_not_editable` afterwards); ' +
            '`notes: null` and `sound: null` clear them. `contentGroupIds` can change at any ' +
            'time and replaces the explicit tags (`[]` removes them all); template provenance ' +
            'stays. Archived tags cannot be added but stay when already on the post.',
          params: PostIdParams,
          body: UpdatePostBody,
          response: {
            200: ref(Post),
            ...errorResponses(
              [
                ...AUTH_ERRORS,
                'invalid_request',
                'unsupported_media_type',
                'request_too_large',
                'post_not_found',
                'post_not_editable',
                'platformB_feed_posts_disabled',
              ],
              ['tag_not_found'],
            ),
          },
        },
      },
      async (req) => updatePost(ctx, principalOf(req).companyId, req.params.postId, req.body),
    );

    app.delete(
      '/posts/:postId',
      {
        config: { scopes: ['posts:write'] },
        schema: {
          operationId: 'cancelPost',
          tags: ['posts'],
          summary: 'Cancel a post, or one account of it',
          description:
            'Items `processing`, `pending_approval` or `queued` become `cancelled`; nothing is ' +
            'deleted. Others are listed in `cancellation.skipped` with a reason: ' +
            '`currently_posting`, `already_posted`, `already_cancelled` or `already_failed`. ' +
            'With `accountId`, only that account’s item is targeted; an account the post has ' +
            'no item for answers 404 `account_not_found`. When no targeted item can be ' +
            'cancelled (including a draft with no items), 409 `post_not_cancellable`.',
          params: PostIdParams,
          querystring: CancelQuery,
          response: {
            200: CancelledPost,
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'post_not_found',
              'account_not_found',
              'post_not_cancellable',
            ]),
          },
        },
      },
      async (req) =>
        cancelPost(ctx, principalOf(req).companyId, req.params.postId, req.query.accountId),
    );
  };
}
