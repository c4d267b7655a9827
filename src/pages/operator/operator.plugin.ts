// The operator console: server-rendered pages at /operator for the service's own staff, an
// encapsulated plugin with its own body parser (forms), templates, session cookie and
// hook. Like the dashboard's, its routes are outside the API's bearer-key check and its
// OpenAPI document; its hook admits them by an operator session that passed both factors
// (or the sign-in step a route belongs to), checks CSRF on every state-changing request,
// and every response carries the pages' security headers. It shares the kit's stylesheet
// and the pages' script (pages/kit/assets/), served from the installed files, never a CDN,
// beside its own.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { KIT_ASSETS, sourceFolder } from '../kit/assets.ts';
import { pageHeaders } from '../kit/headers.ts';
import { registerPageFamily } from '../kit/plugin.ts';
import { checkCsrf, errorPageOf, redirect } from '../kit/session.ts';
import { resolveOperatorSession } from '../../modules/operators/index.ts';
import { alertPages } from './alerts.pages.ts';
import { notificationPages } from './notifications.pages.ts';
import { companyPages } from './companies.pages.ts';
import { fulfilmentPages } from './fulfilment.pages.ts';
import { consolePage } from './layout.ts';
import { logPages } from './log.pages.ts';
import { outboxPages } from './outbox.pages.ts';
import { OPERATOR_BASE, OPERATOR_COOKIE, cookieOptions } from './session.ts';
import { signInPages } from './sign-in.pages.ts';
import { welcomePages } from './welcome.pages.ts';
import { workerPages } from './workers.pages.ts';

// The templates and stylesheets stay in src/ (they are not compiled).
const VIEWS = sourceFolder('pages/operator/views');
const ASSETS = sourceFolder('pages/operator/assets');

/** Where a session at each step belongs. */
const HOME = {
  full: `${OPERATOR_BASE}/companies`,
  password: `${OPERATOR_BASE}/sign-in/code`,
  enrol: `${OPERATOR_BASE}/welcome/authenticator`,
} as const;

export function operatorPlugin(ctx: AppContext) {
  return async function operator(app: FastifyInstance): Promise<void> {
    const secure = ctx.config.publicUrl.startsWith('https:');
    await registerPageFamily(app, {
      base: OPERATOR_BASE,
      headers: pageHeaders(ctx),
      views: VIEWS,
      assets: {
        roots: [ASSETS, KIT_ASSETS],
        allowed: (path) => /^\/(operator\.(css|js)|kit\.css|dashboard\.js)$/.test(path),
      },
    });
    app.decorateRequest('operatorSession', null);
    // Before validation: who asks, and whether the form is theirs (CSRF), is settled before
    // what they sent, so a signed-out visitor is sent to sign in whatever the query.
    app.addHook('preValidation', async (req, reply) => {
      const needed = req.routeOptions.config.operatorStep ?? 'full';
      if (needed === 'none' || req.is404 || req.url.startsWith(`${OPERATOR_BASE}/assets/`)) {
        return;
      }
      const secret = req.cookies[OPERATOR_COOKIE] ?? '';
      const session = await resolveOperatorSession(ctx.db, ctx.clock, secret);
      if (!session) {
        if (secret) reply.clearCookie(OPERATOR_COOKIE, cookieOptions(secure));
        const back =
          req.method === 'GET' && needed === 'full' ? `?next=${encodeURIComponent(req.url)}` : '';
        return redirect(req, reply, `${OPERATOR_BASE}/sign-in${back}`);
      }
      // A browser half-way through signing in is sent to its step; one signed in fully
      // has nothing left to do on the steps' pages.
      if (needed !== 'any' && session.step !== needed) {
        return redirect(req, reply, HOME[session.step]);
      }
      req.operatorSession = session;
      if (req.method !== 'GET' && req.method !== 'HEAD') checkCsrf(req, session);
    });

    app.setErrorHandler(async (err: FastifyError, req, reply) => {
      const { status, message, internal } = errorPageOf(err, req.id);
      if (internal) req.log.error({ err }, 'operator console request failed');
      reply.code(status);
      return consolePage(req, reply, 'error.eta', 'Error', { message, status });
    });
    app.setNotFoundHandler(async (req, reply) => {
      reply.code(404);
      return consolePage(req, reply, 'error.eta', 'Not found', {
        message: 'There is no page at this address.',
        status: 404,
      });
    });

    app.get('/', async (req, reply) => redirect(req, reply, HOME.full));
    await app.register(signInPages(ctx, secure));
    await app.register(welcomePages(ctx, secure));
    await app.register(companyPages(ctx));
    await app.register(workerPages(ctx));
    await app.register(fulfilmentPages(ctx));
    await app.register(logPages(ctx));
    await app.register(outboxPages(ctx));
    await app.register(alertPages(ctx));
    await app.register(notificationPages(ctx));
  };
}
