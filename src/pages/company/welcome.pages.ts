// The welcome page of a company user's one-time sign-in link (an invitation, an admin's
// reset, or a forgotten password's link): the person chooses a password, and is signed in. The link's token comes in the address
// and goes back in the form; only its digest is stored. Anonymous to the session hook.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { checkFormCookie } from '../kit/session.ts';
import { WelcomeForm, WelcomeQuery, issueFormToken, setSessionCookie } from '../kit/sign-in.ts';
import { MIN_PASSWORD } from '../../lib/password-rules.ts';
import { acceptUserLink, userLinkInfo, type UserLinkInfo } from '../../modules/users/index.ts';
import { LinkRefused } from '../../modules/sign-in/index.ts';
import { page } from './layout.ts';
import { BASE, redirect, signInCookies } from './session.ts';

/** Double-submit token of the welcome form, which runs before there is a session. */
const WELCOME_COOKIE = 'slotline_welcome';

const SUSPENDED =
  'Your company’s access to Slotline is suspended. Contact the Slotline operator; this link works again once it is resumed, until it expires.';

export function welcomePages(ctx: AppContext, secure: boolean) {
  const cookies = signInCookies(secure);

  function welcomePage(
    req: FastifyRequest,
    reply: FastifyReply,
    token: string,
    link: UserLinkInfo | null,
    error: string | null,
  ) {
    const csrf = issueFormToken(reply, cookies, WELCOME_COOKIE);
    if (!link) reply.code(404);
    else if (link.companySuspended) reply.code(403);
    const title = link?.purpose === 'recover' ? 'Choose a new password' : 'Welcome to Slotline';
    return page(req, reply, 'welcome.eta', title, {
      csrf,
      token,
      link,
      error,
      suspended: link?.companySuspended ? SUSPENDED : null,
      minPassword: MIN_PASSWORD,
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const anonymous = { anonymous: true };

    app.get(
      '/welcome',
      { config: anonymous, schema: { querystring: WelcomeQuery } },
      async (req, reply) => {
        const token = req.query.token ?? '';
        return welcomePage(req, reply, token, await userLinkInfo(ctx.db, ctx.clock, token), null);
      },
    );

    app.post(
      '/welcome',
      {
        config: anonymous,
        schema: { body: WelcomeForm },
        preValidation: async (req) => checkFormCookie(req, WELCOME_COOKIE),
      },
      async (req, reply) => {
        const token = req.body.token ?? '';
        try {
          const { token: secret, session } = await acceptUserLink(ctx.db, ctx.clock, {
            token,
            password: req.body.password ?? '',
            confirmation: req.body.confirmation ?? '',
          });
          const opened = { secret, expiresAt: session.expiresAt, now: ctx.clock.now() };
          setSessionCookie(reply, cookies, opened, WELCOME_COOKIE);
          return redirect(req, reply, `${BASE}/approvals`);
        } catch (err) {
          if (!(err instanceof LinkRefused)) throw err;
          const link = await userLinkInfo(ctx.db, ctx.clock, token);
          if (err.reason === 'password') reply.code(400);
          return welcomePage(
            req,
            reply,
            token,
            link,
            err.reason === 'password' ? err.message : null,
          );
        }
      },
    );
  };
}
