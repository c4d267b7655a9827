// Signing in and out of the dashboard.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { randomToken } from '../lib/ids.ts';
import { SignInRefused, signIn, signOut } from '../modules/users/users.service.ts';
import { page } from './layout.ts';
import {
  BASE,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
  checkSignInToken,
  cookieOptions,
  redirect,
  userOf,
} from './session.ts';

/** Only a dashboard path may be where sign-in returns to (no open redirect). */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/dashboard\/[^/\\]/.test(next) && !next.includes('//')
    ? next
    : `${BASE}/approvals`;
}

export function signInPages(ctx: AppContext, secure: boolean) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const form = (next: string, error: string | null, email = '') => {
      const token = randomToken(18);
      return { token, data: { next, error, email, csrf: token } };
    };

    app.get('/sign-in', { config: { anonymous: true } }, async (req, reply) => {
      const { token, data } = form(safeNext((req.query as { next?: unknown }).next), null);
      reply.setCookie(SIGN_IN_COOKIE, token, cookieOptions(secure, 3600));
      return page(req, reply, 'sign-in.eta', 'Sign in', data);
    });

    app.post('/sign-in', { config: { anonymous: true } }, async (req, reply) => {
      checkSignInToken(req);
      const body = (req.body ?? {}) as Record<string, unknown>;
      const email = typeof body.email === 'string' ? body.email : '';
      const password = typeof body.password === 'string' ? body.password : '';
      const next = safeNext(body.next);
      try {
        const { token, session } = await signIn(ctx.db, ctx.clock, {
          email,
          password,
          address: req.ip,
        });
        const maxAge = Math.floor(
          (Date.parse(session.expiresAt) - ctx.clock.now().getTime()) / 1000,
        );
        reply.clearCookie(SIGN_IN_COOKIE, cookieOptions(secure));
        reply.setCookie(SESSION_COOKIE, token, cookieOptions(secure, maxAge));
        return redirect(req, reply, next);
      } catch (err) {
        if (!(err instanceof SignInRefused)) throw err;
        const message =
          err.reason === 'limited'
            ? `Too many failed sign-ins. Try again in ${Math.ceil(err.retryAfter / 60)} minutes.`
            : 'Wrong email or password.';
        const again = form(next, message, email);
        reply.setCookie(SIGN_IN_COOKIE, again.token, cookieOptions(secure, 3600));
        if (err.reason === 'limited') reply.header('retry-after', String(err.retryAfter));
        reply.code(err.reason === 'limited' ? 429 : 401);
        return page(req, reply, 'sign-in.eta', 'Sign in', again.data);
      }
    });

    app.post('/sign-out', async (req, reply) => {
      await signOut(ctx.db, userOf(req));
      reply.clearCookie(SESSION_COOKIE, cookieOptions(secure));
      return redirect(req, reply, `${BASE}/sign-in`);
    });
  };
}
