// GET /healthz and GET /readyz: public, cheap, never a 500, and readiness fails (503)
// for a storage that cannot be reached, a pending migration, or a draining process,
// with a reason that shows no internals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describeEachDialect } from '../helpers/dialects.ts';
import { LocalBlobStore } from '../../src/media/blob-store.ts';
import { Readiness, readinessOf } from '../../src/ops/readiness.ts';

/** A local store whose reachability check fails as a broken mount would. */
class UnreachableStore extends LocalBlobStore {
  override async check(): Promise<void> {
    throw new Error('EACCES: permission denied, access /srv/secret/blobs');
  }
}

/** A local store whose check never answers. */
class HangingStore extends LocalBlobStore {
  override check(): Promise<void> {
    return new Promise(() => {});
  }
}

function assertNoInternals(text: string): void {
  assert.doesNotMatch(text, /\/srv|\/tmp|EACCES|at [\w.]+ \(|stack|postgres:\/\//i, text);
}

describeEachDialect(
  'health and readiness',
  (get) => {
    test('healthz answers 200 without a key', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ok' });
      assert.match(String(res.headers['x-request-id']), /^req_/);
    });

    test('readyz answers 200 with each check, without a key', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        status: 'ready',
        checks: {
          database: { status: 'ok' },
          storage: { status: 'ok' },
          migrations: { status: 'ok' },
          draining: { status: 'ok' },
        },
        mediaJobs: { waiting: 0, running: 0, oldestWaitingSeconds: 0 },
        outbox: { waiting: 0, oldestWaitingSeconds: 0 },
      });
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    test('an API key is ignored, not required, and /metrics is unrouted', async () => {
      const t = get();
      const res = await t.app.inject({
        method: 'GET',
        url: '/readyz',
        headers: { authorization: 'Bearer not-a-key' },
      });
      assert.equal(res.statusCode, 200);
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(metrics.statusCode, 404);
      assert.equal(metrics.json().error.code, 'not_found');
    });

    test('a pending migration makes readyz 503 with the count', async () => {
      const t = get();
      const last = await sql<{ name: string }>`
        select name from kysely_migration order by name desc limit 1`.execute(t.ctx.db);
      const name = last.rows[0]!.name;
      await sql`delete from kysely_migration where name = ${name}`.execute(t.ctx.db);
      try {
        const res = await t.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(res.statusCode, 503, res.body);
        const body = res.json();
        assert.equal(body.status, 'unavailable');
        assert.equal(body.checks.migrations.status, 'failed');
        assert.match(body.checks.migrations.reason, /^1 migration\(s\) pending/);
        assert.equal(body.checks.database.status, 'ok');
      } finally {
        await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
          t.ctx.db,
        );
      }
      const again = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(again.statusCode, 200, 'a failure is not cached');
    });

    test('draining makes readyz 503 at once and for good', async () => {
      const t = get();
      const readiness = readinessOf(t.ctx);
      assert.equal((await readiness.report()).status, 'ready');
      readiness.drain();
      const report = await readiness.report();
      assert.deepEqual(report, {
        status: 'unavailable',
        checks: { draining: { status: 'failed', reason: 'the service is shutting down' } },
      });
    });
  },
  { readiness: (ctx) => readinessOf(ctx, { cacheMs: 0 }) },
);

describeEachDialect(
  'readiness with unreachable storage',
  (get) => {
    test('readyz answers 503 naming storage, with no path or error text', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 503);
      const body = res.json();
      assert.equal(body.status, 'unavailable');
      assert.deepEqual(body.checks.storage, {
        status: 'failed',
        reason: 'media storage is not reachable',
      });
      assert.equal(body.checks.database.status, 'ok');
      assertNoInternals(res.body);
    });

    test('healthz stays 200: alive is not ready', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(res.statusCode, 200);
    });
  },
  { blobs: new UnreachableStore('/srv/secret/blobs') },
);

describeEachDialect(
  'readiness with a storage check that hangs',
  (get) => {
    test('the check is bounded by its timeout and answered 503', async () => {
      const started = Date.now();
      const res = await get().app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json().checks.storage, {
        status: 'failed',
        reason: 'no answer within 200 ms',
      });
      assert.ok(Date.now() - started < 5_000);
    });
  },
  {
    blobs: new HangingStore('/tmp/slotline-never'),
    readiness: (ctx) => readinessOf(ctx, { timeoutMs: 200 }),
  },
);

test('a check that outlives its timeout is not started again until it settles', async () => {
  let calls = 0;
  let answer: () => void = () => {};
  const readiness = new Readiness(
    {
      database: () => {
        calls++;
        if (calls > 1) return Promise.resolve();
        return new Promise<void>((resolve) => (answer = resolve));
      },
    },
    { timeoutMs: 50, cacheMs: 0 },
  );
  for (let i = 0; i < 3; i++) {
    const report = await readiness.report();
    assert.equal(report.checks.database?.status, 'failed');
  }
  assert.equal(calls, 1);
  answer();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal((await readiness.report()).status, 'ready');
  assert.equal(calls, 2);
});
