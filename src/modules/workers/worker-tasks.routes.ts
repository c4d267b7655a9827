// The worker API's reads and claims: the heartbeat, claiming released tasks, listing the
// open ones and reading one.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { workerOf } from '../../http/worker-auth.ts';
import { errorResponses, ref } from '../../schemas/common.ts';
import { claimTasks, getTask, heartbeat, listTasks } from './tasks.service.ts';
import {
  BODY_ERRORS,
  ClaimBody,
  ClaimedTasks,
  Heartbeat,
  Task,
  TaskIdParams,
  TaskList,
  TaskListQuery,
  WORKER_AUTH_ERRORS,
  WORKER_TAG,
} from './workers.schemas.ts';

const worker = { worker: true } as const;

export function workerTaskRoutes(ctx: AppContext): FastifyPluginAsync {
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
      async (req) => heartbeat(ctx.db, ctx.clock, workerOf(req)),
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
  };
}
