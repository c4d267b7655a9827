// Sessions of every audience, written once: a browser holds a random cookie secret, the
// database keeps only its digest (every replica sees the session; a disabled owner is out
// at the next request). A session lasts at most SESSION_MAX_MS (or what its audience asks
// for), ends sooner when idle, and records its last sight at most once a minute
// (lib/session-times.ts). What a session means to its app (a user's company, an operator's
// sign-in step, a worker's token) stays with the module that owns its people.
import type { DbOrTx, OperatorSessionStep } from '../../db/types.ts';
import { sha256 } from '../../lib/crypto.ts';
import { randomToken } from '../../lib/ids.ts';
import { SESSION_MAX_MS, liveSession } from '../../lib/session-times.ts';
import { PLACES, type Audience, type SessionRows } from './audiences.rules.ts';
import * as sessions from './sessions.repository.ts';

/** The stored id of a session: the labelled digest of its cookie secret. */
function sessionId(audience: Audience, secret: string): string {
  return sha256(`${PLACES[audience].sessionLabel}\n${secret}`).toString('hex');
}

/** What the owning module sets on a new session; the rest is made here. */
export type NewSession<A extends Audience> = Omit<
  SessionRows[A],
  'id' | 'csrf_token' | 'created_at' | 'last_seen_at' | 'expires_at'
>;

/**
 * Opens a session: its cookie secret (given to the browser, kept nowhere) and its row.
 * Sessions nobody came back to are swept here, so the tables hold only live ones.
 */
export async function openSession<A extends Audience>(
  db: DbOrTx,
  audience: A,
  now: Date,
  fields: NewSession<A>,
  lifetimeMs: number = SESSION_MAX_MS,
): Promise<{ secret: string; row: SessionRows[A] }> {
  const secret = randomToken(32);
  const at = now.toISOString();
  const row = {
    ...fields,
    id: sessionId(audience, secret),
    csrf_token: randomToken(24),
    created_at: at,
    last_seen_at: at,
    expires_at: new Date(now.getTime() + lifetimeMs).toISOString(),
  } as SessionRows[A];
  await sessions.deleteExpired(db, audience, at);
  await sessions.insertSession(db, audience, row);
  return { secret, row };
}

/**
 * The live session behind a cookie secret with its owner, or null: unknown, past its
 * expiry, idle too long, its owner gone (`owner` finds none), or `revoked` by its owner's
 * state (the row is then removed).
 */
export async function resolveSession<A extends Audience, O>(
  db: DbOrTx,
  audience: A,
  now: Date,
  secret: string,
  owner: (row: SessionRows[A]) => Promise<O | undefined>,
  revoked: (row: SessionRows[A], owner: O) => boolean,
): Promise<{ row: SessionRows[A]; owner: O } | null> {
  if (secret.length === 0 || secret.length > 200) return null;
  const found = await liveSession(
    {
      find: async (id) => {
        const row = await sessions.findSession(db, audience, id);
        const of = row && (await owner(row));
        return row && of !== undefined
          ? { row, owner: of, expires_at: row.expires_at, last_seen_at: row.last_seen_at }
          : undefined;
      },
      remove: (id) => sessions.deleteSession(db, audience, id),
      touch: (id, at) => sessions.touchSession(db, audience, id, at),
    },
    sessionId(audience, secret),
    now.getTime(),
    (r) => revoked(r.row, r.owner),
  );
  return found && { row: found.row, owner: found.owner };
}

/** Ends one session (signing out). */
export async function endSession(db: DbOrTx, audience: Audience, sessionId: string): Promise<void> {
  await sessions.deleteSession(db, audience, sessionId);
}

/** Ends every session of a user, operator or worker (disabled, reset, revoked). */
export async function endSessionsOf(
  db: DbOrTx,
  audience: Audience,
  ownerId: string,
): Promise<void> {
  await sessions.deleteSessionsOf(db, audience, ownerId);
}

/** Ends an operator's session if it is still at `step`: false when another request moved it on. */
export async function takeOperatorSession(
  db: DbOrTx,
  sessionId: string,
  step: OperatorSessionStep,
): Promise<boolean> {
  return sessions.takeOperatorSession(db, sessionId, step);
}
