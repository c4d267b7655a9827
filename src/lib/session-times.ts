// The lifetime rules every browser session follows (company users and workers alike).

/** A session lasts at most this long from sign-in... */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** ...and ends sooner after this long without a request. */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
/** last_seen_at is written at most once per this interval (a request is a read otherwise). */
const TOUCH_EVERY_MS = 60 * 1000;

export interface SessionTimes {
  expires_at: string;
  last_seen_at: string;
}

/** Whether the session is over at `now` (ms): past its expiry, or idle too long. */
function sessionEnded(row: SessionTimes, now: number): boolean {
  return now >= Date.parse(row.expires_at) || now >= Date.parse(row.last_seen_at) + SESSION_IDLE_MS;
}

/** Whether this request should record itself as the session's last sight. */
function sessionNeedsTouch(row: SessionTimes, now: number): boolean {
  return now - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS;
}

/** Where sessions of one kind are kept, keyed by the digest of their cookie secret. */
export interface SessionStore<R extends SessionTimes> {
  find(id: string): Promise<R | undefined>;
  remove(id: string): Promise<void>;
  touch(id: string, at: string): Promise<void>;
}

/**
 * The live session behind a cookie secret, or null: unknown, past its expiry, idle too long,
 * or `revoked` by its owner's state (the row is then removed). A live one records the
 * request as its last sight at most once a minute.
 */
export async function liveSession<R extends SessionTimes>(
  store: SessionStore<R>,
  id: string,
  now: number,
  revoked: (row: R) => boolean,
): Promise<R | null> {
  const row = await store.find(id);
  if (!row) return null;
  if (revoked(row) || sessionEnded(row, now)) {
    await store.remove(id);
    return null;
  }
  if (sessionNeedsTouch(row, now)) await store.touch(id, new Date(now).toISOString());
  return row;
}
