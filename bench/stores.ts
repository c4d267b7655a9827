// Fresh stores for in-process benchmarks: a temporary DATA_DIR, and on PostgreSQL a
// temporary database on the server at SLOTLINE_BENCH_PG_URL, else SLOTLINE_TEST_PG_URL, else
// the local one, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Dialect } from '../src/db/types.ts';

export const PG_ADMIN_URL =
  process.env.SLOTLINE_BENCH_PG_URL ??
  process.env.SLOTLINE_TEST_PG_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchStore {
  /** DATA_DIR, and DATABASE_URL on PostgreSQL. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh store for one round; `name` goes into the temporary directory's name. */
export async function freshStore(dialect: Dialect, name: string): Promise<BenchStore> {
  const dir = await mkdtemp(join(tmpdir(), `slotline-bench-${name}-`));
  if (dialect === 'sqlite') {
    return { env: { DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const db = `slotline_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${db}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${db}`;
  return {
    env: { DATA_DIR: dir, DATABASE_URL: url.toString() },
    drop: async () => {
      await adminQuery(`drop database if exists ${db} with (force)`);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function pgReachable(): Promise<boolean> {
  try {
    await adminQuery('select 1');
    return true;
  } catch {
    return false;
  }
}
