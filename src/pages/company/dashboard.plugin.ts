// The dashboard: server-rendered pages at /dashboard for a company's people, an
// encapsulated plugin with its own body parser (forms), templates, assets and session
// auth. The API's bearer-key hook passes its routes by (`config.public`); this plugin's
// own hook admits them by session cookie, checks CSRF on every state-changing request
// and the role each route needs. Every asset comes from the installed packages, and every
// response carries the security headers of headers.ts. The workers' app under
// /dashboard/worker is a plugin of its own (pages/worker/), registered beside this one.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { KIT_ASSETS, joinAssets, sourceFolder, type AssetSet } from '../kit/assets.ts';
import { redirectSlashedAddresses, registerPageFamily } from '../kit/plugin.ts';
import { resolveSession } from '../../modules/users/index.ts';
import { accountAnalyticsPages } from './account-analytics.pages.ts';
import { alertPages } from './alerts.pages.ts';
import { approvalPages } from './approvals.pages.ts';
import { activityPages } from './activity.pages.ts';
import { outboxPages } from './outbox.pages.ts';
import { calendarPages } from './calendar.pages.ts';
import { composeMediaPages } from './compose-media.pages.ts';
import { composePages } from './compose.pages.ts';
import { dashboardHeaders } from './headers.ts';
import { importPages } from './import.pages.ts';
import { page } from './layout.ts';
import { accountPages } from './accounts.pages.ts';
import { postPages } from './posts.pages.ts';
import { itemWindowPages } from './item-window.pages.ts';
import { schedulePages } from './schedule.pages.ts';
import { keyPages } from './keys.pages.ts';
import {
  BASE,
  COMPANY_SUSPENDED,
  SESSION_COOKIE,
  checkCsrf,
  errorPageOf,
  cookieOptions,
  redirect,
  requireRole,
} from './session.ts';
import { signInPages } from './sign-in.pages.ts';
import { settingsPages } from './settings.pages.ts';
import { notificationPages } from './notifications.pages.ts';
import { userPages } from './users.pages.ts';
import { tagPages } from './tags.pages.ts';
import { deliveryPages } from './delivery.pages.ts';
import { exportPages } from './exports.pages.ts';
import { usagePages } from './usage.pages.ts';
import { webhookPages } from './webhooks.pages.ts';
import { welcomePages } from './welcome.pages.ts';
import { workspacePages } from './workspace.pages.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

