// One-time sign-in links of company users: an invitation (by an admin, or by an operator
// for a company's first admin), an admin's reset, or a forgotten password's link; the
// person sets a password through it on the dashboard's welcome page. Only the digest of the
// link's token is stored; a link is used once, an invitation's lasts 24 hours, and a newer
// link of the same user ends the older ones. With mail on, the link is also mailed to the
// person in the transaction that made it.
import { hash } from '@node-rs/argon2';
import type { Db, DbOrTx, LinkPurpose, UsersTable } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { passwordProblem } from '../../lib/password-rules.ts';
import type { Actor } from '../activity/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import { sendMail, type MailContent, type Mailing } from '../outbox/index.ts';
import {
  endSessionsOf,
  issueLink as issueStoredLink,
  liveLink as liveStoredLink,
  useLink,
  LinkRefused,
} from '../sign-in/index.ts';
import { inviteMail } from './user-mail.rules.ts';
import * as repo from './users.repository.ts';
import {
  ROLES,
  UserError,
  info,
  isRole,
  normalEmail,
  openSession,
  recordUserActivity,
  unusablePasswordHash,
  userExists,
  type SessionUser,
  type UserInfo,
} from './users.service.ts';

/** How long an invitation's (or an admin's reset's) link stays valid. */
export const USER_LINK_MS = 24 * 60 * 60 * 1000;
/** How long a forgotten password's link stays valid. */
export const USER_RECOVER_LINK_MS = 60 * 60 * 1000;
/** Where on the service a user's sign-in link leads (the dashboard's welcome page). */
export const USER_WELCOME_PATH = '/dashboard/welcome';

/** The address of a user's sign-in link. */
export function userWelcomeUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${USER_WELCOME_PATH}?token=${encodeURIComponent(token)}`;
}

/** A sign-in link just made: its token (shown once), when it stops working, and whether it was mailed. */
export interface IssuedUserLink {
  token: string;
  expiresAt: string;
  emailed: boolean;
}

/**
 * A new one-time link of the user; any older unused one stops working. With `mailing`, the
 * mail `content` makes of the link's address and expiry is written in the same transaction.
 */
export async function issueLink(
  tx: DbOrTx,
  user: UsersTable,
  now: Date,
  purpose: LinkPurpose,
  mail: {
    mailing: Mailing | null;
    kind: string;
    content: (url: string, expiresAt: string) => MailContent;
  },
): Promise<IssuedUserLink> {
  const { token, row } = await issueStoredLink(
    tx,
    'user',
    now,
    { user_id: user.id, company_id: user.company_id, purpose },
    {
      lifetimeMs: purpose === 'recover' ? USER_RECOVER_LINK_MS : USER_LINK_MS,
      ownerId: user.id,
      replace: true,
    },
  );
  let emailed = false;
  if (mail.mailing) {
    const url = userWelcomeUrl(mail.mailing.publicUrl, token);
    await sendMail(
      tx,
      { companyId: user.company_id, kind: mail.kind, to: user.email },
      mail.content(url, row.expires_at),
      now,
    );
    emailed = true;
  }
  return { token, expiresAt: row.expires_at, emailed };
}

/**
 * A new user of the company who signs in first through a one-time link (returned once):
 * it has no password until the link sets one. Records `user.invited` in the company's
 * activity log. Its writes belong together: run it inside a transaction.
 */
export async function inviteUser(
  db: DbOrTx,
  clock: Clock,
  input: { companyId: string; email: string; role: string },
  actor: Actor,
  mailing: Mailing | null,
): Promise<{ user: UserInfo; link: IssuedUserLink }> {
  if (!isRole(input.role)) throw new UserError(`role must be one of ${ROLES.join(', ')}`);
  const email = normalEmail(input.email);
  const company = await getCompanyRow(db, input.companyId);
  if (!company) throw new UserError(`company ${input.companyId} does not exist`);
  const role = input.role;
  if (await repo.findByEmail(db, email)) throw userExists(email);
  const now = clock.now();
  const at = now.toISOString();
  const row: UsersTable = {
    id: newId('usr', now.getTime()),
    company_id: input.companyId,
    email,
    role: input.role,
    password_hash: await unusablePasswordHash(),
    created_at: at,
    updated_at: at,
    disabled_at: null,
    last_sign_in_at: null,
    timezone: null,
  };
  await repo.insertUser(db, row);
  const link = await issueLink(db, row, now, 'invite', {
    mailing,
    kind: 'invite',
    content: (url, expiresAt) =>
      inviteMail({ email, role, companyName: company.name, actor, url, expiresAt, timezone: null }),
  });
  await recordUserActivity(
    db,
    { ...row, email: `${email} (${row.role})` },
    actor,
    'user.invited',
    at,
  );
  return { user: info(row), link };
}

/** What a live link names, for the welcome page; null for any link that does not work. */
export interface UserLinkInfo {
  userId: string;
  companyId: string;
  email: string;
  role: string;
  expiresAt: string;
  /** `recover`: the person forgot a password they had; `invite`: they choose one. */
  purpose: LinkPurpose;
  /** The company is suspended: the link waits until it is resumed. */
  companySuspended: boolean;
}

async function liveLink(db: DbOrTx, now: Date, token: string) {
  const link = await liveStoredLink(db, 'user', now, token);
  if (!link) return null;
  const user = await repo.findUser(db, link.user_id);
  if (!user || user.disabled_at !== null) return null;
  const company = await getCompanyRow(db, user.company_id);
  return { link, user, companySuspended: company?.suspended_at != null };
}

export async function userLinkInfo(
  db: Db,
  clock: Clock,
  token: string,
): Promise<UserLinkInfo | null> {
  const live = await liveLink(db, clock.now(), token);
  if (!live) return null;
  return {
    userId: live.user.id,
    companyId: live.user.company_id,
    email: live.user.email,
    role: live.user.role,
    expiresAt: live.link.expires_at,
    purpose: live.link.purpose,
    companySuspended: live.companySuspended,
  };
}

/**
 * Sets the user's password through its link, uses the link up and signs the user in:
 * the session's cookie secret and the session. Records `user.password_set`.
 */
export async function acceptUserLink(
  db: Db,
  clock: Clock,
  input: { token: string; password: string; confirmation: string },
): Promise<{ token: string; session: SessionUser }> {
  const now = clock.now();
  const live = await liveLink(db, now, input.token);
  if (!live) {
    throw new LinkRefused('invalid', 'This link does not work any more.');
  }
  if (live.companySuspended) {
    throw new LinkRefused(
      'suspended',
      'Your company’s access to Slotline is suspended. Contact the Slotline operator.',
    );
  }
  const problem = passwordProblem(input.password, input.confirmation, live.user.email);
  if (problem) throw new LinkRefused('password', problem);
  const passwordHash = await hash(input.password);
  const at = now.toISOString();
  const used = await db.transaction().execute(async (tx) => {
    if (!(await useLink(tx, 'user', live.link, now))) return false;
    await repo.updateUser(tx, live.user.id, { password_hash: passwordHash, updated_at: at });
    // A new password through a forgotten password's link ends the sessions the old one opened.
    if (live.link.purpose === 'recover') await endSessionsOf(tx, 'user', live.user.id);
    await recordUserActivity(
      tx,
      live.user,
      { id: `user:${live.user.id}`, label: live.user.email },
      live.link.purpose === 'recover' ? 'user.password_recovered' : 'user.password_set',
      at,
    );
    return true;
  });
  // Used by another request in the meantime.
  if (!used) throw new LinkRefused('invalid', 'This link does not work any more.');
  return openSession(db, now, { ...live.user, password_hash: passwordHash });
}
