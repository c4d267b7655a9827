// Group commit on PostgreSQL: concurrent units share a transaction, finishes
// run after every unit's work, and a failing unit leaves the others written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, migrate } from '../../src/db/connect.ts';
import { runGroupedPg } from '../../src/db/pg-grouped-commit.ts';
import type { Db, DbOrTx } from '../../src/db/types.ts';
import { createPgDatabase, DIALECTS } from '../helpers/databases.ts';

const skip = !DIALECTS.includes('postgres') && 'PostgreSQL is not reachable';

async function withDb(fn: (db: Db) => Promise<void>): Promise<void> {
  const pgDb = await createPgDatabase();
  const handle = connect({ databaseUrl: pgDb.url, dataDir: '/nonexistent' });
  try {
    await migrate(handle.db);
    await fn(handle.db);
  } finally {
    await handle.close();
    await pgDb.drop();
  }
}

const put = (tx: DbOrTx, key: string) =>
  tx.insertInto('server_settings').values({ key, value: 'v' }).execute();

async function keys(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('server_settings')
    .select('key')
    .where('key', 'like', 'g-%')
    .orderBy('key')
    .execute();
  return rows.map((r) => r.key);
}

test(
  'units share a transaction, finish after every work, and resolve after the commit',
  { skip, timeout: 30_000 },
  async () => {
    await withDb(async (db) => {
      const steps: string[] = [];
      const units = Array.from({ length: 5 }, (_, i) =>
        runGroupedPg(db, {
          work: async (tx) => {
            await put(tx, `g-${i}`);
            steps.push(`work ${i}`);
            return i;
          },
          finish: async (tx, value) => {
            steps.push(`finish ${value}`);
            await put(tx, `g-${value}-done`);
          },
          // Finishes run by order, then arrival.
          order: i % 2 === 0 ? 'b' : 'a',
        }).then(async (value) => ({ value, visible: (await keys(db)).length })),
      );
      const results = await Promise.all(units);
      assert.deepEqual(
        results.map((r) => r.value),
        [0, 1, 2, 3, 4],
      );
      // Each unit sees all ten rows once it resolves: the group committed as one.
      for (const r of results) assert.equal(r.visible, 10);
      assert.deepEqual(steps, [
        'work 0',
        'work 1',
        'work 2',
        'work 3',
        'work 4',
        'finish 1',
        'finish 3',
        'finish 0',
        'finish 2',
        'finish 4',
      ]);
    });
  },
);

test(
  'a failing unit fails alone; the rest of its group is written',
  { skip, timeout: 30_000 },
  async () => {
    await withDb(async (db) => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 4 }, (_, i) =>
          runGroupedPg(db, {
            work: async (tx) => {
              await put(tx, `g-${i}`);
              // A database error aborts the transaction; the group runs again without it.
              if (i === 1) await put(tx, `g-${i}`);
              return i;
            },
            finish: async (tx, value) => {
              if (value === 2) throw new Error('cap reached');
              await put(tx, `g-${value}-done`);
            },
          }),
        ),
      );
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
      );
      const failure = outcomes[2] as PromiseRejectedResult;
      assert.equal((failure.reason as Error).message, 'cap reached');
      assert.deepEqual(await keys(db), ['g-0', 'g-0-done', 'g-3', 'g-3-done']);
    });
  },
);
