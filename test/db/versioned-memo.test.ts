// Values kept by data version are served only while nothing changed, never
// inside a transaction, and within their bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, migrate } from '../../src/db/connect.ts';
import { VersionedMemo } from '../../src/db/versioned-memo.ts';

test('a kept value lasts until the next write, and bounds drop what is kept', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-memo-'));
  const handle = connect({ databaseUrl: null, dataDir: dir });
  try {
    await migrate(handle.db);
    const db = handle.db;
    const memo = new VersionedMemo<string>({
      maxEntries: 10,
      maxBytes: 10,
      sizeOf: (v) => v.length,
    });
    assert.equal(await memo.get(db, 'a', async () => 'one'), 'one');
    assert.equal(memo.peek(db, 'a'), 'one', 'kept while unchanged');
    await db.insertInto('server_settings').values({ key: 'k', value: 'v' }).execute();
    assert.equal(memo.peek(db, 'a'), undefined, 'a write ends it');
    assert.equal(await memo.get(db, 'a', async () => 'two'), 'two');
    assert.equal(await memo.get(db, 'big', async () => 'x'.repeat(11)), 'x'.repeat(11));
    assert.equal(memo.peek(db, 'big'), undefined, 'a value past the byte bound is not kept');
    await memo.get(db, 'b', async () => 'x'.repeat(9));
    assert.equal(memo.peek(db, 'a'), undefined, 'passing the byte bound drops the rest');
    assert.equal(memo.peek(db, 'b'), 'x'.repeat(9));
    await db.transaction().execute(async (tx) => {
      assert.equal(await memo.get(tx, 'c', async () => 'in tx'), 'in tx');
      assert.equal(memo.peek(tx, 'c'), undefined, 'nothing is kept inside a transaction');
    });
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
});
