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
//
// Two kinds of statements do not move the version of everything: transaction
// control (the writes inside a transaction move it themselves, and nothing is
// cached while one is open), and writes of the request meter's counters
// (usage_counters), which come every few dozen requests and would otherwise
// throw away every cached read as often. Those move a counter of their own,
// which only reads of that table check.
//
// The version is read at most once per synchronous run of JavaScript: reads
// issued together (a Promise.all of queries) share one PRAGMA, and the next
// microtask reads it again. No request can observe another process's commit
// inside one synchronous run (its bytes arrive in a later event), so this is as
// exact as reading it per statement.
import type SqliteDatabase from 'better-sqlite3';

const MAX_STATEMENTS = 1000;
const MAX_RESULTS = 5000;
/** Larger results are not kept: they are rare and would crowd the cache. */
const MAX_CACHED_ROWS = 200;

type Statement = SqliteDatabase.Statement<unknown[], unknown>;

interface CachedResult {
  version: number;
  meter: number;
  rows: unknown[];
}

const CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;
export const METER_WRITE = /^\s*(insert\s+into|update|delete\s+from)\s+"usage_counters"\s/i;
const METER_TABLE = /\busage_counters\b/i;

/** What a statement that can write changes, for the versions it moves. */
function writeKind(sql: string): 'control' | 'meter' | 'data' {
  if (CONTROL.test(sql)) return 'control';
  if (METER_WRITE.test(sql)) return 'meter';
  return 'data';
}

export interface SqliteCacheStats {
  hits: number;
  misses: number;
}

/** What the facade adds to the database handle, read by prepared.ts. */
export interface DataVersionSource {
  /**
   * A number that changes whenever the data may have changed (a write of this
   * connection, a commit of another), or null inside a transaction, where
   * nothing may be cached. This connection's writes of the request meter's
   * counters do not move it: nothing derived from usage_counters may be kept
   * by it.
   */
  slotlineDataVersion(): number | null;
}

export function withQueryCaches(sqlite: SqliteDatabase.Database): {
  database: SqliteDatabase.Database & DataVersionSource;
  stats: SqliteCacheStats;
} {
  const statements = new Map<string, Statement>();
  let cachedResults = 0;
  const stats: SqliteCacheStats = { hits: 0, misses: 0 };
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();

  // `generation` moves on every local write and whenever data_version differs
  // from the value last seen; one number so a cache check is one comparison.
  let generation = 0;
  let lastDataVersion: unknown = undefined;
  let checked = false;
  const endRun = () => {
    checked = false;
  };
  const version = (): number => {
    if (!checked) {
      const dv = dataVersion.get();
      if (dv !== lastDataVersion) {
        lastDataVersion = dv;
        generation++;
      }
      checked = true;
      queueMicrotask(endRun);
    }
    return generation;
  };
  let meterGeneration = 0;

  // Every facade's results, so the bound on their number can clear them all.
  const resultMaps: Map<string, CachedResult>[] = [];

  function facade(sql: string, stmt: Statement) {
    const results = new Map<string, CachedResult>();
    resultMaps.push(results);
    const kind = stmt.readonly ? 'read' : writeKind(sql);
    const wrote =
      kind === 'control'
        ? () => {}
        : kind === 'meter'
          ? () => {
              meterGeneration++;
            }
          : () => {
              generation++;
            };
    // Reads of the meter's table also check its own counter.
    const readsMeter = stmt.readonly && METER_TABLE.test(sql);
    const meter = (): number => (readsMeter ? meterGeneration : 0);
    return {
      get reader() {
        return stmt.reader;
      },
      all(params: unknown[]) {
        if (!stmt.readonly) {
          try {
            return stmt.all(params);
          } finally {
            wrote();
          }
        }
        if (sqlite.inTransaction) return stmt.all(params);
        const key = JSON.stringify(params);
        const v = version();
        const hit = results.get(key);
        // Callers get their own array (some sort results in place); the rows
        // themselves are frozen and shared.
        if (hit && hit.version === v && hit.meter === meter()) {
          stats.hits++;
          return hit.rows.slice();
        }
        stats.misses++;
        const rows = stmt.all(params);
        if (rows.length <= MAX_CACHED_ROWS) {
          for (const row of rows) Object.freeze(row);
          if (cachedResults >= MAX_RESULTS) {
            for (const m of resultMaps) m.clear();
            cachedResults = 0;
          }
          if (!hit) cachedResults++;
          results.set(key, { version: v, meter: meter(), rows: rows.slice() });
        }
        return rows;
      },
      run(params: unknown[]) {
        try {
          return stmt.run(params);
        } finally {
          wrote();
        }
      },
      iterate(params: unknown[]) {
        if (!stmt.readonly) wrote();
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
        resultMaps.length = 0;
        cachedResults = 0;
      }
      const stmt = sqlite.prepare(sql) as Statement;
      statements.set(sql, stmt);
      f = facade(sql, stmt);
      facades.set(sql, f);
    }
    return f;
  };
  const slotlineDataVersion = () => (sqlite.inTransaction ? null : version());

  const database = new Proxy(sqlite, {
    get(target, prop) {
      if (prop === 'prepare') return prepare;
      if (prop === 'slotlineDataVersion') return slotlineDataVersion;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as SqliteDatabase.Database & DataVersionSource;
  return { database, stats };
}
