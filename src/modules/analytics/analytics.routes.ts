import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import { AccountIdParams } from '../accounts/index.ts';
import { PostIdParams } from '../posts/index.ts';
import {
  AccountAnalytics,
  AnalyticsSnapshot,
  PostAnalytics,
  PostAnalyticsQuery,
} from './analytics.schemas.ts';
import { getAccountAnalytics, getPostAnalytics } from './analytics.service.ts';

export const analyticsSchemas = [AnalyticsSnapshot, PostAnalytics, AccountAnalytics];

export function analyticsRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/posts/:postId/analytics',
      {
        // DECISIONS 7: post and account analytics need analytics:read.
        config: { scopes: ['analytics:read'] },
        schema: {
          operationId: 'getPostAnalytics',
          tags: ['analytics'],
          summary: 'Get a post’s analytics',
          description:
            '`summary` adds up the latest snapshot of every account the post went out to; ' +
            '`history` lists every snapshot, newest first, `limit` per page (1-100, default 25). ' +
            'Before any analytics the counters are 0 and `lastUpdated`, `postUrl`, `accountId` ' +
            'and `platform` are null. In `history`, `videoId` is the post id and `taskId` the ' +
            'queue item of the account.',
          params: PostIdParams,
          querystring: PostAnalyticsQuery,
          response: {
            200: ref(PostAnalytics),
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'invalid_cursor',
              'post_not_found',
            ]),
          },
        },
      },
      async (req) =>
        getPostAnalytics(ctx, principalOf(req).companyId, req.params.postId, req.query),
    );

    app.get(
      '/accounts/:accountId/analytics',
      {
        config: { scopes: ['analytics:read'] },
        schema: {
          operationId: 'getAccountAnalytics',
          tags: ['analytics'],
          summary: 'Get an account’s analytics',
          params: AccountIdParams,
          response: {
            200: ref(AccountAnalytics),
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'account_not_found']),
          },
        },
      },
      async (req) => getAccountAnalytics(ctx.db, principalOf(req).companyId, req.params.accountId),
    );
  };
}
