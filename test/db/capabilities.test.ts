// What differs between the databases, chosen in db/capabilities.ts: row locks compile on
// PostgreSQL and are left out on SQLite; grouped commits run on both with one call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kysely, PostgresAdapter, PostgresQueryCompiler, type DatabaseConnection } from 'kysely';
import { describeEachDialect } from '../helpers/dialects.ts';
import { SqliteWithoutRowLocks, commitGrouped } from '../../src/db/capabilities.ts';
import type { Database } from '../../src/db/types.ts';

/** A Kysely that only compiles (its driver is never asked for a connection). */
function compilerOnly(dialect: 'sqlite' | 'postgres'): Kysely<Database> {
  if (dialect === 'sqlite') {
    return new Kysely<Database>({ dialect: new SqliteWithoutRowLocks({ database: {} as never }) });
  }
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => ({
        init: async () => {},
        acquireConnection: async () => ({}) as DatabaseConnection,
        beginTransaction: async () => {},
        commitTransaction: async () => {},
        rollbackTransaction: async () => {},
        releaseConnection: async () => {},
        destroy: async () => {},
      }),
      createIntrospector: () => {
        throw new Error('not used');
      },
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

test('row locks compile on PostgreSQL and are left out on SQLite', () => {
  const query = (db: Kysely<Database>) =>
    db.selectFrom('posts').select('id').where('id', '=', 'p').forUpdate().skipLocked().compile();
  assert.match(query(compilerOnly('postgres')).sql, /for update skip locked$/);
  assert.doesNotMatch(query(compilerOnly('sqlite')).sql, /for update|skip locked/);
  const share = compilerOnly('sqlite')
    .selectFrom('accounts')
    .select('id')
    .distinct()
    .forShare()
    .compile().sql;
  assert.match(share, /^select distinct/);
  assert.doesNotMatch(share, /for share/);
});

describeEachDialect('grouped commits through one call', (get) => {
  test('work and finish run in one transaction, on either database', async () => {
    const db = get().ctx.db;
    const key = `grouped-${Math.random().toString(36).slice(2)}`;
    const value = await commitGrouped(db, {
      work: async (tx) => {
        await tx.insertInto('server_settings').values({ key, value: 'w' }).execute();
        return 'done';
      },
      finish: async (tx, v) => {
        await tx.updateTable('server_settings').set({ value: v }).where('key', '=', key).execute();
      },
    });
    assert.equal(value, 'done');
    const row = await db
      .selectFrom('server_settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    assert.equal(row?.value, 'done');
  });
});
