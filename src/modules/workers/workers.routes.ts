// The worker API (DECISIONS 6) under /worker/v1: the worker operating an account claims the
// tasks the dispatcher released, downloads their media through signed URLs, reports each
// outcome and pushes analytics. Every route carries `config.worker`, so the auth hook accepts
// worker tokens only (never API keys) and meters nothing against a company.
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import type { ErrorCode } from '../../errors.ts';
import { workerOf } from '../../http/worker-auth.ts';
import { errorResponses, ref } from '../../schemas/common.ts';
import { AccountIdParams } from '../accounts/index.ts';
import { AccountAnalytics, AnalyticsSnapshot } from '../analytics/index.ts';
import { PROOF_MAX_BYTES, proofTooLarge } from '../uploads/index.ts';
import {
  attachTaskProof,
  claimTasks,
  getTask,
  heartbeat,
  listTasks,
  recordSnapshot,
  reportAccountStats,
  reportResult,
} from './tasks.service.ts';
import {
  AccountStatsBody,
  ClaimBody,
  ClaimedTasks,
  Heartbeat,
  ResultBody,
  SnapshotBody,
  Task,
  TaskIdParams,
  TaskList,
  TaskListQuery,
  AccountStatusBody,
  WorkerAccount,
} from './workers.schemas.ts';
import { reportAccountStatus } from './worker-accounts.service.ts';

export const workerSchemas = [Task, WorkerAccount];

/** The OpenAPI tag of every worker operation. */
export const WORKER_TAG = 'Worker API';

/** What every worker operation can answer: no scopes, no request meter, hence no 403 or 429. */
const WORKER_AUTH_ERRORS: ErrorCode[] = ['unauthorized', 'internal_error'];

/** What every operation with a JSON body can also answer. */
const BODY_ERRORS: ErrorCode[] = ['invalid_request', 'unsupported_media_type', 'request_too_large'];

const worker = { worker: true } as const;

