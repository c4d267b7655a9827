// The workers' page (dashboard page 10): a person operating accounts signs in with the
// worker's token on a phone, sees the released tasks of those accounts, downloads the media,
// copies the caption and reports the outcome. Every action calls the worker API's service
// functions with the same validation, so a report from here and one from /worker/v1 are
// the same report. These routes are anonymous to the company-user hook: their own hook
// admits them by a worker session (worker-sessions.service.ts), never by a user's.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { compileValidator, validationError } from '../http/validation.ts';
import { randomToken } from '../lib/ids.ts';
import {
  claimTask,
  getTask,
  listTasks,
  reportResult,
  WorkerSignInRefused,
  resolveWorkerSession,
  signInWorker,
  signOutWorker,
  type WorkerSession,
  ResultBody,
  TaskListQuery,
  type ResultInput,
  type TaskOut,
} from '../modules/workers/index.ts';
import { setFlash, takeFlash, type FlashScope } from './flash.ts';
import { inLayout } from './layout.ts';
import {
  BASE,
  PageError,
  checkCsrf,
  errorPageOf,
  maskToken,
  checkSignInToken,
  cookieOptions,
  redirect,
} from './session.ts';

export const WORKER_BASE = `${BASE}/worker`;
/** The worker session's cookie; scoped to the workers' pages, holding a random secret only. */
export const WORKER_SESSION_COOKIE = 'slotline_worker_session';
/** Double-submit token of the worker sign-in form, which runs before there is a session. */
const WORKER_SIGN_IN_COOKIE = 'slotline_worker_sign_in';
/** Tasks a page of the list shows. */
const PAGE_SIZE = 25;
/** The workers' pages' notices: their own cookie, belonging to the worker session. */
const WORKER_FLASH: FlashScope = {
  cookie: 'slotline_worker_notice',
  path: WORKER_BASE,
  owner: (req) => req.workerSession,
};

declare module 'fastify' {
  interface FastifyRequest {
    workerSession: WorkerSession | null;
  }
  interface FastifyContextConfig {
    /** A workers' page open without a worker session (its sign-in form). */
    workerAnonymous?: boolean;
  }
}

/** The worker API's body validator: the page refuses exactly what /worker/v1 refuses. */
const validResult = compileValidator(ResultBody, 'body');

const TasksQuery = Type.Object({ cursor: TaskListQuery.properties.cursor });
const TaskParams = Type.Object({ taskId: Type.String() });
const SignInForm = Type.Object({ token: Type.Optional(Type.String()) });
/** The two report forms as sent: `posted` with its URL, or `failed` with a reason. */
const ReportForm = Type.Object({
  outcome: Type.Optional(Type.String()),
  postUrl: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
});

function sessionOf(req: FastifyRequest): WorkerSession {
  if (!req.workerSession) throw new PageError(401, 'Sign in with your worker token.');
  return req.workerSession;
}

/** Times as the worker reads them: in its own timezone (which its accounts share). */
function timeIn(timeZone: string): (iso: string) => string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (iso) => `${format.format(new Date(iso))} (${timeZone})`;
}

/** Renders a workers' page inside its own layout (no company navigation). */
function workerPage(
  req: FastifyRequest,
  reply: FastifyReply,
  template: string,
  title: string,
  data: Record<string, unknown> = {},
) {
  const session = req.workerSession;
  return inLayout(reply, template, 'worker-layout.eta', {
    ...data,
    title,
    // Each page carries its own masking of the CSRF token (session.ts maskToken).
    session: session ? { ...session, csrfToken: maskToken(session.csrfToken) } : null,
    base: BASE,
    wbase: WORKER_BASE,
    when: timeIn(session?.worker.timezone ?? 'UTC'),
  });
}

/** The report a form asks for, shaped as the API's body (only the fields the outcome takes). */
function resultOf(body: Static<typeof ReportForm>): ResultInput {
  const outcome = body.outcome ?? '';
  const input =
    outcome === 'posted'
      ? { outcome, postUrl: (body.postUrl ?? '').trim() }
      : outcome === 'failed'
        ? { outcome, reason: body.reason ?? '' }
        : { outcome };
  if (!validResult(input)) throw validationError(validResult.errors ?? [], 'body');
  return input as ResultInput;
}

