// A test app per dialect: fresh database, temp data directory, fake clock,
// and helpers to seed companies and keys and call the API.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/app.ts';
import { startMediaLoop, type MediaLoop } from '../../src/dispatch/media-loop.ts';
import { openContext } from '../../src/bootstrap.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import type { Dialect } from '../../src/db/types.ts';
import { FakeClock } from '../../src/lib/clock.ts';
import type { BlobStore } from '../../src/media/blob-store.ts';
import { PromMetrics } from '../../src/ops/prom-metrics.ts';
import type { Readiness } from '../../src/ops/readiness.ts';
import { scrapeSources } from '../../src/ops/scrape-sources.ts';
import { createCompany } from '../../src/modules/companies/index.ts';
import { createKey } from '../../src/modules/keys/index.ts';
import { SCOPES, type Scope } from '../../src/access.ts';
import { createPgDatabase } from './databases.ts';
import { checkContract } from './contract.ts';

export interface TestApp {
  app: App;
  ctx: AppContext;
  clock: FakeClock;
  config: Config;
  dialect: Dialect;
  /** With the `metrics` option: what the app records into. */
  metrics: PromMetrics | null;
  /**
   * The media loop of the app's process, as `serve` runs it (renders, thumbnails):
   * `await t.media.idle()` before reading what the media work makes.
   */
  media: MediaLoop;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  start?: string;
  /** A blob store in place of the local one under the data directory. */
  blobs?: BlobStore;
  /** Prometheus metrics of its own for each app, wired to the context as in `serve`. */
  metrics?: boolean;
  logger?: FastifyBaseLogger;
  /** What /readyz reports, made from the opened context. */
  readiness?: (ctx: AppContext) => Readiness;
  /** Receives what the media loop reports (its failures, and jobs failed for good). */
  onMediaError?: (err: unknown) => void;
}

export async function createTestApp(
  dialect: Dialect,
  options: TestAppOptions = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'slotline-test-'));
  const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://slotline.test',
    // Reports may carry any post URL here; the tests of the URL rule set the patterns
    // (an empty value restores the service's defaults).
    POST_URL_PATTERN_PLATFORMA: 'off',
    POST_URL_PATTERN_PLATFORMB: 'off',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...options.env,
  });
  const clock = new FakeClock(options.start ?? '2026-03-02T10:00:00.000Z');
  const metrics = options.metrics ? new PromMetrics() : null;
  const opened = await openContext(config, {
    clock,
    ...(options.blobs ? { blobs: options.blobs } : {}),
    ...(metrics ? { metrics } : {}),
  });
  const ctx = opened.ctx;
  metrics?.observe(scrapeSources(opened));
  const app = await buildApp(ctx, {
    ...(options.logger ? { logger: options.logger } : {}),
    metrics,
    ...(options.readiness ? { readiness: options.readiness(ctx) } : {}),
  });
  await app.ready();
  const media = startMediaLoop(ctx, {
    pollMs: config.mediaJobPollMs || 1_000,
    leaseMs: config.mediaJobLeaseMs,
    onError:
      options.onMediaError ?? ((err) => process.env.SLOTLINE_DEBUG_MEDIA && console.error(err)),
  });
  return {
    app,
    ctx: opened.ctx,
    clock,
    config,
    dialect,
    metrics,
    media,
    close: async () => {
      await media.stop(0);
      await app.close();
      await opened.close();
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SeededCompany {
  companyId: string;
  /** A key with every scope. */
  key: string;
  keyWith(scopes: Scope[]): Promise<string>;
}

export async function seedCompany(
  t: TestApp,
  options: { plan?: string; name?: string } = {},
): Promise<SeededCompany> {
  const company = await createCompany(t.ctx.db, t.ctx.clock, t.config.plans, {
    name: options.name ?? 'Test Co',
    plan: options.plan ?? t.config.defaultPlan,
  });
  const keyWith = async (scopes: Scope[]) =>
    (await createKey(t.ctx.db, t.ctx.clock, { companyId: company.companyId, scopes })).secret;
  return { companyId: company.companyId, key: await keyWith([...SCOPES]), keyWith };
}

export interface Call {
  status: number;
  body: any;
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

export function client(t: TestApp, key: string | null) {
  return async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Call> {
    const res = await t.app.inject({
      method,
      url,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined
        ? { payload: typeof body === 'string' ? body : JSON.stringify(body) }
        : {}),
    });
    let parsed: unknown = undefined;
    const contentType = (res.headers['content-type'] ?? '').toString();
    if (contentType.includes('json')) parsed = res.json();
    checkContract(method, url, res.statusCode, contentType, parsed);
    return { status: res.statusCode, body: parsed, headers: res.headers, raw: res };
  };
}

export const validAccount = (overrides: Record<string, unknown> = {}) => ({
  platform: 'platformA',
  username: `user_${Math.random().toString(36).slice(2, 10)}`,
  displayName: 'Test Account',
  bio: 'Short videos',
  profilePictureUrl: 'https://example.com/p.png',
  warmup: { searchTerms: ['cooking'] },
  ...overrides,
});
