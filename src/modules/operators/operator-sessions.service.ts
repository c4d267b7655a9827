// Sessions of the operator console, kept in the database like company users' (every replica
// sees them; a disabled operator is out at the next request) and in a table of their own,
// so a company user's session can never be taken for an operator's. A session moves
// through steps: `password` (the password was right, a code is still to come) and `enrol`
// (a sign-in link set the password, the authenticator is still to be confirmed) last a
// few minutes and open no page; `full` (the second factor passed) lasts as a dashboard
// session does. Moving on to `full` replaces the session and its cookie secret.
import type { Db, DbOrTx, OperatorSessionStep } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { sha256 } from '../../lib/crypto.ts';
import { randomToken } from '../../lib/ids.ts';
import { SESSION_MAX_MS, liveSession } from '../../lib/session-times.ts';
import * as sessions from './operator-sessions.repository.ts';

/** How long a session may wait at a step before the second factor passes. */
export const STEP_MS: Record<Exclude<OperatorSessionStep, 'full'>, number> = {
  password: 10 * 60 * 1000,
  enrol: 30 * 60 * 1000,
};

/** A browser signed in to the console, as each request sees it. */
export interface OperatorSession {
  sessionId: string;
  operatorId: string;
  email: string;
  name: string;
  step: OperatorSessionStep;
  csrfToken: string;
  expiresAt: string;
}

function sessionId(secret: string): string {
  return sha256(`operator-session\n${secret}`).toString('hex');
}

/** Opens a session at `step`: the cookie secret and the session. */
export async function openSession(
  db: DbOrTx,
  now: Date,
  operator: { id: string; email: string; name: string },
  step: OperatorSessionStep,
): Promise<{ secret: string; session: OperatorSession }> {
  const secret = randomToken(32);
  const at = now.toISOString();
  const expiresAt = new Date(
    now.getTime() + (step === 'full' ? SESSION_MAX_MS : STEP_MS[step]),
  ).toISOString();
  const row = {
    id: sessionId(secret),
    operator_id: operator.id,
    step,
    csrf_token: randomToken(24),
    created_at: at,
    last_seen_at: at,
    expires_at: expiresAt,
  };
  // Sessions nobody came back to are swept here, so the table holds only live ones.
  await sessions.deleteExpired(db, at);
  await sessions.insertSession(db, row);
  return {
    secret,
    session: {
      sessionId: row.id,
      operatorId: operator.id,
      email: operator.email,
      name: operator.name,
      step,
      csrfToken: row.csrf_token,
      expiresAt,
    },
  };
}

/**
 * The live session behind a cookie secret, or null: unknown, past its expiry, idle too
 * long, or its operator disabled (the row is then removed). A `full` session of an
 * operator whose second factor was reset since is over too.
 */
export async function resolveOperatorSession(
  db: Db,
  clock: Clock,
  secret: string,
): Promise<OperatorSession | null> {
  if (secret.length === 0 || secret.length > 200) return null;
  const id = sessionId(secret);
  const row = await liveSession(
    {
      find: (key) => sessions.findSession(db, key),
      remove: (key) => sessions.deleteSession(db, key),
      touch: (key, at) => sessions.touchSession(db, key, at),
    },
    id,
    clock.now().getTime(),
    (r) => r.disabled_at !== null || (r.step === 'full' && r.totp_enabled_at === null),
  );
  if (!row) return null;
  return {
    sessionId: id,
    operatorId: row.operator_id,
    email: row.email,
    name: row.name,
    step: row.step,
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
  };
}

export async function signOutOperator(
  db: Db,
  session: Pick<OperatorSession, 'sessionId'>,
): Promise<void> {
  await sessions.deleteSession(db, session.sessionId);
}
