// The SQLite result cache never serves data that changed: writes of this
// connection, commits of another connection (another process) and rolled-back
// transactions all invalidate it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { withQueryCaches } from '../../src/db/sqlite-cache.ts';

test('cached reads follow own writes, other connections and rollbacks', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-cache-'));
  const file = join(dir, 'c.db');
  const raw = new SqliteDatabase(file);
  raw.pragma('journal_mode = WAL');
  raw.exec('create table t (id integer primary key, v text)');
  raw.exec("insert into t (v) values ('a')");
  const { database, stats } = withQueryCaches(raw);
  const db = new Kysely<{ t: { id: Generated<number>; v: string } }>({
    dialect: new SqliteDialect({ database }),
  });
  const read = async () =>
    (await db.selectFrom('t').select('v').orderBy('id').execute()).map((r) => r.v);
  try {
    assert.deepEqual(await read(), ['a']);
    assert.deepEqual(await read(), ['a']);
    assert.equal(stats.hits, 1);

    await db.insertInto('t').values({ v: 'b' }).execute();
    assert.deepEqual(await read(), ['a', 'b'], 'own write seen');

    const other = new SqliteDatabase(file);
    other.exec("insert into t (v) values ('c')");
    other.close();
    assert.deepEqual(await read(), ['a', 'b', 'c'], 'another connection’s commit seen');

    await db
      .transaction()
      .execute(async (tx) => {
        await tx.insertInto('t').values({ v: 'd' }).execute();
        assert.deepEqual(
          (await tx.selectFrom('t').select('v').orderBy('id').execute()).map((r) => r.v),
          ['a', 'b', 'c', 'd'],
        );
        throw new Error('roll back');
      })
      .catch(() => {});
    assert.deepEqual(await read(), ['a', 'b', 'c'], 'rolled-back write never seen');

    await sql`update t set v = 'z' where v = 'a'`.execute(db);
    assert.deepEqual(await read(), ['z', 'b', 'c'], 'raw statements count as writes');

    const rows = await db.selectFrom('t').selectAll().execute();
    // Arrays are the caller's own (the migrator sorts them); rows are shared and frozen.
    rows.reverse();
    assert.deepEqual(
      (await db.selectFrom('t').selectAll().execute()).map((r) => r.v),
      ['z', 'b', 'c'],
    );
    assert.throws(() => {
      (rows[0] as { v: string }).v = 'mutated';
    }, TypeError);
  } finally {
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  }
});

test("the request meter's writes leave other cached reads in place, never its own", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-cache-'));
  const raw = new SqliteDatabase(join(dir, 'c.db'));
  raw.pragma('journal_mode = WAL');
  raw.exec('create table t (id integer primary key, v text)');
  raw.exec('create table usage_counters (company_id text primary key, count integer)');
  raw.exec("insert into t (v) values ('a')");
  const { database, stats } = withQueryCaches(raw);
  const db = new Kysely<{
    t: { id: Generated<number>; v: string };
    usage_counters: { company_id: string; count: number };
  }>({ dialect: new SqliteDialect({ database }) });
  const readT = async () => (await db.selectFrom('t').select('v').execute()).map((r) => r.v);
  const readCount = async () =>
    (await db.selectFrom('usage_counters').select('count').execute()).map((r) => r.count);
  try {
    await readT();
    await db.insertInto('usage_counters').values({ company_id: 'c', count: 1 }).execute();
    const hits = stats.hits;
    assert.deepEqual(await readT(), ['a']);
    assert.equal(stats.hits, hits + 1, 'a meter write keeps the other cached reads');
    assert.deepEqual(await readCount(), [1]);
    await db.updateTable('usage_counters').set({ count: 2 }).execute();
    assert.deepEqual(await readCount(), [2], "the meter's reads see its writes");
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('t').values({ v: 'b' }).execute();
    });
    assert.deepEqual(await readT(), ['a', 'b'], 'a committed transaction is seen');
  } finally {
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  }
});
