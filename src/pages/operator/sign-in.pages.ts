// Signing in to the operator console, in two steps: email and password, then a code from
// the authenticator app (or a recovery code); a new password by mail when it is forgotten;
// and signing out. Refusals keep the dashboard's
// limits and answer 401, or 429 with Retry-After once the attempts of the window are used.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { setScopedFlash } from '../kit/flash.ts';
import { checkFormCookie, redirect } from '../kit/session.ts';
import {
  SignInForm,
  SignInQuery,
  issueFormToken,
  setSessionCookie,
  signedOut,
  tooManyAttempts,
} from '../kit/sign-in.ts';
import { safeTarget } from '../kit/targets.ts';
import { forgotRoutes } from '../kit/forgot.ts';
import { unsubscribeRoutes } from '../kit/unsubscribe.ts';
import { checkUnsubscribe, optOut } from '../../modules/notify/index.ts';
import { mailKindLabel } from '../../modules/outbox/index.ts';
import {
  OPERATOR_RECOVER_LINK_MS,
  TOTP_PERIOD_SECONDS,
  passSecondFactor,
  requestOperatorRecovery,
  signInOperator,
  signOutOperator,
} from '../../modules/operators/index.ts';
import { SignInRefused } from '../../modules/sign-in/index.ts';
import { consolePage } from './layout.ts';
import { OPERATOR_BASE, OPERATOR_FLASH, sessionOf, signInCookies } from './session.ts';

/** The mail operators may stop: everything but security messages. */
const OPERATOR_MAIL_KINDS = new Set(['handoff_unclaimed', 'task_failed', 'account_disconnected']);

const CodeForm = Type.Object({
  code: Type.Optional(Type.String()),
  next: Type.Optional(Type.String()),
});

/** A safe console path (no open redirect, nothing a Location refuses), else the companies. */
function nextOf(next: string | undefined): string {
  return safeTarget(next, OPERATOR_BASE, `${OPERATOR_BASE}/companies`);
}

function tooMany(reply: FastifyReply, err: SignInRefused): string {
  return `Too many failed attempts. ${tooManyAttempts(reply, err.retryAfter)}`;
}

export function signInPages(ctx: AppContext, secure: boolean) {
  const cookies = signInCookies(secure);

  function signInForm(
    req: FastifyRequest,
    reply: FastifyReply,
    next: string,
    error: string | null,
    email = '',
  ) {
    const csrf = issueFormToken(reply, cookies);
    return consolePage(req, reply, 'sign-in.eta', 'Operator sign-in', {
      csrf,
      next,
      error,
      email,
    });
  }

  function codeForm(req: FastifyRequest, reply: FastifyReply, next: string, error: string | null) {
    return consolePage(req, reply, 'sign-in-code.eta', 'Two-factor sign-in', {
      next,
      error,
      period: TOTP_PERIOD_SECONDS,
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const anonymous = { operatorStep: 'none' as const };

    app.get(
      '/sign-in',
      { config: anonymous, schema: { querystring: SignInQuery } },
      async (req, reply) => signInForm(req, reply, nextOf(req.query.next), null),
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
        const next = nextOf(req.body.next);
        try {
          const { secret, session } = await signInOperator(ctx.db, ctx.clock, {
            email,
            password: req.body.password ?? '',
            address: req.ip,
          });
          const opened = { secret, expiresAt: session.expiresAt, now: ctx.clock.now() };
          setSessionCookie(reply, cookies, opened, cookies.form);
          return redirect(
            req,
            reply,
            `${OPERATOR_BASE}/sign-in/code?next=${encodeURIComponent(next)}`,
          );
        } catch (err) {
          if (!(err instanceof SignInRefused)) throw err;
          let message = 'Wrong email or password.';
          if (err.reason === 'limited') message = tooMany(reply, err);
          else if (err.reason === 'no_totp') {
            message = ctx.mailing
              ? 'Two-factor sign-in was never set up for this account, so the password alone does not sign in. Use “Forgot your password?” below: the emailed link takes you through setting it up.'
              : 'Two-factor sign-in was never set up for this account, so the password alone does not sign in. Ask another operator for a new sign-in link (slotline operator reset).';
            reply.code(403);
          } else reply.code(401);
          return signInForm(req, reply, next, message, email);
        }
      },
    );

    const codeStep = { config: { operatorStep: 'password' as const } };
    app.get(
      '/sign-in/code',
      { ...codeStep, schema: { querystring: SignInQuery } },
      async (req, reply) => codeForm(req, reply, nextOf(req.query.next), null),
    );

    app.post('/sign-in/code', { ...codeStep, schema: { body: CodeForm } }, async (req, reply) => {
      const next = nextOf(req.body.next);
      try {
        const passed = await passSecondFactor(ctx.db, ctx.clock, ctx.sealer, sessionOf(req), {
          code: req.body.code ?? '',
          address: req.ip,
        });
        const { secret, session } = passed;
        setSessionCookie(reply, cookies, {
          secret,
          expiresAt: session.expiresAt,
          now: ctx.clock.now(),
        });
        if (passed.recoveryCodeUsed) {
          // The notice belongs to the new session (its token keys the notice's MAC).
          req.operatorSession = passed.session;
          setScopedFlash(
            ctx,
            req,
            reply,
            `You signed in with a recovery code; ${passed.recoveryCodesLeft} of them ${passed.recoveryCodesLeft === 1 ? 'is' : 'are'} left. Each works once.`,
            OPERATOR_FLASH,
          );
        }
        return redirect(req, reply, next);
      } catch (err) {
        if (!(err instanceof SignInRefused)) throw err;
        if (err.reason === 'limited') return codeForm(req, reply, next, tooMany(reply, err));
        reply.code(401);
        const message =
          err.reason === 'reused'
            ? 'That code was used already. Wait for your app to show the next one.'
            : 'That code is not right. Type the 6 digits your app shows now, or an unused recovery code.';
        return codeForm(req, reply, next, message);
      }
    });

    forgotRoutes(app, {
      cookies,
      config: anonymous,
      mailOn: ctx.mailing !== null,
      minutes: OPERATOR_RECOVER_LINK_MS / 60_000,
      render: (req, reply, view) =>
        consolePage(req, reply, 'forgot.eta', 'Forgot your password?', { ...view }),
      request: async (email, address) =>
        ctx.mailing
          ? requestOperatorRecovery(ctx.db, ctx.clock, ctx.mailing, { email, address })
          : 0,
    });

    unsubscribeRoutes(app, {
      config: anonymous,
      path: `${OPERATOR_BASE}/unsubscribe`,
      render: (req, reply, view) =>
        consolePage(req, reply, 'unsubscribe.eta', 'Email preferences', { ...view }),
      label: (kind) => (OPERATOR_MAIL_KINDS.has(kind) ? mailKindLabel(kind) : null),
      check: (kind, ownerId, expires, signature) =>
        checkUnsubscribe(
          ctx.signer,
          { audience: 'operator', ownerId, kind },
          expires,
          signature,
          ctx.clock.now(),
        ),
      stop: (kind, ownerId) =>
        optOut(ctx.db, { audience: 'operator', ownerId, kind }, ctx.clock.now()),
    });

    app.post('/sign-out', { config: { operatorStep: 'any' } }, async (req, reply) => {
      await signOutOperator(ctx.db, sessionOf(req));
      return signedOut(req, reply, cookies);
    });
  };
}
