import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses } from '../../schemas/common.ts';
import { AccountIdParams } from '../accounts/index.ts';
import { QueueItem, QueuePage, QueueQuery } from './queue.schemas.ts';
import { listAccountQueue } from './queue.service.ts';

export const queueSchemas = [QueueItem];

export function queueRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/accounts/:accountId/queue',
      {
        // DECISIONS 7: account queues need posts:read.
        config: { scopes: ['posts:read'] },
        schema: {
          operationId: 'listAccountQueue',
          tags: ['accounts'],
          summary: 'List an account’s queue',
          description:
            'Items of the account that are not final (`processing`, `pending_approval`, ' +
            '`queued`, `posting`). Order: `posting` items first, then release order: highest ' +
            '`priority` first, then oldest `queuedAt`, then `queueItemId`. `scheduledSlotStart` ' +
            'is given for `queued` items only; items awaiting approval or media have none. ' +
            'While the account is `pending_setup`, `paused` or `disconnected` nothing is ' +
            'released to it: its `queued` items keep their order, have no ' +
            '`scheduledSlotStart` and carry `notPlannedReason` instead. ' +
            '`limit` is 1-100 (default 25).',
          params: AccountIdParams,
          querystring: QueueQuery,
          response: {
            200: QueuePage,
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'invalid_cursor',
              'account_not_found',
            ]),
          },
        },
      },
      async (req) =>
        listAccountQueue(ctx, principalOf(req).companyId, req.params.accountId, req.query),
    );
  };
}
