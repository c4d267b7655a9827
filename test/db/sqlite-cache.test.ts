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
