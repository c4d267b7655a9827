// A post's rendered media (carousel slides, the thumbnail) behind signed URLs, without an
// API key.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { MEDIA_RESPONSES, sendMedia } from '../../http/media-reply.ts';
import { errorResponses } from '../../schemas/common.ts';
import { SignedQuery } from '../uploads/index.ts';
import { openPostMedia } from './post-media.service.ts';

export function postMediaRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

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
            ...MEDIA_RESPONSES,
            ...errorResponses([
              'invalid_request',
              'invalid_signature',
              'post_not_found',
              'range_not_satisfiable',
            ]),
          },
        },
      },
      async (req, reply) => {
        const answer = await openPostMedia(
          ctx,
          req.params.postId,
          req.params.part,
          req.query.expires,
          req.query.signature,
        );
        return sendMedia(req, reply, answer);
      },
    );
  };
}
