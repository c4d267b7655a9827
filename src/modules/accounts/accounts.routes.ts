import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import {
  Account,
  AccountIdParams,
  AccountPage,
  CreateAccountBody,
  ListAccountsQuery,
} from './accounts.schemas.ts';
import { createAccount, getAccount, listAccountsJson } from './accounts.service.ts';
import { okSerializer, respond } from '../../http/json-template.ts';

export const accountSchemas = [Account];

export function accountsRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/accounts',
      {
        config: { scopes: ['accounts:read'] },
        schema: {
          operationId: 'listAccounts',
          tags: ['accounts'],
          summary: 'List publishing accounts',
          querystring: ListAccountsQuery,
          response: {
            200: AccountPage,
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'invalid_cursor']),
          },
        },
      },
      (req, reply) =>
        respond(
          reply,
          listAccountsJson(ctx, principalOf(req).companyId, req.query, okSerializer(reply)),
        ),
    );

    app.post(
      '/accounts',
      {
        config: { scopes: ['accounts:write'] },
        schema: {
          operationId: 'createAccount',
          tags: ['accounts'],
          summary: 'Create a publishing account',
          description:
            'New accounts start in status `pending_setup` and take the company’s default worker ' +
            'timezone. Daily account creations count against the plan’s cap (`rate_limited`); the ' +
            'plan’s account slots are checked too (`account_limit_reached`).',
          body: CreateAccountBody,
          response: {
            201: ref(Account),
            ...errorResponses([
              ...AUTH_ERRORS,
              'invalid_request',
              'unsupported_media_type',
              'request_too_large',
              'account_exists',
              'account_limit_reached',
            ]),
          },
        },
      },
      async (req, reply) => {
        const account = await createAccount(ctx, principalOf(req), req.body);
        return reply.status(201).send(account);
      },
    );

    app.get(
      '/accounts/:accountId',
      {
        config: { scopes: ['accounts:read'] },
        schema: {
          operationId: 'getAccount',
          tags: ['accounts'],
          summary: 'Get a publishing account',
          params: AccountIdParams,
          response: {
            200: ref(Account),
            ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'account_not_found']),
          },
        },
      },
      async (req) => getAccount(ctx, principalOf(req).companyId, req.params.accountId),
    );
  };
}
