// The dashboard's people (company users with a role) and their sign-in: passwords hashed
// with argon2id, sessions kept in the database (every replica sees them; a disabled user
// is out at the next request), failed sign-ins limited per account and per address.
import { hash, verify } from '@node-rs/argon2';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db, DbOrTx, UserRole, UsersTable } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId, randomToken } from '../../lib/ids.ts';
import { CliError } from '../../lib/cli-error.ts';
import { OPERATOR, recordActivity, type Actor } from '../activity/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import {
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  clearSignInAttempts,
  endSession,
  endSessionsOf,
  openSession as openStoredSession,
  releaseSignInAttempts,
  reserveSignInAttempt,
  resolveSession as resolveStoredSession,
  SignInRefused,
} from '../sign-in/index.ts';
import * as repo from './users.repository.ts';

export const ROLES = ['admin', 'editor', 'viewer'] as const satisfies readonly UserRole[];

export { SESSION_IDLE_MS, SESSION_MAX_MS } from '../../lib/session-times.ts';

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

export class UserError extends CliError {}

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
    | 'user.password_recovered'
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
    await endSessionsOf(tx, 'user', userId);
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
    await endSessionsOf(tx, 'user', userId);
    await recordUserActivity(tx, row, actor, 'user.password_reset', at);
    return { user: info({ ...row, disabled_at: null }), password };
  });
}

// ---- Sign-in and sessions -------------------------------------------------------------

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

function attemptKeys(email: string, address: string): { account: string; address: string } {
  return { account: `email:${email}`, address: `ip:${address}` };
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
  await clearSignInAttempts(db, keys.account);
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
  const at = now.toISOString();
  const { secret, row } = await db.transaction().execute(async (tx) => {
    const opened = await openStoredSession(tx, 'user', now, {
      user_id: user.id,
      company_id: user.company_id,
    });
    await repo.updateUser(tx, user.id, { last_sign_in_at: at });
    return opened;
  });
  return {
    token: secret,
    session: {
      sessionId: row.id,
      userId: user.id,
      companyId: user.company_id,
      email: user.email,
      role: user.role,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
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
  const found = await resolveStoredSession(
    db,
    'user',
    clock.now(),
    token,
    (row) => repo.findUser(db, row.user_id),
    (_row, user) => user.disabled_at !== null,
  );
  if (!found) return null;
  const { row, owner: user } = found;
  const company = await getCompanyRow(db, user.company_id);
  return {
    sessionId: row.id,
    userId: row.user_id,
    companyId: user.company_id,
    email: user.email,
    role: user.role,
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
    timezone: user.timezone,
    companySuspended: company?.suspended_at != null,
  };
}

export async function signOut(db: Db, session: Pick<SessionUser, 'sessionId'>): Promise<void> {
  await endSession(db, 'user', session.sessionId);
}

/** What each role may do (viewer reads; editor also changes content; admin also people and keys). */
export function roleAllows(role: UserRole, needed: UserRole): boolean {
  const rank = { viewer: 0, editor: 1, admin: 2 } as const;
  return rank[role] >= rank[needed];
}

/**
 * Users' emails by id, in one read: of `companyId` only when given (a company's pages), of
 * any company otherwise (the console); a user since removed is left out.
 */
export async function userEmails(
  db: DbOrTx,
  companyId: string | undefined,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  return new Map((await repo.emailsOf(db, companyId, ids)).map((u) => [u.id, u.email]));
}

/** The companies that have any of these users (enabled), each once; any number of ids. */
export async function companiesOfUsers(db: DbOrTx, userIds: readonly string[]): Promise<string[]> {
  const ids = [...new Set(userIds)];
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 1000) {
    for (const c of await repo.companiesOfUsers(db, ids.slice(i, i + 1000))) out.add(c);
  }
  return [...out];
}
