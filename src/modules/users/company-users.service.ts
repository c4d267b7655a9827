// A company's admins managing its people from the dashboard: the list with each user's
// sign-in state, invitations by one-time link, role changes, disabling and resets (a new
// one-time link). Every action reads only users of the acting company (another company's
// user is unknown), keeps the company at least one enabled admin, never acts on the admin
// who asks (but an invitation), and is recorded in the company's activity log in its own
// transaction. Each user's display timezone is set here too.
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db, DbOrTx, UserRole, UsersTable } from '../../db/types.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import type { Clock } from '../../lib/clock.ts';
import { validTimezone } from '../../schedule/local-time.ts';
import type { Actor } from '../activity/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import type { Mailing } from '../outbox/index.ts';
import { inviteUser, issueLink, type IssuedUserLink } from './user-links.service.ts';
import { resetMail } from './user-mail.rules.ts';
import { endSessionsOf, expireLinksOf, latestLinksOf } from '../sign-in/index.ts';
import * as repo from './users.repository.ts';
import {
  ROLES,
  UserError,
  info,
  isRole,
  recordUserActivity,
  unusablePasswordHash,
  type UserInfo,
} from './users.service.ts';

/** Where a user stands with signing in, as the users page shows it. */
export type SignInState =
  /** Signs in with a password. */
  | { kind: 'active' }
  /** Signs in first through a one-time link, open until `expiresAt`. */
  | { kind: 'link_open'; expiresAt: string }
  /** Its one-time link expired unused: a reset makes a new one. */
  | { kind: 'link_expired'; expiredAt: string }
  | { kind: 'disabled'; disabledAt: string };

export interface CompanyUser extends UserInfo {
  signIn: SignInState;
}

function signInState(
  user: UsersTable,
  link: { created_at: string; expires_at: string; used_at: string | null } | undefined,
  now: number,
): SignInState {
  if (user.disabled_at !== null) return { kind: 'disabled', disabledAt: user.disabled_at };
  // Only the newest link counts (a newer one ends the older), and only if the user has not
  // signed in since it was made.
  if (
    link &&
    link.used_at === null &&
    (user.last_sign_in_at === null || user.last_sign_in_at < link.created_at)
  ) {
    return Date.parse(link.expires_at) > now
      ? { kind: 'link_open', expiresAt: link.expires_at }
      : { kind: 'link_expired', expiredAt: link.expires_at };
  }
  return { kind: 'active' };
}

/** The company's users, oldest first, each with where it stands with signing in. */
export async function listCompanyUsers(
  db: Db,
  clock: Clock,
  companyId: string,
): Promise<CompanyUser[]> {
  const rows = await repo.listUsers(db, companyId);
  const latest = new Map(
    (
      await latestLinksOf(
        db,
        'user',
        rows.map((r) => r.id),
      )
    ).map((l) => [l.user_id, l]),
  );
  const now = clock.now().getTime();
  return rows.map((row) => ({ ...info(row), signIn: signInState(row, latest.get(row.id), now) }));
}

/** The company's user, or undefined for an unknown id and another company's user alike. */
export async function getCompanyUser(
  db: Db,
  companyId: string,
  userId: string,
): Promise<UserInfo | undefined> {
  const row = await repo.findCompanyUser(db, companyId, userId);
  return row && info(row);
}

/**
 * Invites a new user of the company: it signs in first through the one-time link returned
 * (once), where it chooses its password. Recorded as `user.invited`.
 */
export async function inviteCompanyUser(
  db: Db,
  clock: Clock,
  companyId: string,
  input: { email: string; role: string },
  actor: Actor,
  mailing: Mailing | null,
): Promise<{ user: UserInfo; link: IssuedUserLink }> {
  try {
    return await db
      .transaction()
      .execute((tx) =>
        inviteUser(tx, clock, { companyId, email: input.email, role: input.role }, actor, mailing),
      );
  } catch (err) {
    // Invited by someone else since inviteUser checked.
    if (isUniqueViolation(err)) {
      throw new UserError(`user ${input.email.trim().toLowerCase()} already exists`);
    }
    throw err;
  }
}

const NOT_FOUND = () => new ActionRefused('not_found', 'Not found.');

/**
 * The company's users locked, and the target among them; refuses an unknown user (or
 * another company's) and the acting admin itself.
 */
async function lockedTarget(
  tx: Parameters<typeof repo.lockCompanyUsers>[0],
  companyId: string,
  userId: string,
  actingUserId: string,
  doing: string,
): Promise<{ all: UsersTable[]; row: UsersTable }> {
  const all = await repo.lockCompanyUsers(tx, companyId);
  const row = all.find((u) => u.id === userId);
  if (!row) throw NOT_FOUND();
  if (row.id === actingUserId) {
    throw new ActionRefused('self', `You cannot ${doing} yourself; ask another admin.`);
  }
  return { all, row };
}

/** Refuses a change that would leave the company no enabled admin besides `row`. */
function keepAnAdmin(all: UsersTable[], row: UsersTable, doing: string): void {
  if (row.role !== 'admin' || row.disabled_at !== null) return;
  const others = all.filter((u) => u.id !== row.id && u.role === 'admin' && u.disabled_at === null);
  if (others.length === 0) {
    throw new ActionRefused(
      'last_admin',
      `${row.email} is the company's only enabled admin: make another user admin before you ${doing}.`,
    );
  }
}

