// Group commit on SQLite: concurrent units share a transaction, each unit is
// atomic, and nothing is reported written before the shared commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { connect, migrate } from '../../src/db/connect.ts';
import { runGrouped } from '../../src/db/grouped-commit.ts';
import type { Db, DbOrTx } from '../../src/db/types.ts';

async function withDb(fn: (db: Db, file: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-grouped-'));
  const handle = connect({ databaseUrl: null, dataDir: dir });
  try {
    await migrate(handle.db);
    await fn(handle.db, join(dir, 'slotline.db'));
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
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

test('units started together share one transaction and resolve after its commit', async () => {
  await withDb(async (db, file) => {
    const outside = new SqliteDatabase(file, { readonly: true });
    try {
      const committed = () =>
        (
          outside
            .prepare("select count(*) as n from server_settings where key like 'g-%'")
            .get() as {
            n: number;
          }
        ).n;
      const seenInside: number[] = [];
      const units = Array.from({ length: 5 }, (_, i) =>
        runGrouped(db, async (tx) => {
          await put(tx, `g-${i}`);
          // Another connection sees none of the group until it commits.
          seenInside.push(committed());
          return i;
        }).then((value) => ({ value, visible: committed() })),
      );
      const results = await Promise.all(units);
      assert.deepEqual(seenInside, [0, 0, 0, 0, 0]);
      assert.deepEqual(
        results.map((r) => r.value),
        [0, 1, 2, 3, 4],
      );
      for (const r of results) assert.equal(r.visible, 5, 'resolved only once committed');
    } finally {
      outside.close();
    }
  });
});

test('a failing unit is undone alone; the others in its group commit', async () => {
  await withDb(async (db) => {
    const outcomes = await Promise.allSettled([
      runGrouped(db, (tx) => put(tx, 'g-a')),
      runGrouped(db, async (tx) => {
        await put(tx, 'g-b');
        throw new Error('unit b fails after writing');
      }),
      runGrouped(db, async (tx) => {
        // A statement that fails inside the unit, after a write of its own.
        await put(tx, 'g-c');
        await put(tx, 'g-a');
      }),
      runGrouped(db, (tx) => put(tx, 'g-d')),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
    );
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /unit b fails/);
    assert.match(String((outcomes[2] as PromiseRejectedResult).reason), /UNIQUE/);
    assert.deepEqual(await keys(db), ['g-a', 'g-d']);
  });
});

test('a unit alone is its own transaction, undone when it fails', async () => {
  await withDb(async (db) => {
    await assert.rejects(
      runGrouped(db, async (tx) => {
        await put(tx, 'g-x');
        throw new Error('alone and failing');
      }),
      /alone and failing/,
    );
    assert.equal(await runGrouped(db, async (tx) => (await put(tx, 'g-y'), 'ok')), 'ok');
    assert.deepEqual(await keys(db), ['g-y']);
  });
});

test('when the shared commit fails, every unit of the group fails and nothing is written', async () => {
  await withDb(async (db) => {
    const outcomes = await Promise.allSettled([
      runGrouped(db, (tx) => put(tx, 'g-1')),
      runGrouped(db, async (tx) => {
        // Foreign keys checked at commit: this unit's orphan item makes the commit fail.
        await sql`pragma defer_foreign_keys = on`.execute(tx);
        await tx
          .insertInto('post_content_groups')
          .values({ post_id: 'pst_missing', company_id: 'c', group_id: 'tag:x', created_at: 'x' })
          .execute();
      }),
      runGrouped(db, (tx) => put(tx, 'g-3')),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const o of outcomes) {
      assert.match(String((o as PromiseRejectedResult).reason), /FOREIGN KEY/);
    }
    assert.deepEqual(await keys(db), []);
    // The database is usable again afterwards.
    await runGrouped(db, (tx) => put(tx, 'g-after'));
    assert.deepEqual(await keys(db), ['g-after']);
  });
});
