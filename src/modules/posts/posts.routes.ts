import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import {
  CreatePostBody,
  IdempotencyHeaders,
  Post,
  PostIdParams,
  QueuePostBody,
} from './posts.schemas.ts';
import { createPost, queuePost, readPost, type OnCarousel } from './posts.create.ts';
import { openPostMedia } from './posts.media.ts';
import { SignedQuery } from '../uploads/uploads.schemas.ts';
import { Type } from 'typebox';

export const postSchemas = [Post];

const WRITE_ERRORS = [
  ...AUTH_ERRORS,
  'invalid_request',
  'unsupported_media_type',
  'request_too_large',
  'idempotency_key_mismatch',
  'quota_exceeded',
  'platformB_feed_posts_disabled',
] as const;

export function postsRoutes(ctx: AppContext, onCarousel: OnCarousel): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/posts',
      {
        config: { scopes: ['posts:write'] },
        schema: {
          operationId: 'createPost',
          tags: ['posts'],
          summary: 'Create a post and queue it to accounts',
          description:
            'One queue item per account: `pending_approval`, or `queued` with `skipApproval`; ' +
            'carousel items are `processing` while the service renders the slides. Without ' +
            '`slides`, `media` is one video or 1-10 images; with `slides`, every media item is an ' +
            'image used by a slide (`invalid_media_set` otherwise). A repeat with the same ' +
            '`Idempotency-Key` and body returns the original post with 200.',
          headers: IdempotencyHeaders,
          body: CreatePostBody,
          response: {
            200: ref(Post),
            201: ref(Post),
            ...errorResponses(
              [...WRITE_ERRORS, 'invalid_media_set', 'upload_not_ready'],
              ['account_not_found', 'upload_not_found', 'tag_not_found'],
            ),
          },
        },
      },
      async (req, reply) => {
        const written = await createPost(
          ctx,
          principalOf(req),
          req.body,
          req.headers['idempotency-key'],
          onCarousel,
        );
        return reply.status(written.replay ? 200 : 201).send(written.post);
      },
    );

    app.post(
      '/posts/:postId/queue',
      {
        config: { scopes: ['posts:write'] },
        schema: {
          operationId: 'queuePost',
          tags: ['posts'],
          summary: 'Queue an existing post to more accounts',
          description:
            'Adds one item per account. An account whose earlier item ended `failed` or ' +
            '`cancelled` is queued again.',
          headers: IdempotencyHeaders,
          params: PostIdParams,
          body: QueuePostBody,
          response: {
            200: ref(Post),
            201: ref(Post),
            ...errorResponses(
              [
                ...WRITE_ERRORS,
                'post_not_found',
                'media_not_ready',
                'duplicate_queue_item',
                'post_already_published',
                'post_not_editable',
              ],
              ['account_not_found'],
            ),
          },
        },
      },
      async (req, reply) => {
        const written = await queuePost(
          ctx,
          principalOf(req),
          req.params.postId,
          req.body,
          req.headers['idempotency-key'],
        );
        return reply.status(written.replay ? 200 : 201).send(written.post);
      },
    );

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
      async (req) => readPost(ctx, principalOf(req).companyId, req.params.postId),
    );

    app.get(
      '/media/posts/:postId/:part',
      {
        config: { public: true },
        schema: {
          operationId: 'downloadPostMedia',
          tags: ['media'],
          summary: 'Download a rendered carousel slide or the post thumbnail',
          description:
            '`part` is `thumbnail` or `slide-<n>` (from 0). Signed URLs come from post responses ' +
            'and the worker API; no API key.',
          security: [],
          params: Type.Object(
            {
              postId: Type.String({ minLength: 1, maxLength: 200 }),
              part: Type.String({
                pattern: '^(thumbnail|slide-[0-9]{1,2})$',
                'x-pattern-message': 'must be "thumbnail" or "slide-<n>"',
              }),
            },
            { additionalProperties: false },
          ),
          querystring: SignedQuery,
          response: {
            200: Type.Unsafe<unknown>({
              description: 'A JPEG',
              content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
            }),
            ...errorResponses(['invalid_request', 'invalid_signature', 'post_not_found']),
          },
        },
      },
      async (req, reply) => {
        const file = await openPostMedia(
          ctx,
          req.params.postId,
          req.params.part,
          req.query.expires,
          req.query.signature,
        );
        return reply
          .header('content-type', 'image/jpeg')
          .header('content-length', String(file.size))
          .header('cache-control', 'private, max-age=300')
          .header('x-content-type-options', 'nosniff')
          .send(file.stream);
      },
    );
  };
}
