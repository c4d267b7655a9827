// Sessions of the operator console, kept in the database like company users' (every replica
// sees them; a disabled operator is out at the next request) and in a table of their own,
// so a company user's session can never be taken for an operator's. A session moves
// through steps: `password` (the password was right, a code is still to come) and `enrol`
// (a sign-in link set the password, the authenticator is still to be confirmed) last a
// few minutes and open no page; `full` (the second factor passed) lasts as a dashboard
// session does. Moving on to `full` replaces the session and its cookie secret.
import type { Db, DbOrTx, OperatorSessionStep } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { SESSION_MAX_MS } from '../../lib/session-times.ts';
import { endSession, openSession as openStoredSession, resolveSession } from '../sign-in/index.ts';
import { findOperator } from './operators.repository.ts';

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

/** Opens a session at `step`: the cookie secret and the session. */
export async function openSession(
  db: DbOrTx,
  now: Date,
  operator: { id: string; email: string; name: string },
  step: OperatorSessionStep,
): Promise<{ secret: string; session: OperatorSession }> {
  const { secret, row } = await openStoredSession(
    db,
    'operator',
    now,
    { operator_id: operator.id, step },
    step === 'full' ? SESSION_MAX_MS : STEP_MS[step],
  );
  return {
    secret,
    session: {
      sessionId: row.id,
      operatorId: operator.id,
      email: operator.email,
      name: operator.name,
      step,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
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
  const found = await resolveSession(
    db,
    'operator',
    clock.now(),
    secret,
    (row) => findOperator(db, row.operator_id),
    (row, operator) =>
      operator.disabled_at !== null || (row.step === 'full' && operator.totp_enabled_at === null),
  );
  if (!found) return null;
  const { row, owner: operator } = found;
  return {
    sessionId: row.id,
    operatorId: row.operator_id,
    email: operator.email,
    name: operator.name,
    step: row.step,
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
  };
}

export async function signOutOperator(
  db: Db,
  session: Pick<OperatorSession, 'sessionId'>,
): Promise<void> {
  await endSession(db, 'operator', session.sessionId);
}
