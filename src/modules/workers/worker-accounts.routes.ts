// The worker API's reports on the accounts a worker operates: their statistics and status.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { workerOf } from '../../http/worker-auth.ts';
import { errorResponses, ref } from '../../schemas/common.ts';
import { AccountIdParams } from '../accounts/index.ts';
import { AccountAnalytics } from '../analytics/index.ts';
import { reportAccountStats, reportAccountStatus } from './worker-accounts.service.ts';
import {
  AccountStatsBody,
  AccountStatusBody,
  BODY_ERRORS,
  WORKER_AUTH_ERRORS,
  WORKER_TAG,
  WorkerAccount,
} from './workers.schemas.ts';

const worker = { worker: true } as const;

export function workerAccountRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.put(
      '/accounts/:accountId/stats',
      {
        config: worker,
        schema: {
          operationId: 'putWorkerAccountStats',
          tags: [WORKER_TAG],
          summary: 'Replace the statistics of an account this worker operates',
          description:
            'The figures GET /v2/accounts/{accountId}/analytics shows; `followers` also ' +
            'becomes the account’s follower count and `status`, when sent, its status.',
          params: AccountIdParams,
          body: AccountStatsBody,
          response: {
            200: ref(AccountAnalytics),
            ...errorResponses([...WORKER_AUTH_ERRORS, ...BODY_ERRORS, 'account_not_found']),
          },
        },
      },
      async (req) => reportAccountStats(ctx, workerOf(req), req.params.accountId, req.body),
    );

    app.put(
      '/accounts/:accountId/status',
      {
        config: worker,
        schema: {
          operationId: 'putWorkerAccountStatus',
          tags: [WORKER_TAG],
          summary: 'Report the status of an account this worker operates',
          description:
            'Moves a new account out of `pending_setup`: report `warming_up` while warming it ' +
            'up with its `warmup.searchTerms` (in the answer), `active` when it can post, ' +
            '`disconnected` when access to it is lost (with a `reason` for the company). ' +
            'Releases go to `warming_up` and `active` accounts only. While the company has the ' +
            'account paused the report is kept and `status` stays `paused`; a resume returns ' +
            'it to the last report. Repeating the current status (without a new reason) ' +
            'changes nothing. Every change is kept in the account’s status history.',
          params: AccountIdParams,
          body: AccountStatusBody,
          response: {
            200: ref(WorkerAccount),
            ...errorResponses([...WORKER_AUTH_ERRORS, ...BODY_ERRORS, 'account_not_found']),
          },
        },
      },
      async (req) => reportAccountStatus(ctx, workerOf(req), req.params.accountId, req.body),
    );
  };
}
