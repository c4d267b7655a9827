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
import { createTag, deleteTag, tagPageRead, updateTag, type TagPageRead } from './tags.service.ts';
import { ReadCache, type BodyPlan } from '../../http/read-cache.ts';

export const tagSchemas = [ContentTag];

const CURSOR_HOLE = { nextCursor: 'null' };

/**
 * GET /v2/content-tags serialized once per read: tags have no time-dependent
 * field, so only a cursor, which carries an expiry, is written per request.
 */
function tagPagePlan(ctx: AppContext): BodyPlan<TagPageRead> {
  return {
    skeleton: (page) => ({
      body: { data: page.tags, nextCursor: null },
      // A last page's null cursor is the same for every request: no hole at all.
      holes: page.last ? CURSOR_HOLE : {},
      count: page.last ? 1 : 0,
    }),
    fill(page, now, out) {
      const last = page.last;
      // A cursor carries its expiry in milliseconds.
      if (last) out.keep(now.getTime(), () => ctx.cursors.encode(page.scope, last, now));
    },
  };
}

const BODY_ERRORS = ['invalid_request', 'unsupported_media_type', 'request_too_large'] as const;

export function tagsRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const pages = new ReadCache(1000);
    const pagePlan = tagPagePlan(ctx);

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
      (req, reply) => {
        const now = ctx.clock.now();
        const read = tagPageRead(ctx, principalOf(req).companyId, req.query, now);
        return pages.send(reply, ctx.db, pagePlan, read, now);
      },
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
      async (req) => deleteTag(ctx.db, ctx.clock, principalOf(req).companyId, req.params.tagId),
    );
  };
}
