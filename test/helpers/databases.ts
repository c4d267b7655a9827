// Every database test runs on SQLite and on PostgreSQL. PostgreSQL tests use a
// fresh database per test app on the server at SLOTLINE_TEST_PG_URL (default:
// the local server). Without a server they are skipped with one loud line,
// unless SLOTLINE_REQUIRE_PG=1 (CI), where a missing server fails the run.
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { Dialect } from '../../src/db/types.ts';

export const PG_ADMIN_URL =
  process.env.SLOTLINE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function pgReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const available = await pgReachable();
if (!available) {
  if (process.env.SLOTLINE_REQUIRE_PG === '1') {
    throw new Error(
      `PostgreSQL is required (SLOTLINE_REQUIRE_PG=1) but ${PG_ADMIN_URL} is unreachable`,
    );
  }
  console.warn(
    `\n!!! PostgreSQL not reachable at ${PG_ADMIN_URL}: SKIPPING the PostgreSQL half of the database tests !!!\n`,
  );
}

export const DIALECTS: Dialect[] = available ? ['sqlite', 'postgres'] : ['sqlite'];

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Creates an empty PostgreSQL database and returns its URL and a function dropping it. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `slotline_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(PG_ADMIN_URL, name),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
