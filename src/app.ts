// buildApp: the composition root of the HTTP service. It registers plugins and
// modules and never listens, so tests and the server share it.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './context.ts';
import { frameworkErrorHandler, installErrorHandlers } from './http/errors.ts';
import { makeClientErrorHandler } from './http/client-errors.ts';
import { compileValidator } from './http/validation.ts';
import { makeAuthHook } from './http/auth.ts';
import { guardNul } from './http/nul-guard.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { openapiOptions } from './http/openapi.ts';
import { upstreamRequestId } from './http/upstream-request-id.ts';
import { installOpsHooks, opsRoutes } from './ops/ops.routes.ts';
import type { PromMetrics } from './ops/prom-metrics.ts';
import { readinessOf, type Readiness } from './ops/readiness.ts';
import { randomToken } from './lib/ids.ts';
import { SHARED_SCHEMAS } from './schemas/common.ts';
import { accountSchemas, accountsRoutes } from './modules/accounts/index.ts';
import { tagSchemas, tagsRoutes } from './modules/tags/index.ts';
import { scheduleSchemas, schedulesRoutes } from './modules/schedules/index.ts';
import { workspaceRoutes } from './modules/workspace/index.ts';
import { usageRoutes } from './modules/usage/index.ts';
import { uploadSchemas, uploadsRoutes } from './modules/uploads/index.ts';
import { postSchemas, postsRoutes } from './modules/posts/index.ts';
import { queueRoutes, queueSchemas } from './modules/queue/index.ts';
import { analyticsRoutes, analyticsSchemas } from './modules/analytics/index.ts';
import { workerSchemas, workersRoutes } from './modules/workers/index.ts';
import { webhookSchemas, webhooksRoutes, webhookDocs } from './modules/webhooks/index.ts';
import { dashboardPlugin } from './pages/company/dashboard.plugin.ts';
import { operatorPlugin } from './pages/operator/operator.plugin.ts';
import { WORKER_ASSETS, workerAppPlugin } from './pages/worker/worker.plugin.ts';
import { docsRoutes } from './http/docs.routes.ts';
import { mcpRoutes } from './mcp/mcp.routes.ts';

export type App = FastifyInstance;

export interface BuildOptions {
  /** A pino logger; no logging when absent. */
  logger?: FastifyBaseLogger;
  /** What GET /readyz reports; the checks over `ctx` by default. */
  readiness?: Readiness;
  /** Request metrics and the /metrics route (with METRICS_TOKEN); none when absent. */
  metrics?: PromMetrics | null;
}

/**
 * Server timeouts, chosen for a service behind a load balancer that takes uploads:
 * - keepAlive 65 s: longer than the usual balancer idle timeout (60 s on AWS ALB), so the
 *   balancer closes an idle connection first and never sends a request into one this
 *   side is closing (which would answer 502).
 * - headers 66 s: just above keepAlive, so a header timer never closes a kept-alive
 *   connection before the keep-alive timeout does; a slow trickle of headers is cut then.
 * - request 1 h: the whole request, body included; a 200 MB video (the largest upload,
 *   SPEC 2.1) arrives within it at about 0.5 Mbit/s.
 * - connection 120 s: a socket silent that long mid-request (a stalled upload, a client
 *   gone without closing) is dropped, while the longest handler (validating a video)
 *   stays well within it.
 */
const TIMEOUTS = {
  keepAliveTimeout: 65_000,
  headersTimeout: 66_000,
  requestTimeout: 3_600_000,
  connectionTimeout: 120_000,
} as const;

