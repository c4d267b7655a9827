// WAL checkpoints run from a worker thread: the service's own connection never checkpoints
// inside a commit, and the WAL is still copied back into the database file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { startCheckpointer } from '../../src/db/checkpointer.ts';

test('a worker thread checkpoints the WAL that commits no longer checkpoint', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'slotline-ckpt-'));
  const path = join(dir, 'db.sqlite');
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  const checkpointer = startCheckpointer(sqlite, path, undefined, 50);
  try {
    assert.equal(sqlite.pragma('wal_autocheckpoint', { simple: true }), 0);
    sqlite.exec('create table t (id integer primary key, v text)');
    const insert = sqlite.prepare('insert into t (v) values (?)');
    const many = sqlite.transaction((n: number) => {
      for (let i = 0; i < n; i++) insert.run('x'.repeat(200));
    });
    // Far past the 1,000-page default threshold: without the worker the WAL only grows.
    for (let i = 0; i < 20; i++) many(1000);
    const dbSizeBefore = statSync(path).size;
    const deadline = Date.now() + 10_000;
    let copied = false;
    while (!copied && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      copied = statSync(path).size > dbSizeBefore;
    }
    assert.ok(copied, 'the database file grew: WAL frames were copied into it');
    assert.equal(
      (sqlite.prepare('select count(*) as n from t').get() as { n: number }).n,
      20_000,
      'every row is still there',
    );
  } finally {
    await checkpointer.stop();
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
