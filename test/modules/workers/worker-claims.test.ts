// Claims under contention (reliability F1): 2,000 released tasks and eight claimers at once,
// every task claimed exactly once. On PostgreSQL the claimers use four separate pools, as
// four service processes would; the embedded database serves one process through one
// connection, so there the eight share it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { seedCompany } from '../../helpers/app.ts';
import { openContext } from '../../../src/bootstrap.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { claimTasks } from '../../../src/modules/workers/tasks.service.ts';
import type { WorkerPrincipal } from '../../../src/access.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/workers.service.ts';
import { DUE_AT, seedDueAccounts } from '../../../bench/due-accounts.ts';

const TASKS = 2000;
const CLAIMERS = 8;

describeEachDialect('claims under contention', (get, dialect) => {
  const CONTEXTS = dialect === 'postgres' ? 4 : 1;
  test('eight claimers claim 2,000 tasks exactly once', async () => {
    const t = get();
    t.clock.set(DUE_AT);
    const { companyId } = await seedCompany(t, { plan: 'scale' });
    const seeded = await seedDueAccounts(t.ctx.db, companyId, TASKS);
    assert.equal((await releaseDue(t.ctx, new Date(DUE_AT))).released, TASKS);
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'busy', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, seeded.accountIds);
    const principal: WorkerPrincipal = {
      workerId: worker.workerId,
      name: worker.name,
      timezone: worker.timezone,
    };
    const contexts = [t.ctx];
    const opened = [];
    for (let i = 1; i < CONTEXTS; i++) {
      const o = await openContext(t.config, { clock: t.clock, skipMigrations: true });
      opened.push(o);
      contexts.push(o.ctx);
    }
    try {
      const claimer = async (i: number) => {
        const ctx = contexts[i % CONTEXTS]!;
        const mine: string[] = [];
        for (;;) {
          const batch = await claimTasks(ctx, principal, { limit: 50 });
          if (batch.length === 0) return mine;
          for (const task of batch) mine.push(task.taskId);
        }
      };
      const results = await Promise.all(Array.from({ length: CLAIMERS }, (_, i) => claimer(i)));
      const all = results.flat();
      assert.equal(all.length, TASKS, 'as many claims as tasks');
      assert.equal(new Set(all).size, TASKS, 'no task claimed twice');
      assert.deepEqual(new Set(all), new Set(seeded.itemIds), 'every released task claimed');
      const rows = await t.ctx.db
        .selectFrom('queue_items')
        .select(['claimed_by'])
        .where('company_id', '=', companyId)
        .execute();
      assert.ok(
        rows.every((r) => r.claimed_by === worker.workerId),
        'every task is recorded as claimed by the worker',
      );
    } finally {
      for (const o of opened) await o.close();
    }
  });
});
