// The welcome page of a company user's one-time sign-in link (an operator's invitation):
// the person chooses a password, and is signed in. The link's token comes in the address
// and goes back in the form; only its digest is stored. Anonymous to the session hook.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { randomToken } from '../../lib/ids.ts';
import { MIN_PASSWORD } from '../../lib/password-rules.ts';
import { acceptUserLink, userLinkInfo, type UserLinkInfo } from '../../modules/users/index.ts';
import { LinkRefused } from '../../modules/sign-in/index.ts';
import { page } from './layout.ts';
import { BASE, SESSION_COOKIE, checkSignInToken, cookieOptions, redirect } from './session.ts';

/** Double-submit token of the welcome form, which runs before there is a session. */
const WELCOME_COOKIE = 'slotline_welcome';
const WelcomeQuery = Type.Object({ token: Type.Optional(Type.String()) });
const WelcomeForm = Type.Object({
  token: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  confirmation: Type.Optional(Type.String()),
});

const SUSPENDED =
  'Your company’s access to Slotline is suspended. Contact the Slotline operator; this link works again once it is resumed, until it expires.';

export function welcomePages(ctx: AppContext, secure: boolean) {
  const cookie = (maxAge?: number) => cookieOptions(secure, maxAge);

  function welcomePage(
    req: FastifyRequest,
    reply: FastifyReply,
    token: string,
    link: UserLinkInfo | null,
    error: string | null,
  ) {
    const csrf = randomToken(18);
    reply.setCookie(WELCOME_COOKIE, csrf, cookie(3600));
    if (!link) reply.code(404);
    else if (link.companySuspended) reply.code(403);
    return page(req, reply, 'welcome.eta', 'Welcome to Slotline', {
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
        preValidation: async (req) => checkSignInToken(req, WELCOME_COOKIE),
      },
      async (req, reply) => {
        const token = req.body.token ?? '';
        try {
          const { token: secret, session } = await acceptUserLink(ctx.db, ctx.clock, {
            token,
            password: req.body.password ?? '',
            confirmation: req.body.confirmation ?? '',
          });
          const maxAge = Math.floor(
            (Date.parse(session.expiresAt) - ctx.clock.now().getTime()) / 1000,
          );
          reply.clearCookie(WELCOME_COOKIE, cookie());
          reply.setCookie(SESSION_COOKIE, secret, cookie(maxAge));
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
