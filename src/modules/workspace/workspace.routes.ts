import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { MEDIA_RESPONSES, sendMedia } from '../../http/media-reply.ts';
import { AUTH_ERRORS, errorResponses } from '../../schemas/common.ts';
import {
  ImageIdParams,
  MediaUrls,
  MediaUrlsBody,
  SignedQuery,
  Workspace,
} from './workspace.schemas.ts';
import { createMediaUrls, getWorkspace, openSignedImage } from './workspace.service.ts';

export function workspaceRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/workspace',
      {
        config: { scopes: ['workspace:read'] },
        schema: {
          operationId: 'getWorkspace',
          tags: ['workspace'],
          summary: 'Read the company, its accounts, image folders and packs',
          response: { 200: Workspace, ...errorResponses([...AUTH_ERRORS, 'not_found']) },
        },
      },
      async (req) => getWorkspace(ctx.db, ctx.clock, principalOf(req).companyId),
    );

    app.post(
      '/workspace/media-urls',
      {
        config: { scopes: ['media:read'] },
        schema: {
          operationId: 'createMediaUrls',
          tags: ['workspace'],
          summary: 'Mint short-lived download URLs for company images',
          description:
            'Each item is resolved through the company’s own folders; an image of another folder ' +
            'or company is `image_not_found`. URLs expire after `expiresInSeconds` (default 900).',
          body: MediaUrlsBody,
          response: {
            200: MediaUrls,
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'unsupported_media_type',
              'request_too_large',
              'image_not_found',
            ]),
          },
        },
      },
      async (req) => createMediaUrls(ctx, principalOf(req).companyId, req.body),
    );

    app.get(
      '/media/images/:imageId',
      {
        config: { public: true },
        schema: {
          operationId: 'downloadImage',
          tags: ['media'],
          summary: 'Download an image through a signed URL',
          description: 'The URL comes from POST /v2/workspace/media-urls; no API key is sent.',
          security: [],
          params: ImageIdParams,
          querystring: SignedQuery,
          response: {
            200: Type.Unsafe<unknown>({
              description: 'The image bytes',
              content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
            }),
            ...MEDIA_RESPONSES,
            ...errorResponses([
              'invalid_request',
              'invalid_signature',
              'image_not_found',
              'range_not_satisfiable',
            ]),
          },
        },
      },
      async (req, reply) => {
        const answer = await openSignedImage(
          ctx,
          req.params.imageId,
          req.query.expires,
          req.query.signature,
        );
        return sendMedia(req, reply, answer);
      },
    );
  };
}
