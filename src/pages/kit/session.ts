// What every family of server-rendered pages shares about a browser session (the company
// dashboard, the workers' page, the operator console): cookie options, the CSRF
// synchronizer token (masked per response), the double-submit token of a sign-in form,
// redirects that htmx follows (to safe targets only), and what an error page says. Each
// family keeps its own sessions, cookies and paths; nothing here knows whose session it is.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { isUnstorableText } from '../../db/errors.ts';
import { ApiError } from '../../errors.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import { safeEqual } from '../../lib/crypto.ts';
import { unstorableText } from '../../http/errors.ts';
import { isSafeTarget } from './targets.ts';

/** A session cookie of pages under `path`: HttpOnly, SameSite=Lax, Secure over https. */
export function pageCookieOptions(secure: boolean, path: string, maxAgeSeconds?: number) {
  return {
    path,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure,
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  };
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
export function checkCsrf(req: FastifyRequest, session: { csrfToken: string }): void {
  const header = req.headers['x-csrf-token'];
  const sent = typeof header === 'string' ? header : formToken(req.body);
  if (!same(unmask(sent), session.csrfToken)) {
    throw new ActionRefused('forbidden', 'This form has expired. Reload the page and try again.');
  }
}

/** A sign-in form's double-submit check (`cookieName`: the form's own cookie). */
export function checkFormCookie(req: FastifyRequest, cookieName: string): void {
  const cookie = req.cookies[cookieName] ?? '';
  if (!same(formToken(req.body), cookie)) {
    throw new ActionRefused('forbidden', 'This form has expired. Reload the page and try again.');
  }
}

/**
 * Sends the browser to `to`: an htmx request is told through HX-Redirect. A target that
 * is not a safe same-site path (targets.ts) never reaches the header: the browser
 * goes to the top of the app it asked (its address's first segment) instead, and the slip
 * is logged. Callers check what they were sent first; this is the guard behind them.
 */
export function redirect(req: FastifyRequest, reply: FastifyReply, to: string) {
  let target = to;
  if (!isSafeTarget(to)) {
    const app = /^\/[a-z]+/.exec(req.url)?.[0];
    target = app ?? '/';
    req.log.error({ target: to.slice(0, 200) }, 'unsafe redirect target refused');
  }
  if (req.headers['hx-request'] === 'true') {
    return reply.header('hx-redirect', target).code(204).send();
  }
  return reply.redirect(target, 303);
}

/**
 * What an error page says: refusals (ActionRefused) and the services' errors (ApiError) keep
 * their status and message; a malformed or oversize request its 400/413/415; anything else
 * is a masked 500 naming the request id, with `internal` set so the caller logs it.
 */
export function errorPageOf(
  err: FastifyError,
  requestId: string,
): { status: number; message: string; internal: boolean } {
  if (err instanceof ActionRefused || err instanceof ApiError) {
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

/**
 * Sends `template` inside `layout` as HTML that is never cached: every server-rendered
 * page goes out this way. The layout is per page, not global: @fastify/view refuses a
 * per-page layout beside a global one, and each family of pages has its own.
 */
export function inLayout(
  reply: FastifyReply,
  template: string,
  layout: string,
  data: Record<string, unknown>,
) {
  return reply
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .view(template, data, { layout });
}