/**
 * Gives the user another role; its sessions carry the new role from their next request.
 * Recorded as `user.role_changed` ("email: editor → admin"); the same role changes nothing.
 */
export async function changeUserRole(
  db: Db,
  clock: Clock,
  companyId: string,
  userId: string,
  role: string,
  actor: Actor,
  actingUserId: string,
): Promise<{ user: UserInfo; changed: boolean; from: UserRole }> {
  if (!isRole(role)) {
    throw new ActionRefused('invalid', `The role must be one of ${ROLES.join(', ')}.`);
  }
  const at = clock.now().toISOString();
  return db.transaction().execute(async (tx) => {
    const { all, row } = await lockedTarget(
      tx,
      companyId,
      userId,
      actingUserId,
      'change the role of',
    );
    if (row.role === role) return { user: info(row), changed: false, from: row.role };
    if (role !== 'admin') keepAnAdmin(all, row, 'take the admin role from them');
    await repo.updateUser(tx, row.id, { role, updated_at: at });
    await recordUserActivity(
      tx,
      { ...row, email: `${row.email}: ${row.role} → ${role}` },
      actor,
      'user.role_changed',
      at,
    );
    return { user: info({ ...row, role }), changed: true, from: row.role };
  });
}

/**
 * Disables the user: its sessions end at once and its links stop working. Never the acting
 * admin, never the last enabled admin. Recorded as `user.disabled`; a disabled user stays
 * as it is and nothing is recorded.
 */
export async function disableCompanyUser(
  db: Db,
  clock: Clock,
  companyId: string,
  userId: string,
  actor: Actor,
  actingUserId: string,
): Promise<{ user: UserInfo; changed: boolean }> {
  const at = clock.now().toISOString();
  return db.transaction().execute(async (tx) => {
    const { all, row } = await lockedTarget(tx, companyId, userId, actingUserId, 'disable');
    if (row.disabled_at !== null) return { user: info(row), changed: false };
    keepAnAdmin(all, row, 'disable them');
    await repo.updateUser(tx, row.id, { disabled_at: at, updated_at: at });
    await endSessionsOf(tx, 'user', row.id);
    await expireLinksOf(tx, 'user', row.id, at);
    await recordUserActivity(tx, row, actor, 'user.disabled', at);
    return { user: info({ ...row, disabled_at: at }), changed: true };
  });
}

/**
 * Resets the user's sign-in: its password stops working, its sessions end, it is enabled
 * again, and a new one-time link (returned once) lets it choose a new password. Recorded
 * as `user.password_reset` ("email: new sign-in link").
 */
export async function resetCompanyUser(
  db: Db,
  clock: Clock,
  companyId: string,
  userId: string,
  actor: Actor,
  actingUserId: string,
  mailing: Mailing | null,
): Promise<{ user: UserInfo; link: IssuedUserLink }> {
  const now = clock.now();
  const at = now.toISOString();
  const passwordHash = await unusablePasswordHash();
  const company = await getCompanyRow(db, companyId);
  return db.transaction().execute(async (tx) => {
    const { row } = await lockedTarget(tx, companyId, userId, actingUserId, 'reset');
    await repo.updateUser(tx, row.id, {
      password_hash: passwordHash,
      disabled_at: null,
      updated_at: at,
    });
    await endSessionsOf(tx, 'user', row.id);
    const link = await issueLink(tx, row, now, 'invite', {
      mailing,
      kind: 'sign_in_reset',
      content: (url, expiresAt) =>
        resetMail({
          email: row.email,
          companyName: company?.name ?? 'your company',
          actor,
          url,
          expiresAt,
          timezone: row.timezone,
        }),
    });
    await recordUserActivity(
      tx,
      { ...row, email: `${row.email}: new sign-in link` },
      actor,
      'user.password_reset',
      at,
    );
    return { user: info({ ...row, disabled_at: null }), link };
  });
}

/**
 * The user's own display timezone (an IANA name), or null to follow the browser's. A
 * personal preference, so not recorded in the company's log.
 */
export async function setUserTimezone(
  db: Db,
  clock: Clock,
  userId: string,
  timezone: string | null,
): Promise<void> {
  if (timezone !== null && (timezone.length > 64 || !validTimezone(timezone))) {
    throw new ActionRefused('invalid', `“${timezone}” is not a timezone this service knows.`);
  }
  await repo.updateUser(db, userId, { timezone, updated_at: clock.now().toISOString() });
}

/** Who a reminder about approvals goes to: the company's enabled users who may approve. */
export interface Approver {
  id: string;
  email: string;
  role: UserRole;
  timezone: string | null;
}

/** The enabled admins and editors of the company (admins only with `adminsOnly`). */
export async function companyApprovers(
  db: DbOrTx,
  companyId: string,
  adminsOnly = false,
): Promise<Approver[]> {
  const rows = await repo.listUsers(db, companyId);
  return rows
    .filter(
      (r) => r.disabled_at === null && (adminsOnly ? r.role === 'admin' : r.role !== 'viewer'),
    )
    .map((r) => ({ id: r.id, email: r.email, role: r.role, timezone: r.timezone }));
}
