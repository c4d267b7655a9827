// On PostgreSQL, a data version like the embedded database's (prepared.ts dataVersion), so
// reads can be kept between requests there too (versioned-memo.ts, the read cache).
//
// It moves on every write this process makes, right after the statement (and its commit)
// completes, so a process always reads its own writes. Writes of other processes are seen
// through the server's WAL insert position, polled on a connection of its own every
// `pollMs`: any commit anywhere moves it. So a value kept by one replica may outlive a change
// committed through another by at most about one poll (PG_READ_CACHE_MS, 20 ms by default),
// the price of answering repeated reads without a query; 0 keeps nothing on PostgreSQL.
// While the poll fails or falls behind, the version is null and nothing is kept.
import pg from 'pg';
import type { DbOrTx } from './types.ts';
import { METER_WRITE } from './sqlite-cache.ts';

interface State {
  version: number;
  /** performance.now() of the last poll that answered; 0 before the first. */
  polledAt: number;
  /** A poll older than this (ms) no longer vouches for the version. */
  staleAfterMs: number;
}

// Keyed by the dialect adapter, which a database and its transactions share.
const states = new WeakMap<object, State>();
const keyOf = (db: DbOrTx): object => db.getExecutor().adapter;

/** The version of `db`, or null when nothing may be kept (no poll, a stale poll, a transaction). */
export function pgDataVersion(db: DbOrTx): number | null {
  if (db.isTransaction) return null;
  const s = states.get(keyOf(db));
  if (!s || s.polledAt === 0 || performance.now() - s.polledAt > s.staleAfterMs) return null;
  return s.version;
}

const READ = /^\s*(select|begin)\b/i;

/**
 * Moves the version after every statement a pool connection runs that is not a plain
 * SELECT (writes, and the COMMIT that makes them visible), except the request meter's
 * own counter writes, as on the embedded database (sqlite-cache.ts): nothing derived from
 * usage_counters is kept.
 */
export function noteWrites(db: DbOrTx, client: pg.PoolClient): void {
  const state = () => states.get(keyOf(db));
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  const noting = (...args: unknown[]) => {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: unknown })?.text;
    const result = query(...args);
    if (typeof text === 'string' && (READ.test(text) || METER_WRITE.test(text))) return result;
    const moved = () => {
      const s = state();
      if (s) s.version += 1;
    };
    // Moved whether the statement succeeds or fails (a failed COMMIT may still have
    // changed nothing, but moving is always safe).
    return result.then(
      (r) => {
        moved();
        return r;
      },
      (err: unknown) => {
        moved();
        throw err;
      },
    );
  };
  client.query = noting as typeof client.query;
}

/** Polls the WAL insert position of `db`'s server until the returned function is called. */
export function watchPgChanges(
  db: DbOrTx,
  connectionString: string,
  pollMs: number,
): () => Promise<void> {
  const state: State = { version: 0, polledAt: 0, staleAfterMs: Math.max(3 * pollMs, 250) };
  states.set(keyOf(db), state);
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let lastLsn: string | null = null;

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void poll(), ms);
    timer.unref();
  };
  const drop = () => {
    const c = client;
    client = null;
    lastLsn = null;
    state.polledAt = 0;
    state.version += 1;
    void c?.end().catch(() => {});
  };
  const poll = async () => {
    timer = null;
    try {
      if (!client) {
        const c = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
        c.on('error', () => {});
        await c.connect();
        if (stopped) {
          await c.end().catch(() => {});
          return;
        }
        client = c;
      }
      const r = await client.query<{ lsn: string }>(
        'select pg_current_wal_insert_lsn()::text as lsn',
      );
      const lsn = r.rows[0]?.lsn ?? null;
      if (lsn !== lastLsn) {
        lastLsn = lsn;
        state.version += 1;
      }
      state.polledAt = performance.now();
      schedule(pollMs);
    } catch {
      drop();
      schedule(1_000);
    }
  };
  schedule(0);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    state.polledAt = 0;
    const c = client;
    client = null;
    await c?.end().catch(() => {});
  };
}
