// Worker-token authentication for the worker API (DECISIONS 6). Routes with `config.worker`
// take this path of the one auth hook instead of the API-key path: a worker token
// (`slw_...`) is the only credential they accept, a company API key is refused like any
// unknown token, and no request counts against a company's daily request meter.
import type { FastifyRequest } from 'fastify';
import type { WorkerPrincipal } from '../access.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A worker API route: authenticated by a worker token, never by an API key. */
    worker?: boolean;
  }
  interface FastifyRequest {
    worker: WorkerPrincipal | null;
  }
}

const BEARER = /^Bearer +(\S+) *$/i;

const HINT =
  'Send the worker token the admin CLI issued (slw_...) as ' +
  '"Authorization: Bearer <WORKER_TOKEN>"; company API keys do not work on /worker/v1.';

function unauthorized(message: string): ApiError {
  return new ApiError('unauthorized', message, {
    hint: HINT,
    headers: { 'www-authenticate': 'Bearer' },
  });
}

export async function authenticateWorker(ctx: AppContext, req: FastifyRequest): Promise<void> {
  const header = req.headers.authorization;
  if (!header) throw unauthorized('Authorization header is missing');
  const m = BEARER.exec(header);
  if (!m) throw unauthorized('Authorization header must be "Bearer <WORKER_TOKEN>"');
  const worker = await ctx.access.verifyWorker(m[1] as string);
  if (!worker) throw unauthorized('Worker token is invalid or revoked');
  req.worker = worker;
}

/** The authenticated worker; routes behind the worker path of the auth hook always have one. */
export function workerOf(req: FastifyRequest): WorkerPrincipal {
  if (!req.worker) throw unauthorized('Authentication is required');
  return req.worker;
}
