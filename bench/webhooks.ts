// Webhook delivery benchmark, on SQLite (a temporary DATA_DIR) and on PostgreSQL (a
// temporary database, skipped when the server is unreachable), in this process as the
// service's delivery loop runs, to a receiver on 127.0.0.1 answering 204.
//
// - Throughput: N events recorded up front (100 per transaction), then the loop started;
//   events delivered per second until the receiver has them all. Baseline, same run: the
//   same number of bare signed-size POSTs to the same receiver at the same concurrency,
//   one connection each (as deliveries use).
// - Latency: one event per state change every 20 ms while the loop runs; the time from the
//   change's commit to the receiver reading the request, p50 and p99. Baseline: a bare
//   POST's round trip.
//
// Targets: throughput >= 0.25 of the bare POSTs; change-to-delivery p99 <= 250 ms.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import type { Dialect } from '../src/db/types.ts';
import { startWebhookLoop } from '../src/dispatch/webhook-loop.ts';
import { createCompany } from '../src/modules/companies/companies.service.ts';
import { recordEvents, type NewEvent } from '../src/modules/webhooks/webhook-events.service.ts';
import { createWebhook } from '../src/modules/webhooks/webhooks.service.ts';
import { freshStore, pgReachable } from './stores.ts';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5000);
const LATENCY_SAMPLES = 200;
const CONCURRENCY = 32;
const MIN_RATIO = 0.25;
const MAX_P99_MS = 250;

interface Receiver {
  url: string;
  /** Called with each request's webhook-id when its body has arrived. */
  onRequest: (id: string) => void;
  server: Server;
}

async function startReceiver(): Promise<Receiver> {
  const rx: Receiver = { url: '', onRequest: () => undefined, server: createServer() };
  rx.server.on('request', (req, res) => {
    req.resume();
    req.on('end', () => {
      rx.onRequest(String(req.headers['webhook-id'] ?? ''));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => rx.server.listen(0, '127.0.0.1', resolve));
  rx.url = `http://127.0.0.1:${(rx.server.address() as AddressInfo).port}/in`;
  return rx;
}

function barePost(url: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', connection: 'close' },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length));
  return Math.round((sorted[i] as number) * 10) / 10;
}

function event(companyId: string, i: number): NewEvent {
  return {
    companyId,
    type: 'post.status_changed',
    data: { postId: `pst_bench_${i}`, status: 'posted', previousStatus: 'posting' },
  };
}

async function benchDialect(dialect: Dialect, rx: Receiver) {
  const s = await freshStore(dialect, 'webhooks');
  const config = loadConfig({
    ...s.env,
    REMOTE_FETCH_ALLOW: '127.0.0.1',
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_ENDPOINT_CONCURRENCY: String(CONCURRENCY),
  });
  const opened = await openContext(config);
  const { ctx } = opened;
  try {
    const company = await createCompany(ctx.db, ctx.clock, config.plans, {
      name: 'Bench Co',
      plan: config.defaultPlan,
    });
    await createWebhook(ctx, company.companyId, {
      url: rx.url,
      events: ['post.status_changed'],
    });

    // Throughput.
    for (let i = 0; i < EVENTS; i += 100) {
      const batch = Array.from({ length: Math.min(100, EVENTS - i) }, (_, j) =>
        event(company.companyId, i + j),
      );
      await recordEvents(ctx.db, batch, new Date().toISOString());
    }
    let received = 0;
    const all = new Promise<void>((resolve) => {
      rx.onRequest = () => {
        if (++received === EVENTS) resolve();
      };
    });
    const t0 = performance.now();
    const loop = startWebhookLoop(ctx, { pollMs: 250, onError: (err) => console.error(err) });
    await all;
    const seconds = (performance.now() - t0) / 1000;
    const eventsPerSec = Math.round(EVENTS / seconds);

    // Latency: each event its own transaction, as a state change writes it.
    const committed = new Map<string, number>();
    const lags: number[] = [];
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    rx.onRequest = (id) => {
      const at = committed.get(id);
      if (at === undefined) return;
      lags.push(performance.now() - at);
      if (lags.length === LATENCY_SAMPLES) done();
    };
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      await ctx.db.transaction().execute(async (tx) => {
        await recordEvents(tx, [event(company.companyId, EVENTS + i)], new Date().toISOString());
      });
      const row = await ctx.db
        .selectFrom('webhook_events')
        .select('id')
        .where('data', 'like', `%pst_bench_${EVENTS + i}"%`)
        .executeTakeFirstOrThrow();
      committed.set(row.id, performance.now());
      await new Promise((r) => setTimeout(r, 20));
    }
    await finished;
    await loop.stop();
    lags.sort((a, b) => a - b);
    return {
      dialect,
      eventsPerSec,
      seconds: Math.round(seconds * 100) / 100,
      p50Ms: percentile(lags, 50),
      p99Ms: percentile(lags, 99),
    };
  } finally {
    await opened.close();
    await s.drop();
  }
}

async function bareBaseline(rx: Receiver) {
  const body = JSON.stringify({
    type: 'post.status_changed',
    timestamp: new Date().toISOString(),
    data: { postId: 'pst_bench_0', status: 'posted', previousStatus: 'posting' },
  });
  rx.onRequest = () => undefined;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < EVENTS) await barePost(rx.url, body);
    }),
  );
  const postsPerSec = Math.round(EVENTS / ((performance.now() - t0) / 1000));
  const lags: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const start = performance.now();
    await barePost(rx.url, body);
    lags.push(performance.now() - start);
  }
  lags.sort((a, b) => a - b);
  return { postsPerSec, p50Ms: percentile(lags, 50), p99Ms: percentile(lags, 99) };
}

export async function benchWebhooks() {
  const rx = await startReceiver();
  try {
    const bare = await bareBaseline(rx);
    const dialects: Dialect[] = (await pgReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];
    const results = [];
    console.log(`\nwebhooks: ${EVENTS} events to a receiver on 127.0.0.1, ${CONCURRENCY} at once`);
    console.log(
      `  bare POSTs (baseline)   ${String(bare.postsPerSec).padStart(6)} req/s      round trip p50 ${bare.p50Ms} ms  p99 ${bare.p99Ms} ms`,
    );
    for (const dialect of dialects) {
      const r = await benchDialect(dialect, rx);
      const ratio = Math.round((r.eventsPerSec / bare.postsPerSec) * 1000) / 1000;
      const pass = ratio >= MIN_RATIO && r.p99Ms <= MAX_P99_MS;
      results.push({ ...r, ratio, pass });
      console.log(
        `  deliveries ${dialect.padEnd(12)} ${String(r.eventsPerSec).padStart(6)} events/s   change->delivery p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms`,
      );
      console.log(
        `  ratio ${ratio} (target >= ${MIN_RATIO} of bare POSTs/s, p99 <= ${MAX_P99_MS} ms) ${pass ? 'PASS' : 'FAIL'}`,
      );
    }
    return { bare, results };
  } finally {
    await new Promise<void>((resolve) => rx.server.close(() => resolve()));
  }
}
