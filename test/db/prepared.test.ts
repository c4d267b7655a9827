// Precompiled queries are built once per database and serve its transactions too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, migrate } from '../../src/db/connect.ts';
import { param, prepared } from '../../src/db/prepared.ts';
import type { Db } from '../../src/db/types.ts';

test('a prepared query is compiled once for a database and every transaction on it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-prepared-'));
  const handle = connect({ databaseUrl: null, dataDir: dir });
  try {
    await migrate(handle.db);
    let builds = 0;
    const byKey = prepared((db: Db) => {
      builds++;
      return db.selectFrom('server_settings').select('value').where('key', '=', param('key'));
    });
    await handle.db.insertInto('server_settings').values({ key: 'k', value: 'v' }).execute();
    assert.deepEqual(await byKey(handle.db, { key: 'k' }), [{ value: 'v' }]);
    for (let i = 0; i < 3; i++) {
      await handle.db.transaction().execute(async (tx) => {
        assert.deepEqual(await byKey(tx, { key: 'k' }), [{ value: 'v' }]);
      });
    }
    assert.equal(builds, 1);
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
});
