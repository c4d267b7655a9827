// The workers' app (dashboard page 10): a phone app under /dashboard/worker for whoever
// operates accounts. A person signs in with a one-time link (or the worker's token), sets
// new accounts up, posts released tasks with their media, caption and hashtags, reports each
// outcome with the post's address and a screenshot, and enters analytics. Every action calls
// the worker API's service functions with the same validation, so a report from here and
// one from /worker/v1 are the same report. It is an encapsulated plugin of its own, which
// the composition root registers beside the dashboard: its hooks admit its routes by a
// worker session (worker-sessions.service.ts), never by a company user's. This file holds
// the plugin (hooks, forms' bodies, errors) and signing in and out; the tasks and the
// accounts have pages of their own.
//
// Two things it leaves to the dashboard, whose addresses contain its own: its assets
// (WORKER_ASSETS, which app.ts hands to the dashboard plugin) are served under
// /dashboard/assets/, the addresses its pages and installed manifests name; and an unknown
// address under /dashboard/worker gets the dashboard's not-found page.
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { PROOF_MAX_BYTES } from '../../modules/uploads/index.ts';
import {
  peekWorkerSignInLink,
  resolveWorkerSession,
  signInWorker,
  signInWorkerByLink,
  signOutWorker,
  type WorkerSession,
} from '../../modules/workers/index.ts';
import { SignInRefused } from '../../modules/sign-in/index.ts';
import { sourceFolder, type AssetSet } from '../kit/assets.ts';
import { setScopedFlash } from '../kit/flash.ts';
import { unreadableMultipart } from '../kit/forms.ts';
import { pageHeaders } from '../kit/headers.ts';
import { redirectSlashedAddresses, registerPageFamily } from '../kit/plugin.ts';
import { checkCsrf, checkFormCookie, errorPageOf, redirect } from '../kit/session.ts';
import {
  cookieOf,
  issueFormToken,
  setSessionCookie,
  signedOut,
  tooManyAttempts,
  type SignInCookies,
} from '../kit/sign-in.ts';
import { workerAccountPages } from './accounts.pages.ts';
import {
  WORKER_BASE,
  WORKER_FLASH,
  sessionOf,
  workerPage,
  withoutIds,
  type SentFile,
} from './layout.ts';
import { workerNotificationPages } from './notifications.pages.ts';
import { workerTaskPages } from './tasks.pages.ts';

// The templates stay in src/ (they are not compiled).
const VIEWS = sourceFolder('pages/worker/views');

/** The app's script, stylesheet, web app manifest and icons (the dashboard serves them). */
export const WORKER_ASSETS: AssetSet = {
  roots: [sourceFolder('pages/worker/assets')],
  allowed: (path) =>
    /^\/(worker\.(css|js|webmanifest)|worker-icon-(180|192|512|maskable-512)\.png)$/.test(path),
};

/** The worker session's cookie; scoped to the workers' pages, holding a random secret only. */
const WORKER_SESSION_COOKIE = 'slotline_worker_session';
/** Double-submit token of the sign-in forms (token and link), which run before a session. */
const WORKER_SIGN_IN_COOKIE = 'slotline_worker_sign_in';

/** What a refused multipart body means for the person sending the form. */
const MULTIPART_REFUSALS = new Set([
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
  'FST_REQ_FILE_TOO_LARGE',
  'FST_PROTO_VIOLATION',
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
  'FST_INVALID_JSON_FIELD_ERROR',
]);

const SignInForm = Type.Object({ token: Type.Optional(Type.String()) });
const LinkQuery = Type.Object({ token: Type.Optional(Type.String()) });

