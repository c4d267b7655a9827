// Dashboard sign-in state: the session cookie, the CSRF synchronizer token and role checks.
// The session lives in the database (users.service.ts); the cookie holds only its secret.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { isUnstorableText } from '../db/errors.ts';
import type { UserRole } from '../db/types.ts';
import { unstorableText } from '../http/errors.ts';
import { randomBytes } from 'node:crypto';
import { safeEqual } from '../lib/crypto.ts';
import type { Actor } from '../modules/activity/index.ts';
import { roleAllows, type SessionUser } from '../modules/users/index.ts';

export const SESSION_COOKIE = 'slotline_session';
/** Double-submit token of the sign-in form, which runs before there is a session. */
export const SIGN_IN_COOKIE = 'slotline_sign_in';
export const BASE = '/dashboard';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardUser: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** The least role a dashboard route needs; signed-in users of any role when absent. */
    role?: UserRole;
    /** A dashboard route open without a session (sign-in, assets). */
    anonymous?: boolean;
  }
}

/** A refusal the dashboard renders as a page (or a fragment for htmx requests). */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function cookieOptions(secure: boolean, maxAgeSeconds?: number, path = BASE) {
  return {
    path,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure,
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  };
}

/** Who a signed-in user is in the activity log. */
export function actorOf(user: SessionUser): Actor {
  return { id: `user:${user.userId}`, label: user.email };
}

export function userOf(req: FastifyRequest): SessionUser {
  if (!req.dashboardUser) throw new PageError(401, 'Sign in to continue.');
  return req.dashboardUser;
}

/** Refuses a user whose role is below `needed`. */
export function requireRole(user: SessionUser, needed: UserRole): void {
  if (!roleAllows(user.role, needed)) {
    throw new PageError(403, `This needs the ${needed} role; you are signed in as ${user.role}.`);
  }
}

/**
 * The session's CSRF token as one response carries it: XOR-masked with a fresh random pad
 * and the pad prepended, so compressed pages never repeat the secret's bytes (BREACH).
 */
export function maskToken(token: string): string {
  const raw = Buffer.from(token, 'utf8');
  const pad = randomBytes(raw.length);
  const masked = Buffer.alloc(raw.length);
  for (let i = 0; i < raw.length; i++) masked[i] = (raw[i] as number) ^ (pad[i] as number);
  return Buffer.concat([pad, masked]).toString('base64url');
}

function unmask(sent: string): string {
  const buf = Buffer.from(sent, 'base64url');
  if (buf.length === 0 || buf.length % 2 !== 0 || buf.length > 512) return '';
  const n = buf.length / 2;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = (buf[i] as number) ^ (buf[n + i] as number);
  return out.toString('utf8');
}

function same(a: string, b: string): boolean {
  return a.length > 0 && safeEqual(Buffer.from(a), Buffer.from(b));
}

/** The token a form sent in its `_csrf` field; every route checks it, whatever its body. */
function formToken(body: unknown): string {
  if (typeof body !== 'object' || body === null || !('_csrf' in body)) return '';
  return typeof body._csrf === 'string' ? body._csrf : '';
}

/**
 * The CSRF check of a state-changing request: the session's token must come back in the
 * form field `_csrf` or the `x-csrf-token` header (htmx sends it on every request).
 */
export function checkCsrf(req: FastifyRequest, user: Pick<SessionUser, 'csrfToken'>): void {
  const header = req.headers['x-csrf-token'];
  const sent = typeof header === 'string' ? header : formToken(req.body);
  if (!same(unmask(sent), user.csrfToken)) {
    throw new PageError(403, 'This form has expired. Reload the page and try again.');
  }
}

/** The sign-in form's double-submit check (`cookieName`: the form's own cookie). */
export function checkSignInToken(req: FastifyRequest, cookieName = SIGN_IN_COOKIE): void {
  const cookie = req.cookies[cookieName] ?? '';
  if (!same(formToken(req.body), cookie)) {
    throw new PageError(403, 'This form has expired. Reload the page and try again.');
  }
}

/** Sends the browser to `to`: an htmx request is told through HX-Redirect. */
export function redirect(req: FastifyRequest, reply: FastifyReply, to: string) {
  if (req.headers['hx-request'] === 'true') return reply.header('hx-redirect', to).code(204).send();
  return reply.redirect(to, 303);
}

/**
 * What an error page says: refusals (PageError) and the services' errors (ApiError) keep
 * their status and message; a malformed or oversize request its 400/413/415; anything else
 * is a masked 500 naming the request id, with `internal` set so the caller logs it.
 */
export function errorPageOf(
  err: FastifyError,
  requestId: string,
): { status: number; message: string; internal: boolean } {
  if (err instanceof PageError || err instanceof ApiError) {
    return { status: err.status, message: err.message, internal: false };
  }
  if (err.statusCode === 413 || err.statusCode === 400 || err.statusCode === 415) {
    return { status: err.statusCode, message: err.message, internal: false };
  }
  if (isUnstorableText(err)) {
    return { status: 400, message: unstorableText().message, internal: false };
  }
  return {
    status: 500,
    message: `Something went wrong. Quote ${requestId} to support.`,
    internal: true,
  };
}
