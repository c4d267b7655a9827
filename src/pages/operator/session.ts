// The operator console's sign-in state: its cookie (its own name and path, so a company
// user's dashboard cookie never reaches it, nor it the dashboard), the session each
// request carries, who acted for the logs, and the console's notices. The mechanics
// (masking, CSRF, redirects, error pages) are the ones every family of pages shares.
import type { FastifyRequest } from 'fastify';
import type { FlashScope } from '../kit/flash.ts';
import { pageCookieOptions } from '../kit/session.ts';
import type { SignInCookies } from '../kit/sign-in.ts';
import {
  operatorLabel,
  type OperatorActor,
  type OperatorSession,
} from '../../modules/operators/index.ts';
import type { OperatorSessionStep } from '../../db/types.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

export const OPERATOR_BASE = '/operator';
/** The console session's cookie: a random secret only (its digest is stored). */
export const OPERATOR_COOKIE = 'slotline_operator';
/** Double-submit token of the forms that run before there is a session. */
export const OPERATOR_FORM_COOKIE = 'slotline_operator_form';

declare module 'fastify' {
  interface FastifyRequest {
    operatorSession: OperatorSession | null;
  }
  interface FastifyContextConfig {
    /**
     * The sign-in step a console route needs: `full` (the default: both factors passed),
     * `password` (the code form), `enrol` (the authenticator set-up), `any` (sign-out) or
     * `none` (the sign-in and welcome forms, the assets).
     */
    operatorStep?: OperatorSessionStep | 'any' | 'none';
  }
}

export function cookieOptions(secure: boolean, maxAgeSeconds?: number) {
  return pageCookieOptions(secure, OPERATOR_BASE, maxAgeSeconds);
}

export function sessionOf(req: FastifyRequest): OperatorSession {
  if (!req.operatorSession) throw new ActionRefused('signed_out', 'Sign in to continue.');
  return req.operatorSession;
}

/** Who a signed-in operator is in the operator log and the companies' activity logs. */
export function actorOf(session: OperatorSession): OperatorActor {
  return { operatorId: session.operatorId, label: operatorLabel(session) };
}

/** The console's notices: their own cookie, bound to the operator's session. */
export const OPERATOR_FLASH: FlashScope = {
  cookie: 'slotline_operator_notice',
  path: OPERATOR_BASE,
  owner: (req) => req.operatorSession,
};

/** The console's sign-in cookies, for the kit's sign-in pages. */
export function signInCookies(secure: boolean): SignInCookies {
  return { path: OPERATOR_BASE, secure, session: OPERATOR_COOKIE, form: OPERATOR_FORM_COOKIE };
}