// The templates and stylesheets stay in src/ (they are not compiled).
const VIEWS = sourceFolder('pages/company/views');
const ASSETS = sourceFolder('pages/company/assets');
const HTMX = dirname(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'));

const COMPANY_ASSETS: AssetSet = {
  roots: [ASSETS, KIT_ASSETS, HTMX],
  allowed: (path) =>
    // The pages' stylesheets, scripts and icon (the ICO also answers GET /favicon.ico).
    /^\/(kit\.css|dashboard\.(css|js)|htmx\.min\.js|favicon\.(svg|ico))$/.test(path) ||
    // The post page's carousel gallery.
    path === '/post-media.js' ||
    // The post composer's script (its page loads it), and the push panel of the dashboard's
    // and the workers' app's notifications pages.
    path === '/compose.js' ||
    // The window choice of the composer, the queue form and the post page.
    path === '/windows.js' ||
    // The calendar's moves by drag and drop, its filters and its busy days opened in place.
    path === '/calendar.js' ||
    path === '/push-panel.js',
};

export interface DashboardOptions {
  /**
   * Another app's assets served under /dashboard/assets/ beside the dashboard's: the
   * workers' app's, at the addresses its pages and its installed manifest name.
   */
  alsoServes?: readonly AssetSet[];
}

export function dashboardPlugin(ctx: AppContext, options: DashboardOptions = {}) {
  return async function dashboard(app: FastifyInstance): Promise<void> {
    const secure = ctx.config.publicUrl.startsWith('https:');
    await registerPageFamily(app, {
      base: BASE,
      headers: dashboardHeaders(ctx),
      views: VIEWS,
      assets: joinAssets(COMPANY_ASSETS, ...(options.alsoServes ?? [])),
    });
    app.decorateRequest('dashboardUser', null);
    // Before validation: who asks, and whether the form is theirs (CSRF), is settled
    // before what they sent, so a signed-out visitor is sent to sign in whatever the query.
    app.addHook('preValidation', async (req, reply) => {
      const config = req.routeOptions.config;
      // Assets and unknown addresses need no session (the not-found page shows no data).
      if (config.anonymous || req.is404 || req.url.startsWith(`${BASE}/assets/`)) return;
      const token = req.cookies[SESSION_COOKIE] ?? '';
      const user = await resolveSession(ctx.db, ctx.clock, token);
      if (!user) {
        if (token) reply.clearCookie(SESSION_COOKIE, cookieOptions(secure));
        const back = req.method === 'GET' ? `?next=${encodeURIComponent(req.url)}` : '';
        return redirect(req, reply, `${BASE}/sign-in${back}`);
      }
      // A suspended company's users keep their sessions, which open nothing until an
      // operator resumes it (the page says so, with no navigation to follow).
      if (user.companySuspended) throw new ActionRefused('forbidden', COMPANY_SUSPENDED);
      req.dashboardUser = user;
      if (req.method !== 'GET' && req.method !== 'HEAD' && !config.csrfAfterBody) {
        checkCsrf(req, user);
      }
      if (config.role) requireRole(user, config.role);
    });

    // A page's address with a slash added goes to the page; /dashboard/ itself is the top.
    redirectSlashedAddresses(
      app,
      (path, bare) => path.startsWith(`${BASE}/assets/`) || bare === BASE,
    );

    app.setErrorHandler(async (err: FastifyError, req, reply) => {
      const { status, message, internal } = errorPageOf(err, req.id);
      if (internal) req.log.error({ err }, 'dashboard request failed');
      reply.code(status);
      const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : 'Error';
      return page(req, reply, 'error.eta', title, { message, status });
    });
    // An unknown address under /dashboard is a page too (with this plugin's headers), not
    // the API's JSON error, whatever its depth or trailing slash: under /dashboard/worker
    // as well, whose plugin has no not-found page of its own.
    app.setNotFoundHandler(async (req, reply) => {
      // A signed-in visitor keeps the navigation (the page shows no data).
      if (!req.dashboardUser) {
        const user = await resolveSession(ctx.db, ctx.clock, req.cookies[SESSION_COOKIE] ?? '');
        if (user && !user.companySuspended) req.dashboardUser = user;
      }
      reply.code(404);
      return page(req, reply, 'error.eta', 'Not found', {
        message: 'There is no page at this address.',
        status: 404,
      });
    });

    app.get('/', async (req, reply) => redirect(req, reply, `${BASE}/approvals`));
    await app.register(signInPages(ctx, secure));
    await app.register(welcomePages(ctx, secure));
    await app.register(approvalPages(ctx));
    await app.register(activityPages(ctx));
    await app.register(outboxPages(ctx));
    await app.register(calendarPages(ctx));
    await app.register(postPages(ctx));
    await app.register(itemWindowPages(ctx));
    await app.register(composePages(ctx));
    await app.register(composeMediaPages(ctx));
    await app.register(importPages(ctx));
    await app.register(accountPages(ctx));
    await app.register(schedulePages(ctx));
    await app.register(tagPages(ctx));
    await app.register(keyPages(ctx));
    await app.register(webhookPages(ctx));
    await app.register(usagePages(ctx));
    await app.register(deliveryPages(ctx));
    await app.register(workspacePages(ctx));
    await app.register(userPages(ctx));
    await app.register(settingsPages(ctx));
    await app.register(notificationPages(ctx));
    await app.register(alertPages(ctx));
    await app.register(accountAnalyticsPages(ctx));
    await app.register(exportPages(ctx));
  };
}
