// Values derived from database reads, kept while the data they came from is
// unchanged: on the embedded database, until its data version moves (any write
// of this process, any commit of another); on PostgreSQL, until a write of this
// process or a commit another one made is seen (one poll later, pg-data-version.ts). Callers key
// entries by everything else the value depends on (company, filters, page).
// Values derived from the request meter's counters (usage_counters) must not be
// kept here: the meter's writes do not move the version (sqlite-cache.ts).
import { dataVersion } from './prepared.ts';
import type { DbOrTx } from './types.ts';

/**
 * A read whose result may be kept while its data is unchanged. `key` names it
 * among the reads kept together by everything else the result depends on
 * (company, filters, page, the hour of a lookback); `read` runs only when
 * nothing is kept under the key for the current data.
 */
export interface KeyedRead<V> {
  key: string;
  read: () => Promise<V>;
}

export interface MemoLimits<V> {
  /** Entries kept per database before all are dropped. */
  maxEntries: number;
  /** With `sizeOf`: bytes kept per database before all are dropped. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
}

interface Entries<V> {
  map: Map<string, { version: number; value: V }>;
  bytes: number;
}

export class VersionedMemo<V> {
  private readonly byDb = new WeakMap<object, Entries<V>>();
  private readonly inflight = new WeakMap<
    object,
    Map<string, { version: number; promise: Promise<V> }>
  >();

  constructor(private readonly limits: MemoLimits<V> = { maxEntries: 1000 }) {}

  /** The value kept under `key` while its data is unchanged, without waiting on anything. */
  peek(db: DbOrTx, key: string): V | undefined {
    const hit = this.byDb.get(db)?.map.get(key);
    if (hit === undefined) return undefined;
    return hit.version === dataVersion(db) ? hit.value : undefined;
  }

  /**
   * A new value from `compute`, kept under `key`. The version is read before
   * computing, so a write racing the computation leaves an entry that no later
   * read accepts.
   */
  async compute(db: DbOrTx, key: string, compute: () => Promise<V>): Promise<V> {
    const version = dataVersion(db);
    if (version === null) return compute();
    // Requests missing the same entry at the same version share one read: after a
    // change, the requests under way read the data once, not once each.
    let flying = this.inflight.get(db);
    const same = flying?.get(key);
    if (same && same.version === version) return same.promise;
    if (!flying) {
      flying = new Map();
      this.inflight.set(db, flying);
    }
    const promise = compute();
    const entry = { version, promise };
    flying.set(key, entry);
    let value: V;
    try {
      value = await promise;
    } finally {
      if (flying.get(key) === entry) flying.delete(key);
    }
    let entries = this.byDb.get(db);
    if (!entries) {
      entries = { map: new Map(), bytes: 0 };
      this.byDb.set(db, entries);
    }
    const { maxEntries, maxBytes = Infinity, sizeOf } = this.limits;
    const size = sizeOf ? sizeOf(value) : 0;
    if (entries.map.size >= maxEntries || entries.bytes + size > maxBytes) {
      entries.map.clear();
      entries.bytes = 0;
    }
    if (size > maxBytes) return value;
    entries.map.set(key, { version, value });
    entries.bytes += size;
    return value;
  }

  /** The value kept under `key`, or a new one from `compute`. */
  async get(db: DbOrTx, key: string, compute: () => Promise<V>): Promise<V> {
    return this.peek(db, key) ?? this.compute(db, key, compute);
  }
}
