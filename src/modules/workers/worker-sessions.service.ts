// Sessions of the workers' page (dashboard page 10): a person signs in by pasting the
// worker's token once; the browser then holds only a random session secret, never the
// token. Sessions live in the database like company users' (every replica sees them) with
// the same lifetimes, and end at the next request once the worker is revoked or its token
// rotated. Failed sign-ins are limited per client address through the users' attempt
// counter.
import type { WorkerPrincipal } from '../../access.ts';
import type { Db, DbOrTx } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  MAX_FAILURES_PER_ADDRESS,
  endSession,
  issueLink,
  liveLink,
  openSession as openStoredSession,
  releaseSignInAttempts,
  reserveSignInAttempt,
  resolveSession,
  useLink,
  SignInRefused,
} from '../sign-in/index.ts';
import { findWorker, touchWorkerSince } from './workers.repository.ts';
import { WorkerError, verifyWorkerToken } from './workers.service.ts';

/**
 * A worker's last sight (the console's "Last seen") is written at most this often: every
 * request of a signed-in worker counts, but most find it fresh and write nothing.
 */
const WORKER_SEEN_EVERY_MS = 60 * 1000;

/** Notes the worker as seen now, unless it was within the last minute. */
async function noteWorkerSeen(db: Db, workerId: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - WORKER_SEEN_EVERY_MS).toISOString();
  await touchWorkerSince(db, workerId, now.toISOString(), since);
}

/** A signed-in worker, as every request of the workers' page sees it. */
export interface WorkerSession {
  sessionId: string;
  worker: WorkerPrincipal;
  csrfToken: string;
  expiresAt: string;
}

/** What a refused worker token says (the worker's app words it for the worker). */
const BAD_TOKEN = 'worker token is invalid or revoked';

/** Worker-token failures count under a key of their own, apart from password sign-ins. */
function addressKey(address: string): string {
  return `worker-ip:${address}`;
}

/**
 * Checks the worker token; on success opens a session and returns its cookie secret with
 * the session. Refused with SignInRefused('limited') once the address has used its
 * attempts of the window, before the token is even checked.
 */
export async function signInWorker(
  db: Db,
  clock: Clock,
  input: { token: string; address: string },
): Promise<{ secret: string; session: WorkerSession }> {
  const key = addressKey(input.address);
  const wait = await reserveSignInAttempt(db, clock, [{ key, max: MAX_FAILURES_PER_ADDRESS }]);
  if (wait > 0) throw new SignInRefused('limited', wait);
  const token = input.token.trim();
  const worker = token.length <= 200 ? await verifyWorkerToken(db, token) : null;
  // A refused attempt keeps its reservation: that is its count as a failure.
  if (!worker) throw new SignInRefused('invalid', 0, BAD_TOKEN);
  await releaseSignInAttempts(db, [key]);
  // verifyWorkerToken accepted it, so it has the slw_<prefix>_<secret> shape.
  return openSession(db, clock, worker, token.split('_')[1] as string);
}

/** Opens a session of the worker, bound to its token of the moment (`prefix`). */
async function openSession(
  db: Db,
  clock: Clock,
  worker: WorkerPrincipal,
  prefix: string,
): Promise<{ secret: string; session: WorkerSession }> {
  const now = clock.now();
  const { secret, row } = await openStoredSession(db, 'worker', now, {
    worker_id: worker.workerId,
    token_prefix: prefix,
  });
  await noteWorkerSeen(db, worker.workerId, now);
  return {
    secret,
    session: { sessionId: row.id, worker, csrfToken: row.csrf_token, expiresAt: row.expires_at },
  };
}

/** How long a worker's sign-in link stays usable. */
export const WORKER_LINK_MS = 24 * 3_600_000;

/** The path of the workers' app that a sign-in link opens (the token is its query). */
export const WORKER_LINK_PATH = '/dashboard/worker/link';

/**
 * A one-time sign-in link for the worker's phone: its URL under `publicUrl` and when it
 * expires. Only the digest of its token is stored; rotating or revoking the worker's token
 * voids it. The worker's token itself stays what automations use.
 */
