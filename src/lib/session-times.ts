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
export function sessionEnded(row: SessionTimes, now: number): boolean {
  return now >= Date.parse(row.expires_at) || now >= Date.parse(row.last_seen_at) + SESSION_IDLE_MS;
}

/** Whether this request should record itself as the session's last sight. */
export function sessionNeedsTouch(row: SessionTimes, now: number): boolean {
  return now - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS;
}
