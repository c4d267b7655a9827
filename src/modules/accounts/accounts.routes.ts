import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth.ts';
import { AUTH_ERRORS, errorResponses, ref } from '../../schemas/common.ts';
import {
  Account,
  AccountIdParams,
  AccountPage,
  AccountStatusEvent,
  CreateAccountBody,
  ListAccountsQuery,
  StatusHistoryPage,
  StatusHistoryQuery,
} from './accounts.schemas.ts';
import { createAccount, getAccount } from './accounts.service.ts';
import { setPaused, statusHistory } from './accounts.state.ts';
import {
  accountPageRead,
  listedNextWindow,
  listedPostsToday,
  type AccountPageRead,
} from './accounts-list.service.ts';
import { ReadCache, type BodyPlan } from '../../http/read-cache.ts';

export const accountSchemas = [Account, AccountStatusEvent];

const PAGE_HOLES = { postsToday: '0', nextWindow: 'null', nextCursor: 'null' };
const LAST_PAGE_HOLES = { postsToday: '0', nextWindow: 'null' };

/** GET /v2/accounts serialized once per read; postsToday, nextWindow and the cursor per request. */
function accountPagePlan(ctx: AppContext): BodyPlan<AccountPageRead> {
  return {
    skeleton: (page) => ({
      body: {
        data: page.accounts.map((a) => ({ ...a.account, postsToday: 0, nextWindow: null })),
        nextCursor: null,
      },
      // A last page's null cursor is the same for every request.
      holes: page.last ? PAGE_HOLES : LAST_PAGE_HOLES,
      count: page.accounts.length * 2 + (page.last ? 1 : 0),
    }),
    fill(page, now, out) {
      for (const listed of page.accounts) {
        out.put(listedPostsToday(listed, now));
        out.same(listedNextWindow(page, listed, now));
      }
      const last = page.last;
      // A cursor carries its expiry in milliseconds.
      if (last) out.keep(now.getTime(), () => ctx.cursors.encode(page.scope, last, now));
    },
  };
}

export function accountsRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const pages = new ReadCache(1000);
    const pagePlan = accountPagePlan(ctx);

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
      (req, reply) => {
        const now = ctx.clock.now();
        const read = accountPageRead(ctx, principalOf(req).companyId, req.query, now);
        return pages.send(reply, ctx.db, pagePlan, read, now);
      },
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
            'New accounts start in status `pending_setup`: nothing is released to them until the ' +
            'worker operating them reports them `warming_up` or `active`. They take the company’s default worker ' +
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
      async (req) =>
        getAccount(ctx.db, ctx.clock, principalOf(req).companyId, req.params.accountId),
    );

    // DECISIONS 7: pausing and resuming are the company's; the worker reports the rest. They
    // take no body; an empty JSON body, common from clients, is accepted (as by complete).
    await app.register(async (noBody) => {
      noBody.removeContentTypeParser('application/json');
      noBody.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, _body, done) =>
        done(null, undefined),
      );
      for (const pause of [true, false]) {
        noBody.withTypeProvider<TypeBoxTypeProvider>().post(
          pause ? '/accounts/:accountId/pause' : '/accounts/:accountId/resume',
          {
            config: { scopes: ['accounts:write'] },
            schema: {
              operationId: pause ? 'pauseAccount' : 'resumeAccount',
              tags: ['accounts'],
              summary: pause ? 'Pause a publishing account' : 'Resume a paused publishing account',
              description: pause
                ? 'Stops releases to the account: its `queued` items stay queued, in their order, ' +
                  'until it is resumed (items already released stay with the worker). The ' +
                  'account’s worker may go on reporting its status meanwhile; that is kept and ' +
                  'takes effect on resume. Pausing a paused account changes nothing and answers ' +
                  '200 with the account. No request body.'
                : 'Ends a pause: the account returns to the status its worker last reported ' +
                  '(`pending_setup` if it never reported one) and releases resume at its next ' +
                  'window if that status is `warming_up` or `active`. Resuming an account that is ' +
                  'not paused changes nothing and answers 200 with the account. No request body.',
              params: AccountIdParams,
              response: {
                200: ref(Account),
                ...errorResponses([...AUTH_ERRORS, 'invalid_request', 'account_not_found']),
              },
            },
          },
          async (req) => {
            const { companyId } = principalOf(req);
            await setPaused(ctx, companyId, req.params.accountId, pause);
            return getAccount(ctx.db, ctx.clock, companyId, req.params.accountId);
          },
        );
      }
    });

    app.get(
      '/accounts/:accountId/status-history',
      {
        config: { scopes: ['accounts:read'] },
        schema: {
          operationId: 'listAccountStatusHistory',
          tags: ['accounts'],
          summary: 'List the status changes of an account',
          description:
            'Every change of the account’s status, newest first, from its creation ' +
            '(`source: system`): worker reports, pauses and resumes, each with its time. A ' +
            'report made while paused appears with `status: paused` and the reported status in ' +
            '`reportedStatus`. `limit` is 1-100 (default 25).',
          params: AccountIdParams,
          querystring: StatusHistoryQuery,
          response: {
            200: StatusHistoryPage,
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
        statusHistory(ctx, principalOf(req).companyId, req.params.accountId, req.query),
    );
  };
}
