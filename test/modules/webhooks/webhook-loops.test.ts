// The delivery loop in real time: woken by events recorded in its process, and, on
// PostgreSQL, two loops (two replicas' worth) over one database deliver each event once.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContext, type OpenedContext } from '../../../src/bootstrap.ts';
import { loadConfig } from '../../../src/config.ts';
import { startWebhookLoop } from '../../../src/dispatch/webhook-loop.ts';
import { createCompany } from '../../../src/modules/companies/index.ts';
import {
  recordEvents,
  type NewEvent,
} from '../../../src/modules/webhooks/webhook-events.service.ts';
import { createWebhook } from '../../../src/modules/webhooks/webhooks.service.ts';
import { createPgDatabase, DIALECTS } from '../../helpers/databases.ts';
import { startReceiver } from '../../helpers/webhook-receiver.ts';

const EVENTS = 300;

function events(companyId: string, from: number, n: number): NewEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    companyId,
    type: 'post.status_changed' as const,
    data: {
      postId: `pst_${from + i}`,
      status: 'posted' as const,
      previousStatus: 'posting' as const,
    },
  }));
}

for (const dialect of DIALECTS) {
  const loops = dialect === 'postgres' ? 2 : 1;
  describe(`webhook delivery loops [${dialect}]`, { timeout: 120_000 }, () => {
    const cleanup: (() => Promise<void>)[] = [];
    after(async () => {
      for (const c of cleanup.reverse()) await c();
    });

    test(`${loops} loop(s) deliver every event exactly once, promptly`, async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'slotline-loops-'));
      cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
      const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
      if (pgDb) cleanup.push(pgDb.drop);
      const env = {
        DATA_DIR: dataDir,
        ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
        REMOTE_FETCH_ALLOW: '127.0.0.1',
        WEBHOOK_ENDPOINT_CONCURRENCY: '8',
      };
      const rx = await startReceiver();
      cleanup.push(() => rx.close());
      const opened: OpenedContext[] = [];
      for (let i = 0; i < loops; i++) {
        const o = await openContext(loadConfig(env));
        opened.push(o);
        cleanup.push(() => o.close());
      }
      const ctx = opened[0]!.ctx;
      const company = await createCompany(ctx.db, ctx.clock, ctx.config.plans, {
        name: 'Loops Co',
        plan: ctx.config.defaultPlan,
      });
      await createWebhook(ctx, company.companyId, {
        url: rx.url,
        events: ['post.status_changed'],
      });
      const errors: unknown[] = [];
      const running = opened.map((o) =>
        // A long poll: anything prompt comes from the wake-up on a recorded event.
        startWebhookLoop(o.ctx, { pollMs: 60_000, onError: (e) => errors.push(e) }),
      );
      cleanup.push(async () => {
        await Promise.all(running.map((l) => l.stop()));
      });

      const started = Date.now();
      for (let i = 0; i < EVENTS; i += 30) {
        await recordEvents(ctx.db, events(company.companyId, i, 30), new Date().toISOString());
      }
      // The other replica's events reach it through its poll; wake it as its own would.
      for (const l of running) l.kick();
      await rx.waitFor(EVENTS, 60_000);
      const tookMs = Date.now() - started;
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(errors, []);
      const ids = rx.received.map((r) => String(r.headers['webhook-id']));
      assert.equal(ids.length, EVENTS, 'no event was sent twice');
      assert.equal(new Set(ids).size, EVENTS);
      assert.ok(tookMs < 30_000, `took ${tookMs} ms`);
    });

    test('attempts time out, and one endpoint gets at most its concurrency at once', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'slotline-loops-'));
      cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
      const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
      if (pgDb) cleanup.push(pgDb.drop);
      const opened = await openContext(
        loadConfig({
          DATA_DIR: dataDir,
          ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
          REMOTE_FETCH_ALLOW: '127.0.0.1',
          WEBHOOK_TIMEOUT_MS: '1000',
          WEBHOOK_ENDPOINT_CONCURRENCY: '2',
        }),
      );
      cleanup.push(() => opened.close());
      const { ctx } = opened;
      const rx = await startReceiver();
      cleanup.push(() => rx.close());
      rx.answer = () => 'hold';
      const company = await createCompany(ctx.db, ctx.clock, ctx.config.plans, {
        name: 'Slow Co',
        plan: ctx.config.defaultPlan,
      });
      const hook = await createWebhook(ctx, company.companyId, {
        url: rx.url,
        events: ['post.status_changed'],
      });
      const loop = startWebhookLoop(ctx, { pollMs: 50, onError: () => undefined });
      cleanup.push(() => loop.stop());
      await recordEvents(ctx.db, events(company.companyId, 0, 6), new Date().toISOString());
      await rx.waitFor(2, 5_000);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(rx.received.length, 2, 'two at once, the others wait');
      await rx.waitFor(4, 5_000);
      const attempts = await ctx.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('endpoint_id', '=', hook.webhookId)
        .execute();
      assert.ok(attempts.length >= 2);
      for (const a of attempts) {
        assert.equal(a.outcome, 'failed');
        assert.equal(a.response_status, null);
        assert.match(a.error ?? '', /^timed out/);
        assert.ok(a.duration_ms >= 900 && a.duration_ms < 3000, `took ${a.duration_ms} ms`);
      }
    });
  });
}
