// Hot-path queries are built and compiled once per database and then run with
// new parameter values, skipping the query builder's per-call work. Each
// placeholder is a unique sentinel value whose position in the compiled
// parameters is found once.
import type { CompiledQuery, Compilable } from 'kysely';
import type { Db, DbOrTx } from './types.ts';

const SENTINEL = '\u0000slotline-param:';

/** The sentinel standing for parameter `name` while the query is compiled. */
export function param(name: string): string {
  return `${SENTINEL}${name}`;
}

export interface Prepared<R> {
  (db: DbOrTx, values: Record<string, unknown>): Promise<R[]>;
}

export function prepared<R>(build: (db: Db) => Compilable<R>): Prepared<R> {
  const byDb = new WeakMap<object, { compiled: CompiledQuery<R>; slots: [number, string][] }>();
  return async (db, values) => {
    // Transactions share their parent's dialect, so one compiled form serves both.
    let entry = byDb.get(db);
    if (!entry) {
      const compiled = build(db as Db).compile();
      const slots: [number, string][] = [];
      compiled.parameters.forEach((p, i) => {
        if (typeof p === 'string' && p.startsWith(SENTINEL))
          slots.push([i, p.slice(SENTINEL.length)]);
      });
      entry = { compiled, slots };
      byDb.set(db, entry);
    }
    const parameters = [...entry.compiled.parameters];
    for (const [i, name] of entry.slots) {
      if (!(name in values)) throw new Error(`prepared query: missing value for ${name}`);
      parameters[i] = values[name];
    }
    const result = await db.executeQuery<R>({ ...entry.compiled, parameters });
    return result.rows;
  };
}
