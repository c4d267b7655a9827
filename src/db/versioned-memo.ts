// Values derived from database reads, kept while the data they came from is
// unchanged: on the embedded database, until its data version moves (any write
// of this process, any commit of another); on PostgreSQL, never. Callers key
// entries by everything else the value depends on (company, filters, page).
// Values derived from the request meter's counters (usage_counters) must not be
// kept here: the meter's writes do not move the version (sqlite-cache.ts).
import { dataVersion } from './prepared.ts';
import type { DbOrTx } from './types.ts';

export class VersionedMemo<V> {
  private readonly byDb = new WeakMap<object, Map<string, { version: number; value: V }>>();

  constructor(private readonly maxEntries = 1000) {}

  /**
   * The value kept under `key`, or a new one from `compute`. The version is
   * read before computing, so a write racing the computation leaves an entry
   * that no later read accepts.
   */
  async get(db: DbOrTx, key: string, compute: () => Promise<V>): Promise<V> {
    const version = dataVersion(db);
    if (version === null) return compute();
    let entries = this.byDb.get(db);
    const hit = entries?.get(key);
    if (hit && hit.version === version) return hit.value;
    const value = await compute();
    if (!entries) {
      entries = new Map();
      this.byDb.set(db, entries);
    }
    if (entries.size >= this.maxEntries) entries.clear();
    entries.set(key, { version, value });
    return value;
  }
}