export function workersRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/heartbeat',
      {
        config: worker,
        schema: {
          operationId: 'workerHeartbeat',
          tags: [WORKER_TAG],
          summary: 'Report in and read this worker’s accounts and open tasks',
          description:
            'Notes the worker as seen. Lists the accounts it operates (their timezone is the ' +
            'worker’s), with their status, what this worker last reported and the warm-up ' +
            'search terms, and counts its open tasks: `released` ones waiting for a claim and ' +
            '`claimed` ones waiting for a report. No request body.',
          response: { 200: Heartbeat, ...errorResponses(WORKER_AUTH_ERRORS) },
        },
      },
      async (req) => heartbeat(ctx, workerOf(req)),
    );

    app.post(
      '/tasks/claim',
      {
        config: worker,
        // A claim without a body takes the defaults, as if it sent {}.
        preValidation: async (req) => {
          if (req.body === undefined || req.body === null) req.body = {};
        },
        schema: {
          operationId: 'claimWorkerTasks',
          'x-body-optional': true,
          tags: [WORKER_TAG],
          summary: 'Claim released tasks',
          description:
            'Takes up to `limit` (1-50, default 10) released tasks of the accounts this worker ' +
            'operates, oldest release first. Each task is claimed exactly once, also under ' +
            'concurrent claims; an empty `data` means nothing is waiting. A claimed task must be ' +
            'reported by its `reportBy`, or it fails as unconfirmed. The body may be left out.',
          body: ClaimBody,
          response: {
            200: ClaimedTasks,
            ...errorResponses([...WORKER_AUTH_ERRORS, ...BODY_ERRORS], ['account_not_found']),
          },
        },
      },
      async (req) => ({ data: await claimTasks(ctx, workerOf(req), req.body) }),
    );

    app.get(
      '/tasks',
      {
        config: worker,
        schema: {
          operationId: 'listWorkerTasks',
          tags: [WORKER_TAG],
          summary: 'List this worker’s open tasks',
          description:
            'Tasks waiting for a claim on the accounts this worker operates and tasks it claimed ' +
            'and has not reported, oldest release first, `limit` per page (1-100, default 25).',
          querystring: TaskListQuery,
          response: {
            200: TaskList,
            ...errorResponses([...WORKER_AUTH_ERRORS, 'invalid_request', 'invalid_cursor']),
          },
        },
      },
      async (req) => listTasks(ctx, workerOf(req), req.query),
    );

    app.get(
      '/tasks/:taskId',
      {
        config: worker,
        schema: {
          operationId: 'getWorkerTask',
          tags: [WORKER_TAG],
          summary: 'Get a task',
          description:
            'A task of an account this worker operates, or one it claimed. Media URLs are signed ' +
            'afresh on every read.',
          params: TaskIdParams,
          response: {
            200: ref(Task),
            ...errorResponses([...WORKER_AUTH_ERRORS, 'invalid_request', 'task_not_found']),
          },
        },
      },
      async (req) => getTask(ctx, workerOf(req), req.params.taskId),
    );

    app.post(
      '/tasks/:taskId/result',
      {
        config: worker,
        schema: {
          operationId: 'reportWorkerTask',
          tags: [WORKER_TAG],
          summary: 'Report the outcome of a claimed task',
          description:
            '`posted` with `postUrl` (and `postedAt`, default now) or `failed` with a `reason`. ' +
            'Sending the same report again returns the task unchanged; a different outcome for a ' +
            'reported task is `task_already_reported`. A task that failed because its claim went ' +
            'unreported can still be reported `posted` by the worker that claimed it.',
          params: TaskIdParams,
          body: ResultBody,
          response: {
            200: ref(Task),
            ...errorResponses([
              ...WORKER_AUTH_ERRORS,
              ...BODY_ERRORS,
              'task_not_found',
              'task_not_claimed',
              'task_already_reported',
            ]),
          },
        },
      },
      async (req) => reportResult(ctx, workerOf(req), req.params.taskId, req.body),
    );

    // The proof screenshot: the image file itself is the body.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: PROOF_MAX_BYTES },
        (_req, body, done) => done(null, body),
      );
      // A body past the proof limit is a screenshot too large, not a JSON body past the
      // service's: the parent handler renders what this one throws.
      raw.setErrorHandler(async (err: FastifyError) => {
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw proofTooLarge();
        throw err;
      });
      raw.withTypeProvider<TypeBoxTypeProvider>().put(
        '/tasks/:taskId/proof',
        {
          config: worker,
          schema: {
            operationId: 'putWorkerTaskProof',
            tags: [WORKER_TAG],
            summary: "Send a screenshot as proof of the task's post",
            description:
              'The body is the image itself (PNG, JPEG, WebP or HEIC, at most 15 MiB and 8192 px ' +
              'a side), with its `Content-Type`; it is checked like any image upload and its ' +
              'pixels decoded whole, so a file cut short is `invalid_media_specs` (422) and a ' +
              'body past 15 MiB `file_too_large` (413). It is kept with the task; the company ' +
              'sees it in GET /v2/posts/{postId}/deliveries once the task is reported posted. ' +
              'The task must be claimed by this worker, before or after its `posted` report; a ' +
              'failed task takes none (`task_already_reported`). The same image again changes ' +
              'nothing; another one replaces it.',
            params: TaskIdParams,
            response: {
              200: ref(Task),
              ...errorResponses([
                ...WORKER_AUTH_ERRORS,
                // Past the proof limit the body is file_too_large, never request_too_large.
                'invalid_request',
                'unsupported_media_type',
                'file_too_large',
                'invalid_media_specs',
                'task_not_found',
                'task_not_claimed',
                'task_already_reported',
              ]),
            },
          },
        },
        async (req) =>
          attachTaskProof(ctx, workerOf(req), req.params.taskId, {
            contentType: req.headers['content-type'],
            bytes: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          }),
      );
    });

    app.post(
      '/tasks/:taskId/analytics',
      {
        config: worker,
        schema: {
          operationId: 'createWorkerTaskAnalytics',
          tags: [WORKER_TAG],
          summary: 'Add an analytics snapshot of a posted task',
          description:
            'The counters as read on the platform at `collectedAt` (default now; not in the ' +
            'future, not before the post). Each snapshot is kept; GET /v2/posts/{postId}/analytics ' +
            'sums the latest one of every account. Views only grow: fewer views than a snapshot ' +
            'of the same task counted earlier, or more than one counted later, is ' +
            '`invalid_request`. The same snapshot (time and figures) sent again is answered with ' +
            'the one stored, so a retry never counts twice.',
          params: TaskIdParams,
          body: SnapshotBody,
          response: {
            201: ref(AnalyticsSnapshot),
            ...errorResponses([
              ...WORKER_AUTH_ERRORS,
              ...BODY_ERRORS,
              'task_not_found',
              'task_not_posted',
            ]),
          },
        },
      },
      async (req, reply) => {
        const snapshot = await recordSnapshot(ctx, workerOf(req), req.params.taskId, req.body);
        return reply.status(201).send(snapshot);
      },
    );

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
