// Prometheus metrics: served on the main port only with METRICS_TOKEN (401 without it),
// or on a separate listener; requests counted by route pattern and status, with their
// duration; queue items by status, pool use, dispatcher and upload counters, and the
// process metrics, all on the app's own registry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { register as globalRegistry } from 'prom-client';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, validAccount } from '../helpers/app.ts';
import { uploadFile } from '../helpers/uploads.ts';
import { PromMetrics } from '../../src/ops/prom-metrics.ts';
import { startMetricsServer } from '../../src/ops/metrics-server.ts';
import { dispatchPass } from '../../src/dispatch/loop.ts';

const TOKEN = 'metrics-token-0123456789';

/** The value of the first sample whose line starts with `prefix` ({labels} included). */
function sample(text: string, prefix: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(prefix + ' '));
  return line === undefined ? null : Number(line.slice(prefix.length + 1));
}

describeEachDialect(
  'metrics on the main port with a token',
  (get, dialect) => {
    const scrape = async (token: string | null = TOKEN) =>
      get().app.inject({
        method: 'GET',
        url: '/metrics',
        headers: token === null ? {} : { authorization: `Bearer ${token}` },
      });

    test('without the token, or with a wrong one, 401 in the error envelope', async () => {
      for (const token of [null, 'wrong-token-0123456789', `${TOKEN}x`]) {
        const res = await scrape(token);
        assert.equal(res.statusCode, 401);
        assert.equal(res.json().error.code, 'unauthorized');
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        assert.doesNotMatch(res.body, /slotline_/);
      }
      // An API key is not a metrics token.
      const { key } = await seedCompany(get());
      assert.equal((await scrape(key)).statusCode, 401);
    });

    test('API calls show up by route pattern and status, with their durations', async () => {
      const t = get();
      const { key } = await seedCompany(t);
      const call = client(t, key);
      for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/v2/accounts')).status, 200);
      const created = await call('POST', '/v2/accounts', validAccount());
      assert.equal(created.status, 201);
      const id = created.body.accountId as string;
      assert.equal((await call('GET', `/v2/accounts/${id}`)).status, 200);
      assert.equal((await call('GET', '/v2/accounts/acc_missing')).status, 404);
      await t.app.inject({ method: 'GET', url: '/no/such/path/123' });

      const res = await scrape();
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      const text = res.body;
      const count = (route: string, method: string, status: number) =>
        sample(
          text,
          `slotline_http_requests_total{route="${route}",method="${method}",status="${status}"}`,
        );
      assert.ok((count('/v2/accounts', 'GET', 200) ?? 0) >= 3, text);
      assert.equal(count('/v2/accounts', 'POST', 201), 1);
      assert.equal(count('/v2/accounts/:accountId', 'GET', 200), 1);
      assert.equal(count('/v2/accounts/:accountId', 'GET', 404), 1);
      assert.equal(count('unmatched', 'GET', 404), 1);
      assert.doesNotMatch(text, new RegExp(id), 'no raw URL becomes a label');
      assert.doesNotMatch(text, /no\/such\/path/);
      assert.ok(
        (sample(
          text,
          'slotline_http_request_duration_seconds_count{route="/v2/accounts",method="GET",status="200"}',
        ) ?? 0) >= 3,
      );
      assert.match(text, /slotline_http_request_duration_seconds_bucket\{le="0\.005",route=/);
      // The scrape itself is under way while it is rendered.
      assert.equal(sample(text, 'slotline_http_requests_in_flight'), 1);
      // Process metrics, on this registry and not the global one.
      assert.ok((sample(text, 'process_cpu_user_seconds_total') ?? -1) >= 0);
      assert.match(text, /^nodejs_eventloop_lag_seconds /m);
      assert.doesNotMatch(await globalRegistry.metrics(), /slotline_/);
      // The pool on PostgreSQL; SQLite has one connection and no pool.
      if (dialect === 'postgres') {
        assert.equal(sample(text, 'slotline_db_pool_connections{state="max"}'), t.config.pgPoolMax);
        assert.ok((sample(text, 'slotline_db_pool_connections{state="total"}') ?? 0) >= 1);
      } else {
        assert.doesNotMatch(text, /slotline_db_pool_connections\{/);
      }
    });

    test('queue items by status, dispatcher passes, uploads and their bytes', async () => {
      const t = get();
      const { key } = await seedCompany(t);
      const call = client(t, key);
      const image = await uploadFile(t, call, 'image.jpg');
      assert.equal(image.complete.status, 200, JSON.stringify(image.complete.body));
      const tooTall = await uploadFile(t, call, 'image-16x8200.jpg');
      assert.equal(tooTall.complete.status, 422);
      await dispatchPass(t.ctx, t.clock.now());
      await t.media.idle();
      const text = (await scrape()).body;
      for (const status of ['queued', 'posting', 'posted', 'failed', 'cancelled']) {
        assert.notEqual(sample(text, `slotline_queue_items{status="${status}"}`), null, status);
      }
      assert.equal(
        sample(text, 'slotline_uploads_completed_total{kind="image",outcome="ready"}'),
        1,
      );
      assert.equal(
        sample(text, 'slotline_uploads_completed_total{kind="image",outcome="failed"}'),
        1,
      );
      assert.ok((sample(text, 'slotline_upload_bytes_total') ?? 0) > 0);
      assert.equal(sample(text, 'slotline_dispatch_passes_total{outcome="ok"}'), 1);
      assert.equal(sample(text, 'slotline_dispatch_releases_total'), 0);
      assert.equal(sample(text, 'slotline_report_deadlines_missed_total{kind="unclaimed"}'), 0);
      assert.equal(sample(text, 'slotline_media_backlog{lane="thumbnails"}'), 0);
    });
  },
  { env: { METRICS_TOKEN: TOKEN }, metrics: true },
);

describeEachDialect('metrics with neither a token nor a port', (get) => {
  test('/metrics is a 404 like any unknown path', async () => {
    const res = await get().app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.code, 'not_found');
  });
});

test('the separate listener serves /metrics only, with the token when one is set', async () => {
  const metrics = new PromMetrics();
  metrics.uploadBytes(42);
  const open = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0, token: null });
  const guarded = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0, token: TOKEN });
  try {
    const base = `http://127.0.0.1:${open.port}`;
    const res = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.equal(sample(text, 'slotline_upload_bytes_total'), 42);
    assert.match(text, /^process_resident_memory_bytes /m);
    const other = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(other.status, 404);
    await other.text();

    const g = `http://127.0.0.1:${guarded.port}/metrics`;
    const denied = await fetch(g, { signal: AbortSignal.timeout(10_000) });
    assert.equal(denied.status, 401);
    await denied.text();
    const allowed = await fetch(g, {
      headers: { authorization: `Bearer ${TOKEN}` },
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(allowed.status, 200);
    await allowed.text();
  } finally {
    await open.close();
    await guarded.close();
  }
});