export function workerAppPlugin(ctx: AppContext) {
  const secure = ctx.config.publicUrl.startsWith('https:');
  const cookies: SignInCookies = {
    path: WORKER_BASE,
    secure,
    session: WORKER_SESSION_COOKIE,
    form: WORKER_SIGN_IN_COOKIE,
  };

  return async function workerApp(base: FastifyInstance): Promise<void> {
    await registerPageFamily(base, {
      base: WORKER_BASE,
      headers: pageHeaders(ctx),
      views: VIEWS,
    });
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.decorateRequest('workerSession', null);
    // A page's address with a slash added goes to the page (/dashboard/worker/ included).
    redirectSlashedAddresses(app);

    // Before validation, as the company pages' hook: a signed-out worker is sent to sign
    // in, whatever it sent, before its body is read. `workerAnonymous` marks the routes
    // that need no worker session (sign-in forms and links).
    app.addHook('preValidation', async (req, reply) => {
      if (req.routeOptions.config.workerAnonymous) return;
      const secret = req.cookies[WORKER_SESSION_COOKIE] ?? '';
      const session = await resolveWorkerSession(ctx.db, ctx.clock, secret);
      if (!session) {
        if (secret) reply.clearCookie(WORKER_SESSION_COOKIE, cookieOf(cookies));
        return redirect(req, reply, `${WORKER_BASE}/sign-in`);
      }
      req.workerSession = session;
    });

    // Forms with a screenshot come as multipart: their fields become the body as the other
    // forms' do, and the file an object of its own (SentFile). One file, at most the proof
    // limit; a longer one arrives cut short and marked, so its form can say so by its field.
    await app.register(multipart, {
      attachFieldsToBody: 'keyValues',
      throwFileSizeLimit: false,
      limits: {
        files: 1,
        fileSize: PROOF_MAX_BYTES,
        fields: 20,
        fieldSize: 64 * 1024,
        fieldNameSize: 100,
        parts: 21,
        headerPairs: 100,
      },
      onFile: async (part) => {
        const bytes = await part.toBuffer();
        const file: SentFile = {
          filename: part.filename,
          contentType: part.mimetype,
          bytes,
          truncated: part.file.truncated,
        };
        (part as unknown as { value: SentFile }).value = file;
      },
    });

    // The CSRF check reads the form's `_csrf`, so it follows the body's parsing.
    app.addHook('preValidation', async (req) => {
      if (req.routeOptions.config.workerAnonymous) return;
      if (req.method !== 'GET' && req.method !== 'HEAD') checkCsrf(req, sessionOf(req));
    });

    app.setErrorHandler(async (err: FastifyError, req, reply) => {
      const refused = MULTIPART_REFUSALS.has(err.code) || unreadableMultipart(req, err);
      // A service's ApiError (task_not_found, ...) keeps its status, as on the worker API.
      const { status, message, internal } = refused
        ? {
            status: err.statusCode === 413 ? 413 : 400,
            message: `The form did not arrive whole. Send it again with one screenshot of at most ${PROOF_MAX_BYTES / 1024 / 1024} MiB.`,
            internal: false,
          }
        : errorPageOf(err, req.id);
      if (internal) req.log.error({ err }, 'workers page request failed');
      reply.code(status);
      return workerPage(req, reply, ctx.clock.now(), 'error.eta', 'Error', {
        // The page names what it is about; the services' ids mean nothing to a person.
        message: withoutIds(message),
        status,
      });
    });

    const signInForm = (reply: FastifyReply) => issueFormToken(reply, cookies);
    const signedIn = (req: FastifyRequest, reply: FastifyReply, opened: OpenedSession) => {
      const { secret, session } = opened;
      setSessionCookie(
        reply,
        cookies,
        { secret, expiresAt: session.expiresAt, now: ctx.clock.now() },
        cookies.form,
      );
      return redirect(req, reply, `${WORKER_BASE}/tasks`);
    };
    const tooMany = (reply: FastifyReply, err: SignInRefused) =>
      `Too many failed sign-ins. ${tooManyAttempts(reply, err.retryAfter)}`;
    const anonymous = { workerAnonymous: true };
    // The sign-in forms' own token first, as every other form's is checked before its fields.
    const formToken = async (req: FastifyRequest) => checkFormCookie(req, WORKER_SIGN_IN_COOKIE);

    app.get('/', async (req, reply) => redirect(req, reply, `${WORKER_BASE}/tasks`));

    app.get('/sign-in', { config: anonymous }, async (req, reply) =>
      workerPage(req, reply, ctx.clock.now(), 'sign-in.eta', 'Worker sign-in', {
        csrf: signInForm(reply),
        error: null,
      }),
    );

    app.post(
      '/sign-in',
      { config: anonymous, schema: { body: SignInForm }, preValidation: formToken },
      async (req, reply) => {
        try {
          const opened = await signInWorker(ctx.db, ctx.clock, {
            token: req.body.token ?? '',
            address: req.ip,
          });
          return signedIn(req, reply, opened);
        } catch (err) {
          if (!(err instanceof SignInRefused)) throw err;
          let error = 'That worker token is not valid, or it was revoked.';
          if (err.reason === 'limited') error = tooMany(reply, err);
          else reply.code(401);
          return workerPage(req, reply, ctx.clock.now(), 'sign-in.eta', 'Worker sign-in', {
            csrf: signInForm(reply),
            error,
          });
        }
      },
    );

    // A sign-in link (WORKER_LINK_PATH) only shows a button: opening the address uses
    // nothing, so a link preview or a mail scanner fetching it leaves it for the person.
    const linkPage = (req: FastifyRequest, reply: FastifyReply, data: LinkPageData) =>
      workerPage(req, reply, ctx.clock.now(), 'link.eta', 'Sign in on this phone', {
        csrf: data.token ? signInForm(reply) : null,
        token: data.token,
        workerName: data.workerName,
        error: data.error,
      });
    const spentLink = (req: FastifyRequest, reply: FastifyReply) => {
      reply.code(410);
      return linkPage(req, reply, { token: null, workerName: null, error: null });
    };

    app.get(
      '/link',
      { config: anonymous, schema: { querystring: LinkQuery } },
      async (req, reply) => {
        const token = req.query.token ?? '';
        const link = await peekWorkerSignInLink(ctx.db, ctx.clock, token);
        if (!link) return spentLink(req, reply);
        return linkPage(req, reply, { token, workerName: link.workerName, error: null });
      },
    );

    app.post(
      '/link',
      { config: anonymous, schema: { body: SignInForm }, preValidation: formToken },
      async (req, reply) => {
        const token = req.body.token ?? '';
        try {
          const opened = await signInWorkerByLink(ctx.db, ctx.clock, { token, address: req.ip });
          req.workerSession = opened.session;
          const welcome = `Signed in as ${opened.session.worker.name}.`;
          setScopedFlash(ctx, req, reply, welcome, WORKER_FLASH);
          return signedIn(req, reply, opened);
        } catch (err) {
          if (!(err instanceof SignInRefused)) throw err;
          if (err.reason === 'invalid') return spentLink(req, reply);
          const error = tooMany(reply, err);
          const link = await peekWorkerSignInLink(ctx.db, ctx.clock, token);
          return linkPage(req, reply, {
            token: link ? token : null,
            workerName: link?.workerName ?? null,
            error,
          });
        }
      },
    );

    app.post('/sign-out', async (req, reply) => {
      await signOutWorker(ctx.db, sessionOf(req));
      return signedOut(req, reply, cookies);
    });

    await app.register(workerTaskPages(ctx));
    await app.register(workerAccountPages(ctx));
    await app.register(workerNotificationPages(ctx));
  };
}

type OpenedSession = { secret: string; session: WorkerSession };

interface LinkPageData {
  token: string | null;
  workerName: string | null;
  error: string | null;
}
