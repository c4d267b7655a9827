// The operational endpoints: GET /healthz (the process is alive), GET /readyz (it should
// receive traffic) and, with METRICS_TOKEN, GET /metrics on the main port. They are for
// the platform running the service, not for API clients, so they stay out of the OpenAPI
// document, and they need no API key. Also the hooks every request passes: the request
// metrics, and `Connection: close` while draining.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors.ts';
import { sha256 } from '../lib/crypto.ts';
import type { PromMetrics } from './prom-metrics.ts';
import type { Readiness } from './readiness.ts';

export interface OpsOptions {
  readiness: Readiness;
  metrics: PromMetrics | null;
  /** Bearer token of /metrics on this port; null leaves /metrics unrouted (404). */
  metricsToken: string | null;
}

const CheckResult = {
  type: 'object',
  properties: { status: { enum: ['ok', 'failed'] }, reason: { type: 'string' } },
  required: ['status'],
  additionalProperties: false,
} as const;

const ReadinessReport = {
  type: 'object',
  properties: {
    status: { enum: ['ready', 'unavailable'] },
    checks: {
      type: 'object',
      properties: {
        database: CheckResult,
        storage: CheckResult,
        migrations: CheckResult,
        draining: CheckResult,
      },
      additionalProperties: false,
    },
    mediaJobs: {
      type: 'object',
      properties: {
        waiting: { type: 'integer' },
        running: { type: 'integer' },
        oldestWaitingSeconds: { type: 'integer' },
      },
      required: ['waiting', 'running', 'oldestWaitingSeconds'],
      additionalProperties: false,
    },
    outbox: {
      type: 'object',
      properties: {
        waiting: { type: 'integer' },
        oldestWaitingSeconds: { type: 'integer' },
      },
      required: ['waiting', 'oldestWaitingSeconds'],
      additionalProperties: false,
    },
  },
  required: ['status', 'checks'],
  additionalProperties: false,
} as const;

/** Compares a presented token with the expected one in time independent of their content. */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  // Digests first, so the comparison is of equal lengths and leaks neither length.
  return timingSafeEqual(sha256(presented), sha256(expected));
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Hooks on the root instance (before any route): request count, duration and in-flight
 * by route pattern, and `Connection: close` on every answer once draining has begun, so
 * clients still holding a kept-alive connection reconnect to another instance.
 */
export function installOpsHooks(app: FastifyInstance, options: OpsOptions): void {
  const { metrics, readiness } = options;
  app.addHook('onRequest', (req, reply, done) => {
    if (readiness.isDraining) reply.header('connection', 'close');
    if (metrics) {
      const started = performance.now();
      metrics.requestStarted();
      // 'close' comes once per response, answered or aborted, unlike onResponse.
      reply.raw.once('close', () =>
        metrics.requestFinished(
          {
            // The pattern, never the URL: ids in paths would make a series per resource.
            route: req.is404 ? 'unmatched' : (req.routeOptions.url ?? 'unmatched'),
            method: req.method,
            status: String(reply.raw.headersSent ? reply.raw.statusCode : 0),
          },
          (performance.now() - started) / 1000,
        ),
      );
    }
    done();
  });
}

export function opsRoutes(options: OpsOptions): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/healthz',
      {
        config: { public: true },
        schema: {
          hide: true,
          response: {
            200: {
              type: 'object',
              properties: { status: { const: 'ok' } },
              required: ['status'],
              additionalProperties: false,
            },
          },
        },
      },
      // Alive is all it says: no database, so a slow database never restarts the process.
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        config: { public: true },
        schema: { hide: true, response: { 200: ReadinessReport, 503: ReadinessReport } },
      },
      async (_req, reply) => {
        const report = await options.readiness.report();
        reply.header('cache-control', 'no-store');
        return reply.status(report.status === 'ready' ? 200 : 503).send(report);
      },
    );

    const { metrics, metricsToken } = options;
    if (metrics && metricsToken) {
      app.get(
        '/metrics',
        { config: { public: true }, schema: { hide: true } },
        async (req, reply) => {
          const presented = BEARER.exec(req.headers.authorization ?? '')?.[1];
          if (!tokenMatches(presented, metricsToken)) {
            throw new ApiError('unauthorized', 'A valid metrics token is required', {
              hint: 'Send "Authorization: Bearer <METRICS_TOKEN>".',
              headers: { 'www-authenticate': 'Bearer' },
            });
          }
          const { contentType, body } = await metrics.scrape();
          return reply.header('content-type', contentType).send(body);
        },
      );
    }
  };
}
