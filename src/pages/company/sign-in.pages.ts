// Signing in and out of the dashboard, a new password by mail when it is forgotten, and
// the unsubscribe links of the mail its people get (they need no session either).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { checkFormCookie } from '../kit/session.ts';
import {
  SignInForm,
  SignInQuery,
  issueFormToken,
  setSessionCookie,
  signedOut,
  tooManyAttempts,
} from '../kit/sign-in.ts';
import { safeTarget } from '../kit/targets.ts';
import { SignInRefused } from '../../modules/sign-in/index.ts';
import { forgotRoutes } from '../kit/forgot.ts';
import { unsubscribeRoutes } from '../kit/unsubscribe.ts';
import { mailKindLabel } from '../../modules/outbox/index.ts';
import { checkUnsubscribe, optOut } from '../../modules/notify/index.ts';
import {
  USER_RECOVER_LINK_MS,
  requestUserRecovery,
  signIn,
  signOut,
} from '../../modules/users/index.ts';
import { page } from './layout.ts';
import { BASE, COMPANY_SUSPENDED, redirect, signInCookies, userOf } from './session.ts';

/** The mail a company's people may stop: everything but security messages. */
const USER_MAIL_KINDS = new Set([
  'approval_due',
  'approval_missed',
  'task_failed',
  'task_unconfirmed',
  'account_disconnected',
  'daily_summary',
]);

/** A safe dashboard path (no open redirect, nothing a Location refuses), else the inbox. */
function nextOf(next: string | undefined): string {
  return safeTarget(next, BASE, `${BASE}/approvals`);
}

export function signInPages(ctx: AppContext, secure: boolean) {
  const cookies = signInCookies(secure);
  const form = (
    req: FastifyRequest,
    reply: FastifyReply,
    next: string,
    error: string | null,
    email = '',
  ) => {
    const csrf = issueFormToken(reply, cookies);
    return page(req, reply, 'sign-in.eta', 'Sign in', { next, error, email, csrf });
  };

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const anonymous = { anonymous: true };
    app.get(
      '/sign-in',
      { config: anonymous, schema: { querystring: SignInQuery } },
      async (req, reply) => form(req, reply, nextOf(req.query.next), null),
    );

    app.post(
      '/sign-in',
      {
        config: anonymous,
        schema: { body: SignInForm },
        // The form's own token first, as every other form's is checked before its fields.
        preValidation: async (req) => checkFormCookie(req, cookies.form),
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
          const opened = { secret: token, expiresAt: session.expiresAt, now: ctx.clock.now() };
          setSessionCookie(reply, cookies, opened, cookies.form);
          return redirect(req, reply, next);
        } catch (err) {
          if (!(err instanceof SignInRefused)) throw err;
          let message = 'Wrong email or password.';
          if (err.reason === 'limited') {
            message = `Too many failed sign-ins. ${tooManyAttempts(reply, err.retryAfter)}`;
          } else if (err.reason === 'suspended') {
            message = COMPANY_SUSPENDED;
            reply.code(403);
          } else reply.code(401);
          return form(req, reply, next, message, email);
        }
      },
    );

    forgotRoutes(app, {
      cookies,
      config: anonymous,
      mailOn: ctx.mailing !== null,
      minutes: USER_RECOVER_LINK_MS / 60_000,
      render: (req, reply, view) =>
        page(req, reply, 'forgot.eta', 'Forgot your password?', { ...view }),
      request: async (email, address) =>
        ctx.mailing ? requestUserRecovery(ctx.db, ctx.clock, ctx.mailing, { email, address }) : 0,
    });

    unsubscribeRoutes(app, {
      config: anonymous,
      path: `${BASE}/unsubscribe`,
      render: (req, reply, view) =>
        page(req, reply, 'unsubscribe.eta', 'Email preferences', { ...view }),
      label: (kind) => (USER_MAIL_KINDS.has(kind) ? mailKindLabel(kind) : null),
      check: (kind, ownerId, expires, signature) =>
        checkUnsubscribe(
          ctx.signer,
          { audience: 'user', ownerId, kind },
          expires,
          signature,
          ctx.clock.now(),
        ),
      stop: (kind, ownerId) => optOut(ctx.db, { audience: 'user', ownerId, kind }, ctx.clock.now()),
    });

    app.post('/sign-out', async (req, reply) => {
      await signOut(ctx.db, userOf(req));
      return signedOut(req, reply, cookies);
    });
  };
}
