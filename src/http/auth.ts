// Bearer-key authentication and scope checks (SPEC 5), run before the body is
// read. Each route declares its scopes in `config.scopes` (any one suffices) or
// `config.public`; a route with neither is refused, so nothing is open by accident.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MeterReading, Principal, Scope } from '../access.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { authenticateWorker } from './worker-auth.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    scopes?: Scope[];
    public?: boolean;
    /** false for reads that must work when the daily request cap is reached (usage). */
    countRequest?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const BEARER = /^Bearer +(\S+) *$/i;

function unauthorized(message: string, hint?: string): ApiError {
  return new ApiError('unauthorized', message, {
    headers: { 'www-authenticate': 'Bearer' },
    ...(hint ? { hint } : {}),
  });
}

/** Worker tokens (`slw_...`, DECISIONS 6) have a prefix of their own, unlike any API key. */
const WORKER_TOKEN = /^slw_/;

/**
 * The onRequest hook. A key seen before and unchanged since, of a company with
 * requests left in this process's lease, is checked without waiting on
 * anything, so the request goes on to its handler in the same turn; anything
 * else (a first sight, a change, a lease to take) waits for the database.
 */
export function makeAuthHook(ctx: AppContext) {
  return function authenticate(
    req: FastifyRequest,
    reply: FastifyReply,
    done: (err?: Error) => void,
  ): void {
    let pending: Promise<void> | undefined;
    try {
      pending = authenticateRequest(ctx, req, reply);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (pending) pending.then(() => done(), done);
    else done();
  };
}

/** Authenticates and meters a request: undefined when done, else a promise of it. */
function authenticateRequest(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> | undefined {
  // Every response carries its request id (DECISIONS 1); set here, the first hook of all.
  reply.header('x-request-id', req.id);
  const config = req.routeOptions.config;
  if (config.public || req.is404) return;
  // Worker API routes take worker tokens only, and count against no company's meter.
  if (config.worker) return authenticateWorker(ctx, req);
  const header = req.headers.authorization;
  if (!header) throw unauthorized('Authorization header is missing');
  const m = BEARER.exec(header);
  if (!m) throw unauthorized('Authorization header must be "Bearer <API_KEY>"');
  const secret = m[1] as string;
  const known = ctx.access.knownKey(secret);
  if (known) return admit(ctx, req, reply, known);
  if (WORKER_TOKEN.test(secret)) {
    throw unauthorized(
      'A worker token was sent; worker tokens work only on /worker/v1',
      'Call /v2 with a company API key (sl_...) as "Authorization: Bearer <API_KEY>"; use the worker token on /worker/v1.',
    );
  }
  return ctx.access.verifyKey(secret).then((principal) => admit(ctx, req, reply, principal));
}

function admit(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  principal: Principal | null,
): Promise<void> | undefined {
  if (!principal) throw unauthorized('API key is invalid or revoked');
  // Before the scope check: nothing of a suspended company's is open to any of its keys.
  if (principal.suspended) {
    throw unauthorized(
      "This API key's company is suspended",
      'Contact the Slotline operator to resume the company; its keys work again once it is resumed, and nothing was deleted.',
    );
  }
  const config = req.routeOptions.config;
  const scopes = config.scopes;
  if (!scopes || scopes.length === 0) {
    throw new ApiError('insufficient_scope', 'This operation is not available to API keys');
  }
  if (!scopes.some((s) => principal.scopes.has(s))) {
    throw new ApiError(
      'insufficient_scope',
      `This operation needs the ${scopes.map((s) => `"${s}"`).join(' or ')} scope`,
      { hint: `Use a key created with the ${scopes.join(' or ')} scope.` },
    );
  }
  req.principal = principal;
  const now = ctx.clock.now();
  ctx.access.keyUsed(principal, now);
  if (config.countRequest === false) return;
  const used = ctx.access.countRequest(principal, now);
  if (used instanceof Promise) return used.then((reading) => rateHeaders(reply, reading));
  rateHeaders(reply, used);
}

function rateHeaders(reply: FastifyReply, used: MeterReading): void {
  reply.header('x-ratelimit-limit', String(used.limit));
  reply.header('x-ratelimit-remaining', String(Math.max(0, used.limit - used.count)));
  reply.header('x-ratelimit-reset', String(used.resetSeconds));
}

/** The authenticated principal; routes behind the auth hook always have one. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new ApiError('unauthorized', 'Authentication is required');
  return req.principal;
}
