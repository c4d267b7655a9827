// On PostgreSQL, a number that moves whenever an API key or a company's plan
// may have changed, so verified keys can be kept between requests as on the
// embedded database (whose data version does this there). Triggers (migration
// 0012) notify `slotline_auth` when such a row changes, in any process or
// by hand; each process listens on a connection of its own. While that
// connection is down nothing may be kept, and reconnecting moves the number,
// since notifications sent meanwhile are lost.
import pg from 'pg';
import type { DbOrTx } from './types.ts';

const CHANNEL = 'slotline_auth';
const RETRY_MS = 1000;

interface Listener {
  version: number;
  listening: boolean;
}

// Keyed by the dialect adapter, which a database and its transactions share.
const listeners = new WeakMap<object, Listener>();

const keyOf = (db: DbOrTx): object => db.getExecutor().adapter;

/**
 * The auth version of `db`, or null when there is none (SQLite, or the
 * listening connection is down). Read it before reading a key row: a change
 * committed after the read moves it.
 */
export function authVersion(db: DbOrTx): number | null {
  const l = listeners.get(keyOf(db));
  return l?.listening ? l.version : null;
}

/**
 * Moves the version at once after this process changed a key or a plan, so
 * its next request does not wait for the notification to come back.
 */
export function noteAuthChange(db: DbOrTx): void {
  const l = listeners.get(keyOf(db));
  if (l) l.version += 1;
}

/** Listens for auth changes of `db` until the returned function is called. */
export function listenForAuthChanges(db: DbOrTx, connectionString: string): () => Promise<void> {
  const state: Listener = { version: 0, listening: false };
  listeners.set(keyOf(db), state);
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const down = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    state.listening = false;
    state.version += 1;
    c.end().catch(() => {});
    if (!stopped) {
      timer = setTimeout(() => void up(), RETRY_MS);
      timer.unref();
    }
  };
  const up = async () => {
    timer = null;
    const c = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
    client = c;
    c.on('error', () => down(c));
    c.on('end', () => down(c));
    c.on('notification', () => (state.version += 1));
    try {
      await c.connect();
      await c.query(`listen ${CHANNEL}`);
      if (stopped || client !== c) return;
      state.version += 1;
      state.listening = true;
    } catch {
      down(c);
    }
  };
  void up();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    state.listening = false;
    const c = client;
    client = null;
    await c?.end().catch(() => {});
  };
}
