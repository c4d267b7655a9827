// Failed sign-ins limited per key in a fixed window, for every sign-in form alike: the
// dashboard's (per account and per address), the console's (also per operator's code) and
// the workers' app's (per address, under keys of its own).
import type { Db } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import * as attempts from './attempts.repository.ts';

/** Failed sign-ins allowed per window: per account, and per client address. */
export const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

/** A key sign-in attempts are counted under, and how many a window allows. */
export interface AttemptLimit {
  key: string;
  max: number;
}

/**
 * Reserves one sign-in attempt under each key, in order, before the secret is checked:
 * at most `max` attempts per key are ever checked in a window, however many arrive at
 * once and on however many replicas. Returns 0 when every key was reserved; otherwise
 * nothing stays reserved and the answer is the seconds until the refusing key's window
 * ends. A failed attempt keeps its reservations (that is its count); a successful one
 * gives them back with `releaseSignInAttempts`.
 */
export async function reserveSignInAttempt(
  db: Db,
  clock: Clock,
  limits: readonly AttemptLimit[],
): Promise<number> {
  const now = clock.now();
  const at = now.toISOString();
  const since = new Date(now.getTime() - ATTEMPT_WINDOW_MS).toISOString();
  const reserved: string[] = [];
  for (const { key, max } of limits) {
    if (await attempts.reserveAttempt(db, key, max, at, since)) {
      reserved.push(key);
      continue;
    }
    await releaseSignInAttempts(db, reserved);
    const row = await attempts.findAttempt(db, key);
    const end = row ? Date.parse(row.window_start) + ATTEMPT_WINDOW_MS : now.getTime();
    return Math.max(1, Math.ceil((end - now.getTime()) / 1000));
  }
  return 0;
}

/** Forgets every attempt counted under `key` (an account's sign-in succeeded). */
export async function clearSignInAttempts(db: Db, key: string): Promise<void> {
  await attempts.clearAttempts(db, key);
}

/** Gives back attempts reserved by `reserveSignInAttempt` (the sign-in succeeded). */
export async function releaseSignInAttempts(db: Db, keys: readonly string[]): Promise<void> {
  for (const key of keys) await attempts.releaseAttempt(db, key);
}
