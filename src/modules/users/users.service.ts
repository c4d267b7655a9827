// The dashboard's people (company users with a role) and their sign-in: passwords hashed
// with argon2id, sessions kept in the database (every replica sees them; a disabled user
// is out at the next request), failed sign-ins limited per account and per address.
import { hash, verify } from '@node-rs/argon2';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db, DbOrTx, UserRole, UsersTable } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { sha256 } from '../../lib/crypto.ts';
import { SESSION_MAX_MS, liveSession } from '../../lib/session-times.ts';
import { newId, randomToken } from '../../lib/ids.ts';
import { OperatorError } from '../../lib/operator-error.ts';
import { OPERATOR, recordActivity, type Actor } from '../activity/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import * as attempts from './sign-in-attempts.repository.ts';
import * as sessions from './sessions.repository.ts';
import * as repo from './users.repository.ts';

export const ROLES = ['admin', 'editor', 'viewer'] as const satisfies readonly UserRole[];

export { SESSION_IDLE_MS, SESSION_MAX_MS } from '../../lib/session-times.ts';

/** Failed sign-ins allowed per window: per account, and per client address. */
export const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

// argon2id is the library's default algorithm, with its recommended cost parameters.
/** Verified against when the email is unknown, so both answers take as long. */
let decoyHash: Promise<string> | null = null;

/**
 * A password hash no password is known to match (the hash of a random secret that is kept
 * nowhere): the password of a user invited by a link until the link sets one.
 */
export function unusablePasswordHash(): Promise<string> {
  decoyHash ??= hash(randomToken(12));
  return decoyHash;
}

export class UserError extends OperatorError {}

export interface UserInfo {
  userId: string;
  companyId: string;
  email: string;
  role: UserRole;
  createdAt: string;
  disabledAt: string | null;
  lastSignInAt: string | null;
}

export function info(row: UsersTable): UserInfo {
  return {
    userId: row.id,
    companyId: row.company_id,
    email: row.email,
    role: row.role,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

export function isRole(value: string): value is UserRole {
  return (ROLES as readonly string[]).includes(value);
}

export function normalEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length < 3 || e.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(e)) {
    throw new UserError(`"${email}" is not an email address`);
  }
  return e;
}

/** An initial or reset password: 20 random characters, shown once. */
function newPassword(): string {
  return randomToken(15).slice(0, 20);
}

export function userExists(email: string): UserError {
  return new UserError(`user ${email} already exists`);
}

/** Records what was done to a user, in the user's company, inside the change's transaction. */
export function recordUserActivity(
  tx: DbOrTx,
  row: UsersTable,
  actor: Actor,
  action:
    | 'user.created'
    | 'user.invited'
    | 'user.disabled'
    | 'user.password_reset'
    | 'user.password_set'
    | 'user.role_changed',
  at: string,
): Promise<void> {
  return recordActivity(
    tx,
    row.company_id,
    actor,
    { action, target: row.id, detail: row.email },
    new Date(at),
  );
}

/** A new user with a password shown once; `actor` is who created it (the operator by default). */
export async function createUser(
  db: Db,
  clock: Clock,
  input: { companyId: string; email: string; role?: string },
  actor: Actor = OPERATOR,
): Promise<{ user: UserInfo; password: string }> {
  const role = input.role ?? 'viewer';
  if (!isRole(role)) throw new UserError(`role must be one of ${ROLES.join(', ')}`);
  const email = normalEmail(input.email);
  if (!(await getCompanyRow(db, input.companyId))) {
    throw new UserError(`company ${input.companyId} does not exist`);
  }
  if (await repo.findByEmail(db, email)) throw userExists(email);
  const password = newPassword();
  const at = clock.now().toISOString();
  const row: UsersTable = {
    id: newId('usr'),
    company_id: input.companyId,
    email,
    role,
    password_hash: await hash(password),
    created_at: at,
    updated_at: at,
    disabled_at: null,
    last_sign_in_at: null,
    timezone: null,
  };
  try {
    await db.transaction().execute(async (tx) => {
      await repo.insertUser(tx, row);
      await recordUserActivity(tx, row, actor, 'user.created', at);
    });
  } catch (err) {
    // Created by someone else since the check above.
    if (isUniqueViolation(err)) throw userExists(email);
    throw err;
  }
  return { user: info(row), password };
}