export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<App> {
  // Unique, not secret: a per-process random prefix and a sequence number.
  const requestPrefix = randomToken(5).slice(0, 8);
  let requestSeq = 0;
  const nextRequestId = () => `req_${requestPrefix}${(requestSeq++).toString(36).padStart(7, '0')}`;
  const logger = options.logger;
  const trusted = ctx.config.trustProxy;
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    genReqId: nextRequestId,
    // The response's id is always the service's own; a trusted proxy's is only logged.
    requestIdHeader: false,
    childLoggerFactory: (parent, bindings, opts, raw) => {
      const upstream = upstreamRequestId(raw, trusted);
      return parent.child(upstream ? { ...bindings, upstreamRequestId: upstream } : bindings, opts);
    },
    // request.ip is then the client's address from X-Forwarded-For, past trusted hops only.
    trustProxy: trusted ? [...trusted.entries] : false,
    keepAliveTimeout: TIMEOUTS.keepAliveTimeout,
    requestTimeout: TIMEOUTS.requestTimeout,
    connectionTimeout: TIMEOUTS.connectionTimeout,
    clientErrorHandler: makeClientErrorHandler(nextRequestId, (err, requestId, status) =>
      logger?.info({ err, requestId, status }, 'malformed request refused'),
    ),
    frameworkErrors: frameworkErrorHandler,
    bodyLimit: ctx.config.bodyLimit,
    // A request that comes on a kept-alive connection while the server closes is answered
    // as usual (with `Connection: close`, see installOpsHooks), not refused with a 503:
    // the client sent it in good faith, and the shutdown bound leaves time to answer it.
    return503OnClosing: false,
    // Query strings keep repeated keys as arrays so `?limit=1&limit=2` is refused, not merged.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.server.headersTimeout = TIMEOUTS.headersTimeout;
  const ops = {
    readiness: options.readiness ?? readinessOf(ctx),
    metrics: options.metrics ?? null,
    metricsToken: ctx.config.metricsToken,
  };

  // JSON is the only body format of the API (SPEC: all bodies are JSON), its nesting bounded.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema, httpPart));
  for (const s of [
    ...SHARED_SCHEMAS,
    ...accountSchemas,
    ...tagSchemas,
    ...scheduleSchemas,
    ...uploadSchemas,
    ...postSchemas,
    ...queueSchemas,
    ...analyticsSchemas,
    ...workerSchemas,
    ...webhookSchemas,
  ]) {
    app.addSchema(s);
  }
  app.decorateRequest('principal', null);
  app.decorateRequest('worker', null);

  installErrorHandlers(app, ctx.config.bodyLimit);
  installOpsHooks(app, ops);

  // The batchers run with the context (bootstrap.ts); an app closing writes out its part.
  app.addHook('onClose', async () => {
    await ctx.meter.flush();
    await ctx.keyUse.flush();
  });

  await app.register(swagger, openapiOptions(ctx.config.publicUrl, webhookDocs()));
  app.addHook('onRequest', makeAuthHook(ctx));
  app.addHook('preValidation', guardNul);
  await app.register(opsRoutes(ops));

  await app.register(
    async (v2) => {
      v2.get(
        '/openapi.json',
        {
          config: { public: true },
          schema: {
            operationId: 'getOpenApi',
            tags: ['meta'],
            summary: 'The machine-readable description of this API',
            security: [],
            response: { 200: { type: 'object', additionalProperties: true } },
          },
        },
        async () => app.swagger(),
      );
      await v2.register(accountsRoutes(ctx));
      await v2.register(tagsRoutes(ctx));
      await v2.register(schedulesRoutes(ctx));
      await v2.register(workspaceRoutes(ctx));
      await v2.register(usageRoutes(ctx));
      await v2.register(uploadsRoutes(ctx));
      await v2.register(postsRoutes(ctx));
      await v2.register(queueRoutes(ctx));
      await v2.register(analyticsRoutes(ctx));
      await v2.register(webhooksRoutes(ctx));
    },
    { prefix: '/v2' },
  );
  // The MCP server for agents: one tool per /v2 operation, each call sent through the app.
  await app.register(mcpRoutes(ctx, app));
  // The API reference page: the document above, rendered by Redoc.
  await app.register(docsRoutes);
  // The worker API (DECISIONS 6): worker tokens, not company API keys.
  await app.register(workersRoutes(ctx), { prefix: '/worker/v1' });
  // The dashboard: pages for a company's people, signed in with a session cookie. It also
  // serves the workers' app's assets, at the /dashboard/assets/ addresses that app's pages
  // and installed manifests name.
  await app.register(dashboardPlugin(ctx, { alsoServes: [WORKER_ASSETS] }), {
    prefix: '/dashboard',
  });
  // The workers' app: a phone app for whoever operates accounts, signed in with a worker
  // session; its addresses lie inside the dashboard's.
  await app.register(workerAppPlugin(ctx), { prefix: '/dashboard/worker' });
  // The operator console: the service's own staff, signed in with two factors.
  await app.register(operatorPlugin(ctx), { prefix: '/operator' });

  return app;
}
