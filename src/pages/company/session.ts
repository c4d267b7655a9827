// Dashboard sign-in state: the session cookie, the CSRF synchronizer token and role checks.
// The session lives in the database (users.service.ts); the cookie holds only its secret.
// The mechanics every family of pages shares (masking, CSRF and form-token checks,
// redirects, error pages) are pages/kit/session.ts's; this file gives them the
// dashboard's cookie names and path.
import type { FastifyRequest } from 'fastify';
import type { UserRole } from '../../db/types.ts';
import { pageCookieOptions } from '../kit/session.ts';
import type { SignInCookies } from '../kit/sign-in.ts';
import type { Actor } from '../../modules/activity/index.ts';
import { roleAllows, type SessionUser } from '../../modules/users/index.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

export { checkCsrf, errorPageOf, maskToken, redirect } from '../kit/session.ts';

export const SESSION_COOKIE = 'slotline_session';
/** Double-submit token of the sign-in form, which runs before there is a session. */
export const SIGN_IN_COOKIE = 'slotline_sign_in';
export const BASE = '/dashboard';
/** What a user of a suspended company is told, at sign-in and on every page. */
export const COMPANY_SUSPENDED =
  'Your company’s access to Slotline is suspended. Contact the Slotline operator: nothing was deleted, and everything is back as it was once the company is resumed.';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardUser: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** The least role a dashboard route needs; signed-in users of any role when absent. */
    role?: UserRole;
    /** A dashboard route open without a session (sign-in, assets). */
    anonymous?: boolean;
    /**
     * A form sent as multipart, whose fields (its `_csrf` among them) its own plugin reads
     * after the session hook: that plugin checks the CSRF token once they are read.
     */
    csrfAfterBody?: boolean;
  }
}

/** A dashboard cookie, scoped to the dashboard's path. */
export function cookieOptions(secure: boolean, maxAgeSeconds?: number) {
  return pageCookieOptions(secure, BASE, maxAgeSeconds);
}

/** Who a signed-in user is in the activity log. */
export function actorOf(user: SessionUser): Actor {
  return { id: `user:${user.userId}`, label: user.email };
}

export function userOf(req: FastifyRequest): SessionUser {
  if (!req.dashboardUser) throw new ActionRefused('signed_out', 'Sign in to continue.');
  return req.dashboardUser;
}

/** Refuses a user whose role is below `needed`. */
export function requireRole(user: SessionUser, needed: UserRole): void {
  if (!roleAllows(user.role, needed)) {
    throw new ActionRefused(
      'forbidden',
      `This needs the ${needed} role; you are signed in as ${user.role}.`,
    );
  }
}

/** The dashboard's sign-in cookies, for the kit's sign-in pages. */
export function signInCookies(secure: boolean): SignInCookies {
  return { path: BASE, secure, session: SESSION_COOKIE, form: SIGN_IN_COOKIE };
}
