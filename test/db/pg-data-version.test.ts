// The PostgreSQL data version: a process's own writes move it at once, another process's
// commits within about one poll, and nothing is kept inside a transaction or without a poll.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, migrate } from '../../src/db/connect.ts';
import { dataVersion } from '../../src/db/prepared.ts';
import { VersionedMemo } from '../../src/db/versioned-memo.ts';
import { createPgDatabase, DIALECTS } from '../helpers/databases.ts';

const POLL_MS = 20;

async function until(what: string, ok: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test(
  'kept reads follow this process at once and another within a poll',
  { skip: !DIALECTS.includes('postgres') && 'needs PostgreSQL', timeout: 60_000 },
  async () => {
    const pgDb = await createPgDatabase();
    const options = { databaseUrl: pgDb.url, dataDir: '/nonexistent', readCacheMs: POLL_MS };
    const one = connect(options);
    const two = connect(options);
    const off = connect({ ...options, readCacheMs: 0 });
    try {
      await migrate(one.db);
      await until(
        'the first polls',
        () => dataVersion(one.db) !== null && dataVersion(two.db) !== null,
      );
      assert.equal(dataVersion(off.db), null, 'PG_READ_CACHE_MS=0 keeps nothing');

      const memo = new VersionedMemo<number>();
      let reads = 0;
      const read = () => memo.get(two.db, 'n', async () => ++reads);
      await read();
      // Another process's commit: `two` sees it within about one poll.
      await one.db.insertInto('server_settings').values({ key: 'a', value: '1' }).execute();
      const seenFrom = Date.now();
      await until(
        'the other process to see the commit',
        () => memo.peek(two.db, 'n') === undefined,
      );
      assert.ok(Date.now() - seenFrom < 1_000, 'seen within a second, usually one poll');

      // This process's own write moves it before the write's promise settles.
      await read();
      assert.notEqual(memo.peek(two.db, 'n'), undefined);
      await two.db.insertInto('server_settings').values({ key: 'b', value: '2' }).execute();
      assert.equal(memo.peek(two.db, 'n'), undefined, 'own write: nothing stale, no waiting');

      await two.db.transaction().execute(async (tx) => {
        assert.equal(dataVersion(tx), null, 'nothing is kept inside a transaction');
      });
    } finally {
      await off.close();
      await two.close();
      await one.close();
      await pgDb.drop();
    }
    assert.equal(dataVersion(two.db), null, 'a closed database keeps nothing');
  },
);
