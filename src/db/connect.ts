import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database, Db, Dialect } from './types.ts';
import { migrationProvider } from './migrations/index.ts';
import { withQueryCaches } from './sqlite-cache.ts';
import { allowDirectReads, statementName } from './prepared.ts';
import { startCheckpointer } from './checkpointer.ts';
import { listenForAuthChanges } from './auth-changes.ts';
import { noteWrites, watchPgChanges } from './pg-data-version.ts';
import { registerDialect, SqliteWithoutRowLocks } from './capabilities.ts';

/** Connections of the PostgreSQL pool, for monitoring. */
export interface PoolStats {
  /** Open connections, idle or in use. */
  total: number;
  idle: number;
  /** Queries queued for a connection. */
  waiting: number;
  /** The pool's upper bound. */
  max: number;
}

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
  /** The pool's use now; null for SQLite, one synchronous connection with no pool. */
  poolStats(): PoolStats | null;
}

export interface ConnectOptions {
  databaseUrl: string | null;
  /** Directory of the embedded SQLite file; ignored for PostgreSQL. */
  dataDir: string;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
  poolSize?: number;
  /** PostgreSQL: the change poll of kept reads (pg-data-version.ts); 0 or unset keeps none. */
  readCacheMs?: number;
  /** PostgreSQL: how long a query waits for a connection to the server at most. */
  connectTimeoutMs?: number;
  /**
   * Receives what fails in the handle's own background work: an idle pool connection
   * dropped by the server, a WAL checkpoint of the embedded database. Neither stops the
   * service (the next query reconnects; commits checkpoint by themselves again).
   */
  onError?: (err: unknown) => void;
}

export function connect(opts: ConnectOptions): DbHandle {
  if (opts.databaseUrl) {
    const max = opts.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max,
      // A dropped connection must not take the process down; the next query reconnects.
      idleTimeoutMillis: 30_000,
      // With the server unreachable a request fails after this instead of waiting forever
      // (readiness says why meanwhile).
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 10_000,
    });
    // An idle connection the server dropped; reported without the client it came with (which
    // holds connection details and statements). Connections ending with the pool are not news.
    let closing = false;
    pool.on('error', (err: Error & { code?: string }) => {
      if (closing) return;
      const lost = new Error(`an idle database connection was lost: ${err.message}`);
      opts.onError?.(Object.assign(lost, err.code ? { code: err.code } : {}));
    });
    pool.on('connect', nameHotStatements);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    registerDialect(db, 'postgres');
    pool.on('connect', (client) => noteWrites(db, client));
    const stopListening = listenForAuthChanges(db, opts.databaseUrl);
    const readCacheMs = opts.readCacheMs ?? 0;
    const stopWatching =
      readCacheMs > 0 ? watchPgChanges(db, opts.databaseUrl, readCacheMs) : async () => {};
    return {
      db,
      dialect: 'postgres',
      close: async () => {
        closing = true;
        await stopWatching();
        await stopListening();
        await db.destroy();
      },
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max,
      }),
    };
  }
  const file = opts.sqliteFile ?? 'slotline.db';
  let path = file;
  if (file !== ':memory:') {
    mkdirSync(opts.dataDir, { recursive: true });
    path = join(opts.dataDir, file);
  }
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  // WAL with synchronous=NORMAL is durable across process crashes; only an OS
  // crash can lose the last transactions.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const checkpointer = file === ':memory:' ? null : startCheckpointer(sqlite, path, opts.onError);
  const { database } = withQueryCaches(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteWithoutRowLocks({ database }) });
  registerDialect(db, 'sqlite');
  allowDirectReads(db, database);
  return {
    db,
    dialect: 'sqlite',
    poolStats: () => null,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Sends the hot-path queries of prepared.ts as named statements: the server
 * parses and plans each once per connection rather than on every run. A table
 * changed since (a migration run by a newer process) makes PostgreSQL refuse a
 * planned statement whose columns moved; the connection then runs that query,
 * and all others after it, unnamed.
 */
function nameHotStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  let naming = true;
  const named = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    const name =
      naming &&
      rest.length === 0 &&
      typeof text === 'string' &&
      Array.isArray(values) &&
      statementName(text);
    if (!name) return query(text, values, ...rest);
    return query({ name, text, values }).catch((err: { code?: string }) => {
      if (err?.code !== STALE_PLAN) throw err;
      naming = false;
      return query(text, values);
    });
  };
  client.query = named as typeof client.query;
}

/** SQLSTATE of "cached plan must not change result type". */
const STALE_PLAN = '0A000';

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrate(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(
      `migration ${failed?.migrationName ?? '(unknown)'} failed: ${(error as Error).message ?? error}`,
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of the migrations this build has that the database has not applied. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** One round trip to the database: resolves when it answers. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
