// Hot-path queries run as named statements on PostgreSQL: planned once per
// connection, and still answered after a migration changes their table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { connect, migrate } from '../../src/db/connect.ts';
import { param, prepared } from '../../src/db/prepared.ts';
import { createPgDatabase, DIALECTS } from '../helpers/databases.ts';

const skip = !DIALECTS.includes('postgres') && 'PostgreSQL is not reachable';

const settingQuery = prepared((db) =>
  db.selectFrom('server_settings').selectAll().where('key', '=', param('key')),
);

test(
  'a named statement is planned once and survives a change of its table',
  { skip, timeout: 30_000 },
  async () => {
    const pgDb = await createPgDatabase();
    // One connection, so every run below meets the statement it planned before.
    const handle = connect({ databaseUrl: pgDb.url, dataDir: '/nonexistent', poolSize: 1 });
    try {
      await migrate(handle.db);
      await handle.db.insertInto('server_settings').values({ key: 'k', value: 'v' }).execute();
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await settingQuery(handle.db, { key: 'k' }), [{ key: 'k', value: 'v' }]);
      }
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_prepared_statements where name like 'slotline_%'`.execute(
        handle.db,
      );
      assert.equal(rows[0]?.n, 1);
      await sql`alter table server_settings add column note text`.execute(handle.db);
      assert.deepEqual(await settingQuery(handle.db, { key: 'k' }), [
        { key: 'k', value: 'v', note: null },
      ]);
    } finally {
      await handle.close();
      await pgDb.drop();
    }
  },
);