export async function createWorkerSignInLink(
  db: DbOrTx,
  clock: Clock,
  workerId: string,
  publicUrl: string,
): Promise<{ url: string; expiresAt: string }> {
  const worker = await findWorker(db, workerId);
  if (!worker || worker.revoked_at !== null) {
    throw new WorkerError(`no active worker ${workerId}`);
  }
  const { token, row } = await issueLink(
    db,
    'worker',
    clock.now(),
    { worker_id: workerId, token_prefix: worker.token_prefix },
    { lifetimeMs: WORKER_LINK_MS, ownerId: workerId, replace: false },
  );
  return {
    url: `${publicUrl}${WORKER_LINK_PATH}?token=${encodeURIComponent(token)}`,
    expiresAt: row.expires_at,
  };
}

/**
 * The link a token names and its worker while the link would sign in (unused, unexpired,
 * made under the worker's current token, the worker not revoked), or null.
 */
async function usableLink(db: Db, now: Date, token: string) {
  const link = await liveLink(db, 'worker', now, token.trim());
  const worker = link && (await findWorker(db, link.worker_id));
  if (!link || !worker || worker.revoked_at !== null) return null;
  return worker.token_prefix === link.token_prefix ? { link, worker } : null;
}

/**
 * Whose phone a link would sign in, without using it: the page a link opens shows this
 * before its button, so previews and link scanners that fetch the address use nothing.
 * Null for a link that is used, expired, voided by a new token, or unknown.
 */
export async function peekWorkerSignInLink(
  db: Db,
  clock: Clock,
  token: string,
): Promise<{ workerName: string } | null> {
  const link = await usableLink(db, clock.now(), token);
  return link ? { workerName: link.worker.name } : null;
}

/**
 * Signs a phone in with a link's token: used once, before it expires, while the worker's
 * token is the one it was made under. Failures count against the address like a wrong
 * worker token.
 */
export async function signInWorkerByLink(
  db: Db,
  clock: Clock,
  input: { token: string; address: string },
): Promise<{ secret: string; session: WorkerSession }> {
  const key = addressKey(input.address);
  const wait = await reserveSignInAttempt(db, clock, [{ key, max: MAX_FAILURES_PER_ADDRESS }]);
  if (wait > 0) throw new SignInRefused('limited', wait);
  const now = clock.now();
  const usable = await usableLink(db, now, input.token);
  // A link is used once, whoever races for it.
  if (!usable || !(await useLink(db, 'worker', usable.link, now))) {
    throw new SignInRefused('invalid', 0, BAD_TOKEN);
  }
  const { link, worker } = usable;
  await releaseSignInAttempts(db, [key]);
  return openSession(
    db,
    clock,
    { workerId: worker.id, name: worker.name, timezone: worker.timezone },
    link.token_prefix,
  );
}

/**
 * The live session behind a cookie secret, or null: unknown, past its expiry, idle too
 * long, its worker revoked or its token rotated since sign-in (the row is then removed).
 */
export async function resolveWorkerSession(
  db: Db,
  clock: Clock,
  secret: string,
): Promise<WorkerSession | null> {
  const now = clock.now();
  const found = await resolveSession(
    db,
    'worker',
    now,
    secret,
    (row) => findWorker(db, row.worker_id),
    // A revoked worker, or a token rotated since this session signed in with it.
    (row, worker) => worker.revoked_at !== null || worker.token_prefix !== row.token_prefix,
  );
  if (!found) return null;
  const { row, owner: worker } = found;
  // Decided on the worker's sight read with the session: a fresh one costs no write.
  const seen = worker.last_seen_at === null ? null : Date.parse(worker.last_seen_at);
  if (seen === null || now.getTime() - seen >= WORKER_SEEN_EVERY_MS) {
    await noteWorkerSeen(db, row.worker_id, now);
  }
  return {
    sessionId: row.id,
    worker: { workerId: row.worker_id, name: worker.name, timezone: worker.timezone },
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
  };
}

export async function signOutWorker(
  db: Db,
  session: Pick<WorkerSession, 'sessionId'>,
): Promise<void> {
  await endSession(db, 'worker', session.sessionId);
}