/** The user with this email (of any company), or undefined. */
export async function findUserByEmail(db: Db, email: string): Promise<UserInfo | undefined> {
  const row = await repo.findByEmail(db, email.trim().toLowerCase());
  return row && info(row);
}

export async function listUsers(db: Db, companyId: string | null): Promise<UserInfo[]> {
  return (await repo.listUsers(db, companyId)).map(info);
}

async function userOrThrow(db: DbOrTx, userId: string): Promise<UsersTable> {
  const row = await repo.findUser(db, userId);
  if (!row) throw new UserError(`user ${userId} does not exist`);
  return row;
}

/**
 * Disables the user and ends every session of it at once. Disabling a disabled user ends
 * any session again but records nothing: the log holds changes.
 */
export async function disableUser(
  db: Db,
  clock: Clock,
  userId: string,
  actor: Actor = OPERATOR,
): Promise<UserInfo> {
  const at = clock.now().toISOString();
  return db.transaction().execute(async (tx) => {
    const row = await userOrThrow(tx, userId);
    await repo.updateUser(tx, userId, { disabled_at: row.disabled_at ?? at, updated_at: at });
    await sessions.deleteSessionsOfUser(tx, userId);
    if (row.disabled_at === null) await recordUserActivity(tx, row, actor, 'user.disabled', at);
    return info({ ...row, disabled_at: row.disabled_at ?? at });
  });
}

/** A new password (shown once); the user is enabled again and signed out everywhere. */
export async function resetPassword(
  db: Db,
  clock: Clock,
  userId: string,
  actor: Actor = OPERATOR,
): Promise<{ user: UserInfo; password: string }> {
  const password = newPassword();
  const passwordHash = await hash(password);
  const at = clock.now().toISOString();
  return db.transaction().execute(async (tx) => {
    const row = await userOrThrow(tx, userId);
    await repo.updateUser(tx, userId, {
      password_hash: passwordHash,
      disabled_at: null,
      updated_at: at,
    });
    await sessions.deleteSessionsOfUser(tx, userId);
    await recordUserActivity(tx, row, actor, 'user.password_reset', at);
    return { user: info({ ...row, disabled_at: null }), password };
  });
}

// ---- Sign-in and sessions -------------------------------------------------------------

/**
 * Why a sign-in was refused; the message never tells whether the account exists. Only the
 * right password of an enabled user learns that its company is suspended (`suspended`).
 */
export class SignInRefused extends Error {
  constructor(
    readonly reason: 'invalid' | 'limited' | 'suspended',
    /** Seconds until a limited sign-in may be tried again. */
    readonly retryAfter = 0,
  ) {
    super(
      reason === 'limited'
        ? 'too many failed sign-ins'
        : reason === 'suspended'
          ? "the user's company is suspended"
          : 'wrong email or password',
    );
  }
}

/** A signed-in person, as every dashboard request sees it. */
export interface SessionUser {
  sessionId: string;
  userId: string;
  companyId: string;
  email: string;
  role: UserRole;
  csrfToken: string;
  expiresAt: string;
  /** The display timezone the user chose (IANA), or null: the browser's, else UTC. */
  timezone: string | null;
  /**
   * The user's company is suspended by an operator: the session stays, but opens nothing
   * until the company is resumed.
   */
  companySuspended: boolean;
}

function sessionId(token: string): string {
  return sha256(`session\n${token}`).toString('hex');
}

