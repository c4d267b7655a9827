// Signing in and out of the dashboard.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { safeTarget } from '../kit/targets.ts';
import { randomToken } from '../../lib/ids.ts';
import { SignInRefused } from '../../modules/sign-in/index.ts';
import { signIn, signOut } from '../../modules/users/index.ts';
import { page } from './layout.ts';
import {
  BASE,
  COMPANY_SUSPENDED,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
  checkSignInToken,
  cookieOptions,
  redirect,
  userOf,
} from './session.ts';

/** Where to go once signed in: any text, checked by `nextOf` before anything is written. */
const SignInQuery = Type.Object({ next: Type.Optional(Type.String()) });
const SignInForm = Type.Object({
  email: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  next: Type.Optional(Type.String()),
});

/** A safe dashboard path (no open redirect, nothing a Location refuses), else the inbox. */
function nextOf(next: string | undefined): string {
  return safeTarget(next, BASE, `${BASE}/approvals`);
}

export function signInPages(ctx: AppContext, secure: boolean) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const form = (next: string, error: string | null, email = '') => {
      const token = randomToken(18);
      return { token, data: { next, error, email, csrf: token } };
    };

    const anonymous = { anonymous: true };
    app.get(
      '/sign-in',
      { config: anonymous, schema: { querystring: SignInQuery } },
      async (req, reply) => {
        const { token, data } = form(nextOf(req.query.next), null);
        reply.setCookie(SIGN_IN_COOKIE, token, cookieOptions(secure, 3600));
        return page(req, reply, 'sign-in.eta', 'Sign in', data);
      },
    );

    app.post(
      '/sign-in',
      {
        config: anonymous,
        schema: { body: SignInForm },
        // The form's own token first, as every other form's is checked before its fields.
        preValidation: async (req) => checkSignInToken(req),
      },
      async (req, reply) => {
        const email = req.body.email ?? '';
        const password = req.body.password ?? '';
        const next = nextOf(req.body.next);
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
              : err.reason === 'suspended'
                ? COMPANY_SUSPENDED
                : 'Wrong email or password.';
          const again = form(next, message, email);
          reply.setCookie(SIGN_IN_COOKIE, again.token, cookieOptions(secure, 3600));
          if (err.reason === 'limited') reply.header('retry-after', String(err.retryAfter));
          reply.code(err.reason === 'limited' ? 429 : err.reason === 'suspended' ? 403 : 401);
          return page(req, reply, 'sign-in.eta', 'Sign in', again.data);
        }
      },
    );

    app.post('/sign-out', async (req, reply) => {
      await signOut(ctx.db, userOf(req));
      reply.clearCookie(SESSION_COOKIE, cookieOptions(secure));
      return redirect(req, reply, `${BASE}/sign-in`);
    });
  };
}
