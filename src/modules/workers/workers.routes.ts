// The worker API (DECISIONS 6) under /worker/v1: the worker operating an account claims the
// tasks the dispatcher released, downloads their media through signed URLs, reports each
// outcome and pushes analytics. Every route carries `config.worker`, so the auth hook accepts
// worker tokens only (never API keys) and meters nothing against a company.
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { workerAccountRoutes } from './worker-accounts.routes.ts';
import { workerPushRoutes } from './worker-push.routes.ts';
import { workerReportRoutes } from './worker-reports.routes.ts';
import { workerTaskRoutes } from './worker-tasks.routes.ts';
import { Task, WorkerAccount } from './workers.schemas.ts';

export const workerSchemas = [Task, WorkerAccount];

export function workersRoutes(ctx: AppContext): FastifyPluginAsync {
  // Registered in this order, the operations keep their place in the OpenAPI document.
  return async (app) => {
    await app.register(workerTaskRoutes(ctx));
    await app.register(workerReportRoutes(ctx));
    await app.register(workerAccountRoutes(ctx));
    await app.register(workerPushRoutes(ctx));
  };
}
