// What the sign-in, welcome and sign-out pages of every family share: the forms' fields,
// the double-submit token of a form that runs before there is a session, the session
// cookie a successful sign-in sets (for as long as the session lasts), the answer to too
// many failed attempts and signing out. Each family gives its own cookies and paths, its
// own pages and messages, and whatever steps it adds (the console's second factor).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { randomToken } from '../../lib/ids.ts';
import { pageCookieOptions, redirect } from './session.ts';

/** Where to go once signed in: any text, checked (`safeTarget`) before anything is written. */
export const SignInQuery = Type.Object({ next: Type.Optional(Type.String()) });
export const SignInForm = Type.Object({
  email: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  next: Type.Optional(Type.String()),
});
/** A one-time sign-in link's token, in the address. */
export const WelcomeQuery = Type.Object({ token: Type.Optional(Type.String()) });
/** The welcome form: the link's token back, and the password chosen. */
export const WelcomeForm = Type.Object({
  token: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  confirmation: Type.Optional(Type.String()),
});

/** A family's sign-in cookies: its pages' path, its session cookie and its forms' cookie. */
export interface SignInCookies {
  path: string;
  secure: boolean;
  session: string;
  /** Double-submit token of the forms that run before there is a session. */
  form: string;
}

export function cookieOf(cookies: SignInCookies, maxAgeSeconds?: number) {
  return pageCookieOptions(cookies.secure, cookies.path, maxAgeSeconds);
}

/** Seconds until a session's expiry: its cookie's lifetime. */
export function maxAgeOf(expiresAt: string, now: Date): number {
  return Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / 1000));
}

/** A fresh double-submit token for a form before a session, set in its cookie for an hour. */
export function issueFormToken(reply: FastifyReply, cookies: SignInCookies, name = cookies.form) {
  const csrf = randomToken(18);
  reply.setCookie(name, csrf, cookieOf(cookies, 3600));
  return csrf;
}

/**
 * Sets the session cookie of a session just opened (or carried to its next step), for its
 * lifetime; `formCookie`, when given, is the form's token cookie, spent once signed in.
 */
export function setSessionCookie(
  reply: FastifyReply,
  cookies: SignInCookies,
  opened: { secret: string; expiresAt: string; now: Date },
  formCookie?: string,
): void {
  if (formCookie !== undefined) reply.clearCookie(formCookie, cookieOf(cookies));
  reply.setCookie(
    cookies.session,
    opened.secret,
    cookieOf(cookies, maxAgeOf(opened.expiresAt, opened.now)),
  );
}

/** Too many failed attempts: 429 with Retry-After, and how long to wait in words. */
export function tooManyAttempts(reply: FastifyReply, retryAfter: number): string {
  reply.header('retry-after', String(retryAfter));
  reply.code(429);
  return `Try again in ${Math.ceil(retryAfter / 60)} minutes.`;
}

/** Signs out: the session cookie cleared and the browser sent to the family's sign-in. */
export function signedOut(req: FastifyRequest, reply: FastifyReply, cookies: SignInCookies) {
  reply.clearCookie(cookies.session, cookieOf(cookies));
  return redirect(req, reply, `${cookies.path}/sign-in`);
}