function attemptKeys(email: string, address: string): { account: string; address: string } {
  return { account: `email:${email}`, address: `ip:${address}` };
}

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
 * gives them back with `releaseSignInAttempts`. Sign-in forms of other modules (the
 * workers' page) count theirs in the same table and window, under keys of their own.
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

/**
 * Checks the email and password; on success opens a session and returns its cookie secret
 * with the session. Refused with SignInRefused('limited') once an account or an address
 * has used its attempts of the window, before the password is even checked.
 */
export async function signIn(
  db: Db,
  clock: Clock,
  input: { email: string; password: string; address: string },
): Promise<{ token: string; session: SessionUser }> {
  const now = clock.now();
  const email = input.email.trim().toLowerCase();
  const keys = attemptKeys(email, input.address);
  const wait = await reserveSignInAttempt(db, clock, [
    { key: keys.account, max: MAX_FAILURES_PER_ACCOUNT },
    { key: keys.address, max: MAX_FAILURES_PER_ADDRESS },
  ]);
  if (wait > 0) throw new SignInRefused('limited', wait);
  const user = email.length <= 254 ? await repo.findByEmail(db, email) : undefined;
  const passwordHash = user?.password_hash ?? (await unusablePasswordHash());
  const ok = input.password.length <= 1024 && (await verify(passwordHash, input.password));
  // A refused attempt keeps its reservations: they are its count as a failure.
  if (!user || !ok || user.disabled_at !== null) throw new SignInRefused('invalid');
  // A success wipes the account's failures and gives back the address's reservation.
  await attempts.clearAttempts(db, keys.account);
  await releaseSignInAttempts(db, [keys.address]);
  // The right password: the user may learn that its company is suspended, and nothing more.
  if ((await getCompanyRow(db, user.company_id))?.suspended_at != null) {
    throw new SignInRefused('suspended');
  }
  return openSession(db, now, user);
}

/** Opens a session of the user: its cookie secret and the session. */
export async function openSession(
  db: Db,
  now: Date,
  user: UsersTable,
): Promise<{ token: string; session: SessionUser }> {
  const token = randomToken(32);
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + SESSION_MAX_MS).toISOString();
  const row = {
    id: sessionId(token),
    user_id: user.id,
    company_id: user.company_id,
    csrf_token: randomToken(24),
    created_at: at,
    last_seen_at: at,
    expires_at: expiresAt,
  };
  await db.transaction().execute(async (tx) => {
    // Sessions nobody came back to are swept here, so the table holds only live ones.
    await sessions.deleteExpired(tx, at);
    await sessions.insertSession(tx, row);
    await repo.updateUser(tx, user.id, { last_sign_in_at: at });
  });
  return {
    token,
    session: {
      sessionId: row.id,
      userId: user.id,
      companyId: user.company_id,
      email: user.email,
      role: user.role,
      csrfToken: row.csrf_token,
      expiresAt,
      timezone: user.timezone,
      companySuspended: false,
    },
  };
}

/**
 * The live session behind a cookie secret, or null: unknown, past its expiry, idle too
 * long, or its user disabled (the row is then removed).
 */
export async function resolveSession(
  db: Db,
  clock: Clock,
  token: string,
): Promise<SessionUser | null> {
  if (token.length === 0 || token.length > 200) return null;
  const id = sessionId(token);
  const row = await liveSession(
    {
      find: (key) => sessions.findSession(db, key),
      remove: (key) => sessions.deleteSession(db, key),
      touch: (key, at) => sessions.touchSession(db, key, at),
    },
    id,
    clock.now().getTime(),
    (r) => r.disabled_at !== null,
  );
  if (!row) return null;
  const company = await getCompanyRow(db, row.user_company_id);
  return {
    sessionId: id,
    userId: row.user_id,
    companyId: row.user_company_id,
    email: row.email,
    role: row.role,
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
    timezone: row.timezone,
    companySuspended: company?.suspended_at != null,
  };
}

export async function signOut(db: Db, session: Pick<SessionUser, 'sessionId'>): Promise<void> {
  await sessions.deleteSession(db, session.sessionId);
}

/** What each role may do (viewer reads; editor also changes content; admin also people and keys). */
export function roleAllows(role: UserRole, needed: UserRole): boolean {
  const rank = { viewer: 0, editor: 1, admin: 2 } as const;
  return rank[role] >= rank[needed];
}
