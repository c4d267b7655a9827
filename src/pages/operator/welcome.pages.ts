// The operator's one-time sign-in link: choose a password, then set up the authenticator
// app (a QR code and the key to type), confirm it with a code, and keep the ten recovery
// codes shown once. A forgotten password's link of an operator with a second factor sets
// the password only and goes on to the sign-in's code step. The link's token comes in the address and goes back in the form; only
// its digest is stored. The steps after the password run in an `enrol` session.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { checkFormCookie, redirect } from '../kit/session.ts';
import {
  WelcomeForm,
  WelcomeQuery,
  issueFormToken,
  setSessionCookie,
  tooManyAttempts,
} from '../kit/sign-in.ts';
import { MIN_PASSWORD } from '../../lib/password-rules.ts';
import {
  RECOVERY_CODE_COUNT,
  acceptOperatorLink,
  confirmEnrolment,
  enrolmentOf,
  operatorLinkInfo,
  type OperatorLinkInfo,
} from '../../modules/operators/index.ts';
import { LinkRefused, SignInRefused } from '../../modules/sign-in/index.ts';
import { consolePage } from './layout.ts';
import { qrSvg } from './qr.ts';
import { OPERATOR_BASE, sessionOf, signInCookies } from './session.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

const CodeForm = Type.Object({ code: Type.Optional(Type.String()) });

export function welcomePages(ctx: AppContext, secure: boolean) {
  const cookies = signInCookies(secure);

  function passwordPage(
    req: FastifyRequest,
    reply: FastifyReply,
    token: string,
    link: OperatorLinkInfo | null,
    error: string | null,
  ) {
    const csrf = issueFormToken(reply, cookies);
    if (!link) reply.code(404);
    const title =
      link?.purpose === 'recover' ? 'Choose a new password' : 'Welcome to the operator console';
    return consolePage(req, reply, 'welcome.eta', title, {
      csrf,
      token,
      link,
      error,
      minPassword: MIN_PASSWORD,
    });
  }

  async function enrolPage(req: FastifyRequest, reply: FastifyReply, error: string | null) {
    const enrolment = await enrolmentOf(ctx.db, ctx.sealer, sessionOf(req));
    if (!enrolment)
      throw new ActionRefused('not_found', 'There is no authenticator waiting to be set up.');
    return consolePage(req, reply, 'enrol.eta', 'Set up two-factor sign-in', {
      enrolment,
      qr: await qrSvg(enrolment.uri, `QR code of the Slotline key for ${enrolment.email}`),
      error,
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const anonymous = { operatorStep: 'none' as const };

    app.get(
      '/welcome',
      { config: anonymous, schema: { querystring: WelcomeQuery } },
      async (req, reply) => {
        const token = req.query.token ?? '';
        const link = await operatorLinkInfo(ctx.db, ctx.clock, token);
        return passwordPage(req, reply, token, link, null);
      },
    );

    app.post(
      '/welcome',
      {
        config: anonymous,
        schema: { body: WelcomeForm },
        preValidation: async (req) => checkFormCookie(req, cookies.form),
      },
      async (req, reply) => {
        const token = req.body.token ?? '';
        try {
          const { secret, session } = await acceptOperatorLink(ctx.db, ctx.clock, ctx.sealer, {
            token,
            password: req.body.password ?? '',
            confirmation: req.body.confirmation ?? '',
          });
          const opened = { secret, expiresAt: session.expiresAt, now: ctx.clock.now() };
          setSessionCookie(reply, cookies, opened, cookies.form);
          // A forgotten password's link keeps the second factor: it is asked for next.
          if (session.step === 'password') {
            return redirect(req, reply, `${OPERATOR_BASE}/sign-in/code`);
          }
          return redirect(req, reply, `${OPERATOR_BASE}/welcome/authenticator`);
        } catch (err) {
          if (!(err instanceof LinkRefused)) throw err;
          const link = await operatorLinkInfo(ctx.db, ctx.clock, token);
          if (link) reply.code(400);
          return passwordPage(
            req,
            reply,
            token,
            link,
            err.reason === 'password' ? err.message : null,
          );
        }
      },
    );

    const enrolStep = { config: { operatorStep: 'enrol' as const } };
    app.get('/welcome/authenticator', enrolStep, async (req, reply) => enrolPage(req, reply, null));

    app.post(
      '/welcome/authenticator',
      { ...enrolStep, schema: { body: CodeForm } },
      async (req, reply) => {
        try {
          const done = await confirmEnrolment(ctx.db, ctx.clock, ctx.sealer, sessionOf(req), {
            code: req.body.code ?? '',
            address: req.ip,
          });
          const { secret, session } = done;
          setSessionCookie(reply, cookies, {
            secret,
            expiresAt: session.expiresAt,
            now: ctx.clock.now(),
          });
          req.operatorSession = done.session;
          // The codes exist only in this response (they are stored as digests), so this
          // page is the answer to the POST rather than a redirect; it is never cached.
          return consolePage(req, reply, 'recovery-codes.eta', 'Your recovery codes', {
            codes: done.recoveryCodes,
            count: RECOVERY_CODE_COUNT,
          });
        } catch (err) {
          if (!(err instanceof SignInRefused)) throw err;
          if (err.reason === 'limited') {
            return enrolPage(
              req,
              reply,
              `Too many wrong codes. ${tooManyAttempts(reply, err.retryAfter)}`,
            );
          }
          reply.code(400);
          const message =
            err.reason === 'reused'
              ? 'That code was used already. Wait for your app to show the next one.'
              : 'That code is not right. Type the 6 digits the app shows now for Slotline.';
          return enrolPage(req, reply, message);
        }
      },
    );
  };
}
