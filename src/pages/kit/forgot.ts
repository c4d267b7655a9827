// "Forgot your password?" of the dashboard and the console alike: a form that asks for the
// address and always gives the same answer ("if an account uses it, a link is on its way"),
// whether or not one does, so the page tells nobody who has an account. Too many requests
// answer 429 with how long to wait, for known and unknown addresses alike. Without mail the
// page says whom to ask instead. Each family gives its route config, pages and service.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { checkFormCookie } from './session.ts';
import { issueFormToken, tooManyAttempts, type SignInCookies } from './sign-in.ts';

const ForgotForm = Type.Object({ email: Type.Optional(Type.String()) });

/** What a family's forgot page shows. */
export interface ForgotView {
  /** `form` asks for the address; `sent` is the one answer; `off`: this service sends no mail. */
  state: 'form' | 'sent' | 'off';
  email: string;
  error: string | null;
  csrf: string;
  /** How long a mailed link works. */
  minutes: number;
}

export interface ForgotFamily {
  cookies: SignInCookies;
  /** The route config that lets the page through without a session. */
  config: Record<string, unknown>;
  mailOn: boolean;
  minutes: number;
  render(req: FastifyRequest, reply: FastifyReply, view: ForgotView): unknown;
  /** Mails a link if the address has an account: the seconds to wait when limited, else 0. */
  request(email: string, address: string): Promise<number>;
}

function emailProblem(email: string): string | null {
  if (email.length === 0) return 'Email: enter the address you sign in with.';
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    return 'Email: must be an email address, like name@example.com.';
  }
  return null;
}

/** Registers GET and POST `/forgot` of a family. */
export function forgotRoutes(base: FastifyInstance, family: ForgotFamily): void {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const view = (
    reply: FastifyReply,
    state: ForgotView['state'],
    email = '',
    error: string | null = null,
  ): ForgotView => ({
    state: family.mailOn ? state : 'off',
    email,
    error,
    csrf: issueFormToken(reply, family.cookies),
    minutes: family.minutes,
  });

  app.get('/forgot', { config: family.config }, async (req, reply) =>
    family.render(req, reply, view(reply, 'form')),
  );

  app.post(
    '/forgot',
    {
      config: family.config,
      schema: { body: ForgotForm },
      preValidation: async (req) => checkFormCookie(req, family.cookies.form),
    },
    async (req, reply) => {
      const email = (req.body.email ?? '').trim();
      if (!family.mailOn) {
        reply.code(409);
        return family.render(req, reply, view(reply, 'off'));
      }
      const problem = emailProblem(email);
      if (problem) {
        reply.code(400);
        return family.render(req, reply, view(reply, 'form', email, problem));
      }
      const wait = await family.request(email, req.ip);
      if (wait > 0) {
        const message = `Too many requests for a new password. ${tooManyAttempts(reply, wait)}`;
        return family.render(req, reply, view(reply, 'form', email, message));
      }
      return family.render(req, reply, view(reply, 'sent', email));
    },
  );
}