test('delivery figures are gauges per period, aggregates only, absent while unknown', async () => {
  const metrics = new PromMetrics();
  const figures = {
    delivered: 7,
    onTimeRatio: 0.5714,
    failedRatio: 0.2857,
    unconfirmedRatio: 0,
    releaseToPostedP50Minutes: 20,
    releaseToPostedP95Minutes: 120,
    releaseToClaimP50Minutes: 3,
    releaseToClaimP95Minutes: 15,
    windowsMissed: 1,
  };
  let reads = 0;
  metrics.observe({
    poolStats: () => null,
    itemCounts: () => Promise.resolve({}),
    mediaBacklog: () =>
      Promise.resolve({
        waiting: { render: 0, thumbnail: 0 },
        running: { render: 0, thumbnail: 0 },
        oldestWaitingSeconds: { render: 0, thumbnail: 0 },
      }),
    delivery: () => {
      reads += 1;
      return Promise.resolve({
        '7d': {
          ...figures,
          delivered: 0,
          onTimeRatio: null,
          failedRatio: null,
          unconfirmedRatio: null,
          releaseToPostedP50Minutes: null,
          releaseToPostedP95Minutes: null,
          releaseToClaimP50Minutes: null,
          releaseToClaimP95Minutes: null,
          windowsMissed: 0,
        },
        '30d': figures,
      });
    },
  });
  const text = (await metrics.scrape()).body;
  assert.equal(sample(text, 'slotline_delivery_items{period="30d"}'), 7);
  assert.equal(sample(text, 'slotline_delivery_items{period="7d"}'), 0);
  assert.equal(sample(text, 'slotline_delivery_on_time_ratio{period="30d"}'), 0.5714);
  assert.equal(sample(text, 'slotline_delivery_on_time_ratio{period="7d"}'), null);
  assert.equal(sample(text, 'slotline_delivery_failed_ratio{period="30d"}'), 0.2857);
  assert.equal(sample(text, 'slotline_delivery_unconfirmed_ratio{period="30d"}'), 0);
  assert.equal(sample(text, 'slotline_delivery_release_to_posted_p50_minutes{period="30d"}'), 20);
  assert.equal(sample(text, 'slotline_delivery_release_to_posted_p95_minutes{period="30d"}'), 120);
  assert.equal(sample(text, 'slotline_delivery_release_to_claim_p50_minutes{period="30d"}'), 3);
  assert.equal(sample(text, 'slotline_delivery_release_to_claim_p95_minutes{period="30d"}'), 15);
  assert.equal(sample(text, 'slotline_delivery_release_to_claim_p50_minutes{period="7d"}'), null);
  assert.equal(sample(text, 'slotline_delivery_windows_missed{period="30d"}'), 1);
  assert.doesNotMatch(text, /slotline_delivery_[a-z_]+\{[^}]*(account|worker|company|item)/);
  // One reading serves the scrapes of a minute.
  await metrics.scrape();
  assert.equal(reads, 1);
});
