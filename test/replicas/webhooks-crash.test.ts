// A service killed with SIGKILL between state changes and their deliveries: after a restart
// on the same database, the receiver has every event exactly once once deduplicated by
// webhook-id, and no event the database does not hold. The receiver holds the first
// process's deliveries open, so at the kill some are in flight (claimed), some are waiting
// in the outbox and some are not fanned out yet.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES } from '../../src/access.ts';
import { openContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createCompany } from '../../src/modules/companies/index.ts';
import { createKey } from '../../src/modules/keys/index.ts';
import { validAccount } from '../helpers/app.ts';
import { createPgDatabase, DIALECTS } from '../helpers/databases.ts';
import { api, printLogs, startReplicas, type Replicas } from '../helpers/replicas.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const TOGGLES = 24;

for (const dialect of DIALECTS) {
  describe(`webhooks survive a SIGKILL [${dialect}]`, { timeout: 180_000 }, () => {
    const cleanup: (() => Promise<void>)[] = [];
    after(async () => {
      for (const c of cleanup.reverse()) await c();
    });

    test('no event lost, none duplicated once deduplicated by webhook-id', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'slotline-crash-'));
      cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
      const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
      if (pgDb) cleanup.push(pgDb.drop);
      const env = {
        DATA_DIR: dataDir,
        ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
        REMOTE_FETCH_ALLOW: '127.0.0.1',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_POLL_MS: '100',
        SIMULATOR: 'off',
        DISPATCH_INTERVAL_MS: '0',
      };
      // Seeded before the service starts (the embedded database takes one service).
      const seeding = await openContext(loadConfig(env));
      const company = await createCompany(seeding.ctx.db, systemClock, seeding.ctx.config.plans, {
        name: 'Crash Co',
        plan: seeding.ctx.config.defaultPlan,
      });
      const key = (
        await createKey(seeding.ctx.db, systemClock, {
          companyId: company.companyId,
          scopes: [...SCOPES],
        })
      ).secret;
      await seeding.close();

      const rx = await startReceiver();
      cleanup.push(() => rx.close());
      rx.answer = () => 'hold';

      let first: Replicas | null = await startReplicas(1, env);
      cleanup.push(async () => first?.stop());
      const a = api(first.replicas[0]!.url, key);
      const hook = await a('POST', '/v2/webhooks', {
        url: rx.url,
        events: ['account.status_changed'],
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const account = await a('POST', '/v2/accounts', validAccount());
      assert.equal(account.status, 201);
      const id = account.body.accountId as string;
      for (let i = 0; i < TOGGLES; i++) {
        const res = await a('POST', `/v2/accounts/${id}/${i % 2 === 0 ? 'pause' : 'resume'}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      // Some deliveries are on the wire, held by the receiver.
      await rx.waitFor(1, 10_000);
      const heldBeforeKill = rx.received.length;
      first.replicas[0]!.child.kill('SIGKILL');
      await new Promise((resolve) => first!.replicas[0]!.child.once('exit', resolve));
      first = null;

      rx.answer = () => 204;
      const second = await startReplicas(1, env);
      cleanup.push(() => second.stop());
      const check = await openContext(loadConfig(env), { skipMigrations: true });
      cleanup.push(() => check.close());
      const stored = await check.ctx.db
        .selectFrom('webhook_events')
        .select('id')
        .where('company_id', '=', company.companyId)
        .execute();
      assert.equal(stored.length, TOGGLES, 'one event per change, written with it');
      const expected = new Set(stored.map((r) => r.id));
      const distinct = () => new Set(rx.received.map((r) => String(r.headers['webhook-id'])));
      const deadline = Date.now() + 60_000;
      while (distinct().size < expected.size && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      printLogs(second);
      assert.deepEqual([...distinct()].sort(), [...expected].sort());
      // Only what was on the wire at the kill may have come twice.
      assert.ok(rx.received.length <= expected.size + heldBeforeKill);
      // The receiver answered; the settles land right after.
      const settled = async () =>
        check.ctx.db
          .selectFrom('webhook_deliveries')
          .select(['status'])
          .where('company_id', '=', company.companyId)
          .execute();
      let rows = await settled();
      while (rows.some((r) => r.status !== 'succeeded') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        rows = await settled();
      }
      assert.equal(rows.length, TOGGLES);
      assert.deepEqual(
        rows.filter((r) => r.status !== 'succeeded'),
        [],
      );
      const statuses = rx.received
        .filter(
          (r, i, all) =>
            all.findIndex((x) => x.headers['webhook-id'] === r.headers['webhook-id']) === i,
        )
        .map((r) => (JSON.parse(r.body) as { data: { status: string } }).data.status);
      assert.equal(statuses.filter((s) => s === 'paused').length, TOGGLES / 2);
    });
  });
}