export function workerPages(ctx: AppContext, secure: boolean) {
  const cookie = (maxAge?: number) => cookieOptions(secure, maxAge, WORKER_BASE);

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.decorateRequest('workerSession', null);

    // Every route here is passed by the company-user hook; `workerAnonymous` marks the two
    // that need no worker session either (the sign-in form and its post).
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, anonymous: true };
    });

    // Before validation, as the company pages' hook: a signed-out worker is sent to sign
    // in, whatever it sent.
    app.addHook('preValidation', async (req, reply) => {
      if (req.routeOptions.config.workerAnonymous) return;
      const secret = req.cookies[WORKER_SESSION_COOKIE] ?? '';
      const session = await resolveWorkerSession(ctx.db, ctx.clock, secret);
      if (!session) {
        if (secret) reply.clearCookie(WORKER_SESSION_COOKIE, cookie());
        return redirect(req, reply, `${WORKER_BASE}/sign-in`);
      }
      req.workerSession = session;
      if (req.method !== 'GET' && req.method !== 'HEAD') checkCsrf(req, session);
    });

    app.setErrorHandler(async (err: FastifyError, req, reply) => {
      // A service's ApiError (task_not_found, ...) keeps its status, as on the worker API.
      const { status, message, internal } = errorPageOf(err, req.id);
      if (internal) req.log.error({ err }, 'workers page request failed');
      reply.code(status);
      return workerPage(req, reply, 'worker-error.eta', 'Error', { message, status });
    });

    const signInForm = (reply: FastifyReply, error: string | null) => {
      const csrf = randomToken(18);
      reply.setCookie(WORKER_SIGN_IN_COOKIE, csrf, cookie(3600));
      return { csrf, error };
    };

    app.get('/', async (req, reply) => redirect(req, reply, `${WORKER_BASE}/tasks`));

    app.get('/sign-in', { config: { workerAnonymous: true } }, async (req, reply) =>
      workerPage(req, reply, 'worker-sign-in.eta', 'Worker sign-in', signInForm(reply, null)),
    );

    const signInRoute = {
      config: { workerAnonymous: true },
      schema: { body: SignInForm },
      // The form's own token first, as every other form's is checked before its fields.
      preValidation: async (req: FastifyRequest) => checkSignInToken(req, WORKER_SIGN_IN_COOKIE),
    };
    app.post('/sign-in', signInRoute, async (req, reply) => {
      try {
        const { secret, session } = await signInWorker(ctx.db, ctx.clock, {
          token: req.body.token ?? '',
          address: req.ip,
        });
        const maxAge = Math.floor(
          (Date.parse(session.expiresAt) - ctx.clock.now().getTime()) / 1000,
        );
        reply.clearCookie(WORKER_SIGN_IN_COOKIE, cookie());
        reply.setCookie(WORKER_SESSION_COOKIE, secret, cookie(maxAge));
        return redirect(req, reply, `${WORKER_BASE}/tasks`);
      } catch (err) {
        if (!(err instanceof WorkerSignInRefused)) throw err;
        const limited = err.reason === 'limited';
        const message = limited
          ? `Too many failed sign-ins. Try again in ${Math.ceil(err.retryAfter / 60)} minutes.`
          : 'That worker token is not valid, or it was revoked.';
        if (limited) reply.header('retry-after', String(err.retryAfter));
        reply.code(limited ? 429 : 401);
        return workerPage(req, reply, 'worker-sign-in.eta', 'Worker sign-in', {
          ...signInForm(reply, message),
        });
      }
    });

    app.post('/sign-out', async (req, reply) => {
      await signOutWorker(ctx.db, sessionOf(req));
      reply.clearCookie(WORKER_SESSION_COOKIE, cookie());
      return redirect(req, reply, `${WORKER_BASE}/sign-in`);
    });

    app.get('/tasks', { schema: { querystring: TasksQuery } }, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { cursor } = req.query;
      let result;
      try {
        result = await listTasks(ctx, worker, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'invalid_cursor') {
          return redirect(req, reply, `${WORKER_BASE}/tasks`);
        }
        throw err;
      }
      return workerPage(req, reply, 'worker-tasks.eta', 'Your tasks', {
        tasks: result.data,
        next: result.nextCursor
          ? `${WORKER_BASE}/tasks?cursor=${encodeURIComponent(result.nextCursor)}`
          : null,
        done: takeFlash(ctx, req, reply, WORKER_FLASH),
      });
    });

    const taskView = (
      req: FastifyRequest,
      reply: FastifyReply,
      task: TaskOut,
      extra: { error?: string; postUrl?: string; reason?: string } = {},
    ) =>
      workerPage(req, reply, 'worker-task.eta', `Task for @${task.username}`, {
        task,
        open: task.state === 'released' || task.state === 'claimed',
        error: extra.error ?? null,
        postUrl: extra.postUrl ?? '',
        reason: extra.reason ?? '',
      });

    const taskRoute = { schema: { params: TaskParams } };
    app.get('/tasks/:taskId', taskRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { taskId } = req.params;
      return taskView(req, reply, await getTask(ctx, worker, taskId));
    });

    app.post('/tasks/:taskId/start', taskRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { taskId } = req.params;
      await claimTask(ctx, worker, taskId);
      return redirect(req, reply, `${WORKER_BASE}/tasks/${encodeURIComponent(taskId)}`);
    });

    const reportRoute = { schema: { params: TaskParams, body: ReportForm } };
    app.post('/tasks/:taskId/report', reportRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { taskId } = req.params;
      const { body } = req;
      try {
        const input = resultOf(body);
        // A person may report straight from a task not yet started: the page claims it on
        // the worker's behalf first, as an API client claims before it reports.
        const task = await getTask(ctx, worker, taskId);
        if (task.state === 'released') await claimTask(ctx, worker, taskId);
        await reportResult(ctx, worker, taskId, input);
        setFlash(ctx, req, reply, `Reported as ${input.outcome}. Thank you.`, WORKER_FLASH);
        return redirect(req, reply, `${WORKER_BASE}/tasks`);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'task_not_found') throw err;
        // The task page again, with the service's message and what was typed.
        const task = await getTask(ctx, worker, taskId);
        reply.code(err.status);
        return taskView(req, reply, task, {
          error: err.message,
          postUrl: body.postUrl ?? '',
          reason: body.reason ?? '',
        });
      }
    });
  };
}
