// The embedded SQLite handle as the query builder sees it, with two caches:
//
// - prepared statements, reused by SQL text (preparing costs more than running a
//   small indexed query);
// - results of read-only statements, reused while the database is unchanged.
//   "Unchanged" is exact: PRAGMA data_version moves when another connection
//   (another process, such as the admin CLI) commits, and every statement of
//   this connection that can write moves a local counter. Nothing is cached
//   inside a transaction, so rolled-back writes are never seen.
//
// Turning row objects into JavaScript values is most of the cost of a read here,
// so a list served twice without a write in between costs a version check.
import type SqliteDatabase from 'better-sqlite3';

const MAX_STATEMENTS = 1000;
const MAX_RESULTS = 5000;
/** Larger results are not kept: they are rare and would crowd the cache. */
const MAX_CACHED_ROWS = 200;

type Statement = SqliteDatabase.Statement<unknown[], unknown>;

export interface SqliteCacheStats {
  hits: number;
  misses: number;
}

export function withQueryCaches(sqlite: SqliteDatabase.Database): {
  database: SqliteDatabase.Database;
  stats: SqliteCacheStats;
} {
  const statements = new Map<string, Statement>();
  const results = new Map<string, { version: string; rows: unknown[] }>();
  const stats: SqliteCacheStats = { hits: 0, misses: 0 };
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let localWrites = 0;

  const version = () => `${dataVersion.get() as number}:${localWrites}`;

  function facade(sql: string, stmt: Statement) {
    return {
      get reader() {
        return stmt.reader;
      },
      all(params: unknown[]) {
        if (!stmt.readonly) {
          try {
            return stmt.all(params);
          } finally {
            localWrites++;
          }
        }
        if (sqlite.inTransaction) return stmt.all(params);
        const key = `${sql}\u0001${JSON.stringify(params)}`;
        const v = version();
        const hit = results.get(key);
        // Callers get their own array (some sort results in place); the rows
        // themselves are frozen and shared.
        if (hit && hit.version === v) {
          stats.hits++;
          return hit.rows.slice();
        }
        stats.misses++;
        const rows = stmt.all(params);
        if (rows.length <= MAX_CACHED_ROWS) {
          for (const row of rows) Object.freeze(row);
          if (results.size >= MAX_RESULTS) results.clear();
          results.set(key, { version: v, rows: rows.slice() });
        }
        return rows;
      },
      run(params: unknown[]) {
        try {
          return stmt.run(params);
        } finally {
          localWrites++;
        }
      },
      iterate(params: unknown[]) {
        if (!stmt.readonly) localWrites++;
        return stmt.iterate(params);
      },
    };
  }

  const facades = new Map<string, ReturnType<typeof facade>>();
  const prepare = (text: string) => {
    // Write transactions take the write lock when they begin, so a second process
    // (the CLI, another dispatcher) waits its turn under busy_timeout instead of
    // failing when a read-then-write transaction cannot be upgraded.
    const sql = /^begin$/i.test(text.trim()) ? 'begin immediate' : text;
    let f = facades.get(sql);
    if (!f) {
      if (statements.size >= MAX_STATEMENTS) {
        statements.clear();
        facades.clear();
      }
      const stmt = sqlite.prepare(sql) as Statement;
      statements.set(sql, stmt);
      f = facade(sql, stmt);
      facades.set(sql, f);
    }
    return f;
  };

  const database = new Proxy(sqlite, {
    get(target, prop) {
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { database, stats };
}
