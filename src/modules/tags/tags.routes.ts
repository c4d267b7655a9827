import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import {
  ContentTag,
  CreateTagBody,
  DeletedTag,
  ListTagsQuery,
  TagIdParams,
  TagPage,
  UpdateTagBody,
} from './tags.schemas.ts';
import { createTag, deleteTag, listTagsJson, updateTag } from './tags.service.ts';
import { okSerializer, respond } from '../../http/json-template.ts';

export const tagSchemas = [ContentTag];

const BODY_ERRORS = ['invalid_request', 'unsupported_media_type', 'request_too_large'] as const;

export function tagsRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/content-tags',
      {
        config: { scopes: ['posts:read'] },
        schema: {
          operationId: 'listContentTags',
          tags: ['content-tags'],
          summary: 'List content tags, active and archived',
          querystring: ListTagsQuery,
          response: {
            200: TagPage,
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'invalid_cursor']),
          },
        },
      },
      (req, reply) =>
        respond(
          reply,
          listTagsJson(ctx, principalOf(req).companyId, req.query, okSerializer(reply)),
        ),
    );

    app.post(
      '/content-tags',
      {
        config: { scopes: ['posts:write'] },
        schema: {
          operationId: 'createContentTag',
          tags: ['content-tags'],
          summary: 'Create a content tag',
          body: CreateTagBody,
          response: {
            201: ref(ContentTag),
            ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS, 'tag_name_taken']),
          },
        },
      },
      async (req, reply) => {
        const tag = await createTag(ctx, principalOf(req).companyId, req.body);
        return reply.status(201).send(tag);
      },
    );

    app.patch(
      '/content-tags/:tagId',
      {
        config: { scopes: ['posts:write'] },
        schema: {
          operationId: 'updateContentTag',
          tags: ['content-tags'],
          summary: 'Rename, recolor, archive or restore a content tag',
          description:
            'An archived tag keeps its existing attribution and analytics but cannot be assigned ' +
            'to posts; `archived: false` restores it.',
          params: TagIdParams,
          body: UpdateTagBody,
          response: {
            200: ref(ContentTag),
            ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS, 'tag_not_found', 'tag_name_taken']),
          },
        },
      },
      async (req) => updateTag(ctx, principalOf(req).companyId, req.params.tagId, req.body),
    );

    app.delete(
      '/content-tags/:tagId',
      {
        config: { scopes: ['posts:write'] },
        schema: {
          operationId: 'deleteContentTag',
          tags: ['content-tags'],
          summary: 'Delete a content tag and remove it from every post',
          params: TagIdParams,
          response: {
            200: DeletedTag,
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'tag_not_found']),
          },
        },
      },
      async (req) => deleteTag(ctx, principalOf(req).companyId, req.params.tagId),
    );
  };
}
