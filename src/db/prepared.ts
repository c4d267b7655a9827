// Hot-path queries are built and compiled once per database and then run with
// new parameter values, skipping the query builder's per-call work. Each
// placeholder is a unique sentinel value whose position in the compiled
// parameters is found once.
import { sql, type CompiledQuery, type Compilable } from 'kysely';
import type { Db, DbOrTx } from './types.ts';
import { pgDataVersion } from './pg-data-version.ts';

const SENTINEL = '\u0000slotline-param:';

/** The embedded database behind a Kysely instance, for reads that need no connection hand-off. */
interface DirectReader {
  inTransaction: boolean;
  prepare(sql: string): { all(params: readonly unknown[]): unknown[] };
  /** See DataVersionSource in sqlite-cache.ts. */
  slotlineDataVersion(): number | null;
}
const directReaders = new WeakMap<object, DirectReader>();

/**
 * Lets prepared reads on this (SQLite) instance run straight on the database
 * handle. Only while no transaction is open on the single connection: inside
 * one, a direct read could see another request's uncommitted writes, so those
 * reads queue for the connection like every other query.
 */
export function allowDirectReads(db: Db, reader: DirectReader): void {
  directReaders.set(db, reader);
}

/**
 * A number that changes whenever the data behind `db` may have changed, for
 * caches of values derived from reads; null when there is none (a transaction,
 * a transaction open on the embedded connection, PostgreSQL without its change
 * poll), and nothing may be kept. On PostgreSQL it follows other processes'
 * commits with the lag of one poll (pg-data-version.ts). Read it before the reads a cached value is derived from, so a write in
 * between leaves the value stale-marked rather than wrongly fresh. The request
 * meter's own writes do not move it (sqlite-cache.ts): values derived from
 * usage_counters must not be kept by it.
 */
export function dataVersion(db: DbOrTx): number | null {
  const direct = directReaders.get(db);
  return direct ? direct.slotlineDataVersion() : pgDataVersion(db);
}

// Names of the compiled hot-path statements, by SQL text. On PostgreSQL each
// connection parses and plans a named statement once and then only binds new
// values to it (connect.ts), instead of parsing and planning it on every run.
const statementNames = new Map<string, string>();

/** The statement name of a compiled prepared query's SQL; undefined for any other SQL. */
export function statementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

/** The sentinel standing for parameter `name` while the query is compiled. */
export function param(name: string): string {
  return `${SENTINEL}${name}`;
}

export interface Prepared<R> {
  (db: DbOrTx, values: Record<string, unknown>): Promise<R[]>;
}

export function prepared<R>(build: (db: Db) => Compilable<R>): Prepared<R> {
  const byDb = new WeakMap<
    object,
    { compiled: CompiledQuery<R>; slots: [number, string][]; readOnly: boolean }
  >();
  return async (db, values) => {
    // A transaction is a new object each time but shares its database's dialect
    // adapter, so the compiled form is keyed by the adapter: compiled once, it
    // serves the database and every transaction on it. Plugins can rewrite
    // queries, so an instance with plugins keeps its own.
    const executor = db.getExecutor();
    const key = executor.plugins.length === 0 ? executor.adapter : db;
    let entry = byDb.get(key);
    if (!entry) {
      const compiled = build(db).compile();
      const slots: [number, string][] = [];
      compiled.parameters.forEach((p, i) => {
        if (typeof p === 'string' && p.startsWith(SENTINEL))
          slots.push([i, p.slice(SENTINEL.length)]);
      });
      entry = { compiled, slots, readOnly: /^\s*select\b/i.test(compiled.sql) };
      if (!statementNames.has(compiled.sql)) {
        statementNames.set(compiled.sql, `slotline_${statementNames.size}`);
      }
      byDb.set(key, entry);
    }
    const parameters = [...entry.compiled.parameters];
    for (const [i, name] of entry.slots) {
      if (!(name in values)) throw new Error(`prepared query: missing value for ${name}`);
      parameters[i] = values[name];
    }
    const direct = entry.readOnly ? directReaders.get(db) : undefined;
    if (direct && !direct.inTransaction) {
      return direct.prepare(entry.compiled.sql).all(parameters) as R[];
    }
    const result = await db.executeQuery<R>({ ...entry.compiled, parameters });
    return result.rows;
  };
}

/** Compiled forms of one query over a list, one per list length, built on first use. */
export function perLength<R>(build: (n: number) => Prepared<R>): (n: number) => Prepared<R> {
  const byLength = new Map<number, Prepared<R>>();
  return (n) => {
    let query = byLength.get(n);
    if (!query) {
      query = build(n);
      byLength.set(n, query);
    }
    return query;
  };
}

/** Placeholders `<name>0` .. `<name>{n-1}`. */
export function params(name: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => param(`${name}${i}`));
}

/** Values for `params(name, list.length)`, added to `into`. */
export function bind(
  name: string,
  list: readonly unknown[],
  into: Record<string, unknown>,
): Record<string, unknown> {
  list.forEach((v, i) => (into[`${name}${i}`] = v));
  return into;
}

/** A placeholder for a column that is not text, typed as the column. */
export function slot<T>(name: string) {
  return sql<T>`${param(name)}`;
}
