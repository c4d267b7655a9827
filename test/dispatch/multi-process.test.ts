// Several dispatcher processes on one PostgreSQL database (reliability 8.F1/F4):
// three `slotline dispatch --once` processes started together release every
// due item exactly once. The test holds a SHARE lock on `releases` until all
// three have planned and wait at their first insert, so their writes really
// overlap, whatever the machine's speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { describeEachDialect } from '../helpers/dialects.ts';
import { seedCompany } from '../helpers/app.ts';
import { DUE_AT, seedDueAccounts } from '../../bench/due-accounts.ts';

/** Enough accounts for three release transactions per process (1,000 per chunk). */
const ACCOUNTS = 2500;
const PROCESSES = 3;
/** A child that has not finished by then is killed and the test fails. */
const CHILD_TIMEOUT_MS = 60_000;
const BIN = fileURLToPath(new URL('../../bin/slotline.js', import.meta.url));

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function dispatcher(env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<Finished> } {
  const child = spawn(process.execPath, [BIN, 'dispatch', '--once', '--at', DUE_AT, '--json'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Finished>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

describeEachDialect('dispatch in several processes', (get, dialect) => {
  test(
    `${PROCESSES} dispatcher processes at once release every due item exactly once`,
    {
      skip:
        dialect === 'sqlite'
          ? 'SQLite supports one dispatcher process (SPEC); several at once need PostgreSQL'
          : false,
    },
    async () => {
      const t = get();
      const { companyId } = await seedCompany(t, { plan: 'scale' });
      const seeded = await seedDueAccounts(t.ctx.db, companyId, ACCOUNTS);
      const env = {
        ...process.env,
        DATABASE_URL: t.config.databaseUrl ?? '',
        DATA_DIR: t.config.dataDir,
        LOG_LEVEL: 'warn',
      };
      const children: ReturnType<typeof dispatcher>[] = [];
      let waiting = 0;
      try {
        await t.ctx.db.transaction().execute(async (tx) => {
          await sql`lock table releases in share mode`.execute(tx);
          for (let i = 0; i < PROCESSES; i++) children.push(dispatcher(env));
          const deadline = Date.now() + CHILD_TIMEOUT_MS;
          while (Date.now() < deadline) {
            const r = await sql<{ n: string }>`
              select count(*) as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'
                and query like 'insert into "releases"%'`.execute(t.ctx.db);
            waiting = Number(r.rows[0]?.n ?? 0);
            if (waiting >= PROCESSES) break;
            if (children.some((c) => c.child.exitCode !== null)) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        });
        const results = await Promise.all(children.map((c) => c.done));
        for (const [i, r] of results.entries()) {
          assert.equal(r.code, 0, `dispatcher ${i} exited ${r.code ?? r.signal}: ${r.stderr}`);
        }
        assert.equal(waiting, PROCESSES, 'every process reached its first release insert at once');
        const passes = results.map((r) => JSON.parse(r.stdout) as { released: number });
        assert.equal(
          passes.reduce((sum, p) => sum + p.released, 0),
          ACCOUNTS,
          `released per process: ${passes.map((p) => p.released).join(', ')}`,
        );

        const releases = await t.ctx.db
          .selectFrom('releases')
          .select(['account_id', 'local_date', 'slot_label', 'queue_item_id'])
          .where('company_id', '=', companyId)
          .execute();
        assert.equal(releases.length, ACCOUNTS, 'one release per due item');
        assert.equal(
          new Set(releases.map((r) => r.queue_item_id)).size,
          ACCOUNTS,
          'no item in two releases',
        );
        const slots = new Set(
          releases.map((r) => `${r.account_id} ${r.local_date} ${r.slot_label}`),
        );
        assert.equal(slots.size, releases.length, 'no account with two releases in one slot');
        assert.equal(
          new Set(releases.map((r) => r.account_id)).size,
          ACCOUNTS,
          'every account released its one item',
        );
        const seededItems = new Set(seeded.itemIds);
        assert.ok(
          releases.every((r) => seededItems.has(r.queue_item_id)),
          'only the seeded items were released',
        );

        const items = await t.ctx.db
          .selectFrom('queue_items')
          .select(['status', 'released_at'])
          .where('company_id', '=', companyId)
          .execute();
        assert.equal(items.length, ACCOUNTS);
        assert.deepEqual(
          [...new Set(items.map((i) => `${i.status} ${i.released_at}`))],
          [`posting ${DUE_AT}`],
          'every item is posting, released at the pass instant',
        );
        const posts = await t.ctx.db
          .selectFrom('posts')
          .select('status')
          .where('company_id', '=', companyId)
          .execute();
        assert.deepEqual(
          [...new Set(posts.map((p) => p.status))],
          ['posting'],
          'every post shows its released item',
        );
      } finally {
        for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
      }
    },
  );
});
