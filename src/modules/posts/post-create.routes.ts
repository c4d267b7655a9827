// Writing posts: create one, check one without creating it, and queue one to more accounts.
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
  PostValidation,
  QueuePostBody,
} from './posts.schemas.ts';
import { createPost, queuePost } from './post-create.service.ts';
import { validatePost } from './post-validate.service.ts';

const WRITE_ERRORS = [
  ...AUTH_ERRORS,
  'invalid_request',
  'unsupported_media_type',
  'request_too_large',
  'idempotency_key_mismatch',
  'quota_exceeded',
  'platformB_feed_posts_disabled',
] as const;

const acceptAsSent = () => true;

export function postCreateRoutes(ctx: AppContext): FastifyPluginAsync {
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
        );
        return reply.status(written.replay ? 200 : 201).send(written.post);
      },
    );

    app.post(
      '/posts/validate',
      {
        config: { scopes: ['posts:write'] },
        // The service checks the body against CreatePostBody itself and lists every violation
        // in the 200 answer; the route's own validation would refuse the first with a 400.
        validatorCompiler: () => acceptAsSent,
        schema: {
          operationId: 'validatePost',
          tags: ['posts'],
          summary: 'Check a post without creating it (a dry run of createPost)',
          description:
            'A dry run of `createPost` with the same body: answers 200 with every problem the ' +
            'create would meet, each with the `code`, `message` and `hint` the create would ' +
            'answer with and the body `field` (a JSON pointer) it is about: schema violations, ' +
            'repeated ids, unknown or unready uploads, a media set that cannot form a post, ' +
            'unknown accounts, unknown or archived content tags, `platformBPostFormat` "post" ' +
            'without the capability, and the daily posts cap and post credits the items would ' +
            'pass (read, not counted). `valid` is true exactly when `problems` is empty. ' +
            'Nothing is written: no post, queue item, idempotency key, event or quota use (the ' +
            'call counts as an API request). A body that is not a JSON object, or that holds ' +
            'NUL characters (refused on every route), is a 400.',
          body: CreatePostBody,
          response: {
            200: ref(PostValidation),
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'unsupported_media_type',
              'request_too_large',
            ]),
          },
        },
      },
      async (req) => validatePost(ctx, principalOf(req), req.body as unknown),
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
  };
}
