// The tasks of the workers' app: the home page (accounts to set up, released tasks with
// their windows, when the next one is due, tasks posted lately), a task's page, and its
// actions: start it, report it posted (with the post's address and a screenshot, sent as
// multipart and kept in the report's own transaction) or failed, add a screenshot
// afterwards, and enter its figures. Every report is safe to send twice: the services
// answer a repeated report with the task unchanged, and the figures form carries the
// instant it was opened, so a resent form is the same snapshot.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { compileValidator, validationError as apiValidationError } from '../../http/validation.ts';
import { PROOF_MAX_BYTES } from '../../modules/uploads/index.ts';
import {
  ResultBody,
  SnapshotBody,
  TaskListQuery,
  attachTaskProof,
  claimTask,
  getTask,
  listTasks,
  recentlyPostedTasks,
  recordSnapshot,
  reportResult,
  taskListVersion,
  taskWindows,
  workerAppAccounts,
  type ResultInput,
  type SnapshotInput,
  type WorkerAppAccount,
} from '../../modules/workers/index.ts';
import type { WorkerPrincipal } from '../../access.ts';
import { setScopedFlash, takeScopedFlash } from '../kit/flash.ts';
import { redirect } from '../kit/session.ts';
import { taskPage, type TaskFormState } from './task-view.ts';
import {
  WORKER_BASE,
  WORKER_FLASH,
  formatsFor,
  parseCount,
  plainMessage,
  fieldOf,
  sessionOf,
  workerPage,
  type FieldErrors,
  type SentFile,
} from './layout.ts';

/** Tasks a page of the list shows. */
const PAGE_SIZE = 25;
const MIB = 1024 * 1024;

/** The worker API's body validators: the app refuses exactly what /worker/v1 refuses. */
const validResult = compileValidator(ResultBody, 'body');
const validSnapshot = compileValidator(SnapshotBody, 'body');

const TasksQuery = Type.Object({ cursor: TaskListQuery.properties.cursor });
const TaskParams = Type.Object({ taskId: Type.String() });
/** The report forms as sent: `posted` with its URL and a screenshot, or `failed`. */
const ReportForm = Type.Object({
  outcome: Type.Optional(Type.String()),
  postUrl: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  screenshot: Type.Optional(Type.Unknown()),
});
const ProofForm = Type.Object({ screenshot: Type.Optional(Type.Unknown()) });
const COUNTERS = ['views', 'likes', 'comments', 'shares', 'saves'] as const;
const FiguresForm = Type.Object({
  views: Type.Optional(Type.String()),
  likes: Type.Optional(Type.String()),
  comments: Type.Optional(Type.String()),
  shares: Type.Optional(Type.String()),
  saves: Type.Optional(Type.String()),
  collectedAt: Type.Optional(Type.String()),
});

/** The fields' names in the services' messages ("/postUrl is …" → "This link is …"). */
const LABELS: Record<string, string> = {
  postUrl: 'This link',
  reason: 'The reason',
  postedAt: 'The time posted',
  views: 'Views',
  likes: 'Likes',
  comments: 'Comments',
  shares: 'Shares',
  saves: 'Saves',
  collectedAt: 'The time of these figures',
};

/** The file a form sent, or null when its file field was left empty. */
function fileOf(value: unknown): SentFile | null {
  if (typeof value !== 'object' || value === null || !('bytes' in value)) return null;
  const file = value as SentFile;
  // A file field left empty arrives as a file of no bytes and no name.
  return !file.filename && file.bytes.length === 0 ? null : file;
}

/** Why the service refused a screenshot, worded for the field. */
function screenshotRefusal(err: ApiError): string {
  if (err.code === 'unsupported_media_type') {
    return 'This file is not a PNG, JPEG, WebP or HEIC image. Choose a screenshot, or send the form without one.';
  }
  if (err.code === 'file_too_large') return tooLarge();
  return `This image cannot be used (${err.message.replace(/^Screenshot: /, '')}). Choose another, or send the form without one.`;
}

function tooLarge(): string {
  return `The screenshot is larger than ${PROOF_MAX_BYTES / MIB} MiB. Choose a smaller image, or send the form without one.`;
}

/** When the next task is due: the first window of an account with posts waiting, else any. */
function nextDue(accounts: readonly WorkerAppAccount[]) {
  const byWindow = accounts
    .filter((a) => a.nextWindow !== null)
    .sort((a, b) => (a.nextWindow as string).localeCompare(b.nextWindow as string));
  const waiting = byWindow.find((a) => a.queueDepth > 0);
  const first = waiting ?? byWindow[0];
  return first
    ? { at: first.nextWindow as string, username: first.username, waiting: !!waiting }
    : null;
}

export function workerTaskPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const toTask = (req: FastifyRequest, reply: FastifyReply, taskId: string) =>
      redirect(req, reply, `${WORKER_BASE}/tasks/${encodeURIComponent(taskId)}`);
    const refused = async (
      req: FastifyRequest,
      reply: FastifyReply,
      worker: WorkerPrincipal,
      taskId: string,
      status: number,
      state: TaskFormState,
    ) => {
      const task = await getTask(ctx, worker, taskId);
      reply.code(status);
      return taskPage(ctx, req, reply, task, state);
    };
    const plain = (req: FastifyRequest, message: string) =>
      plainMessage(message, LABELS, formatsFor(sessionOf(req).worker.timezone, ctx.clock.now()));

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
      const [windows, accounts, posted, version] = await Promise.all([
        taskWindows(
          ctx,
          worker,
          result.data.map((t) => t.taskId),
        ),
        workerAppAccounts(ctx, worker),
        cursor ? Promise.resolve([]) : recentlyPostedTasks(ctx, worker),
        // The first page refreshes itself when this changes (notifications.pages.ts).
        cursor ? Promise.resolve(null) : taskListVersion(ctx, worker),
      ]);
      return workerPage(req, reply, ctx.clock.now(), 'tasks.eta', 'Your tasks', {
        tasks: result.data.map((t) => ({ ...t, window: windows.get(t.taskId) ?? null })),
        next: result.nextCursor
          ? `${WORKER_BASE}/tasks?cursor=${encodeURIComponent(result.nextCursor)}`
          : null,
        setup: accounts
          .filter((a) => a.status === 'pending_setup' || a.status === 'warming_up')
          .sort((a, b) => a.username.localeCompare(b.username)),
        due: nextDue(accounts),
        accounts: accounts.length,
        posted,
        done: takeScopedFlash(ctx, req, reply, WORKER_FLASH),
        version: version?.version ?? null,
      });
    });

    const taskRoute = { schema: { params: TaskParams } };
    app.get('/tasks/:taskId', taskRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const task = await getTask(ctx, worker, req.params.taskId);
      return taskPage(ctx, req, reply, task, null, takeScopedFlash(ctx, req, reply, WORKER_FLASH));
    });

    app.post('/tasks/:taskId/start', taskRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { taskId } = req.params;
      try {
        await claimTask(ctx, worker, taskId);
      } catch (err) {
        // Started twice on a poor connection, after its report landed: the page says where
        // the task stands.
        if (!(err instanceof ApiError) || err.code !== 'task_already_reported') throw err;
      }
      return toTask(req, reply, taskId);
    });

    const reportRoute = { schema: { params: TaskParams, body: ReportForm } };
    app.post('/tasks/:taskId/report', reportRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { taskId } = req.params;
      const { body } = req;
      const posted = body.outcome === 'posted';
      const values = { postUrl: (body.postUrl ?? '').trim(), reason: body.reason ?? '' };
      const input = posted
        ? { outcome: 'posted', postUrl: values.postUrl }
        : body.outcome === 'failed'
          ? { outcome: 'failed', reason: values.reason }
          : { outcome: body.outcome ?? '' };
      const errors: FieldErrors = {};
      const form = posted ? 'posted' : 'failed';
      if (!validResult(input)) {
        const err = validationError(validResult.errors);
        errors[fieldOf(err, ['postUrl', 'reason'])] = plain(req, err);
      }
      const shot = posted ? fileOf(body.screenshot) : null;
      if (shot?.truncated) errors.screenshot = tooLarge();
      if (Object.keys(errors).length > 0) {
        const status = errors.screenshot ? 413 : 400;
        return refused(req, reply, worker, taskId, status, { form, values, errors });
      }
      try {
        // A person may report straight from a task not yet started: the page claims it on
        // the worker's behalf first, as an API client claims before it reports.
        const task = await getTask(ctx, worker, taskId);
        if (task.state === 'released') await claimTask(ctx, worker, taskId);
        // The screenshot goes with the report, kept only if the report is: a refused URL
        // leaves no proof behind.
        const proof = shot
          ? { image: { contentType: shot.contentType, bytes: shot.bytes } }
          : undefined;
        await reportResult(ctx, worker, taskId, input as ResultInput, proof);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'task_not_found') throw err;
        if (isMediaRefusal(err)) errors.screenshot = screenshotRefusal(err);
        else errors[fieldOf(err.message, ['postUrl', 'reason'])] = plain(req, err.message);
        return refused(req, reply, worker, taskId, err.status, { form, values, errors });
      }
      setScopedFlash(ctx, req, reply, `Reported as ${input.outcome}. Thank you.`, WORKER_FLASH);
      return redirect(req, reply, `${WORKER_BASE}/tasks`);
    });

    const proofRoute = { schema: { params: TaskParams, body: ProofForm } };
    app.post('/tasks/:taskId/proof', proofRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { taskId } = req.params;
      const shot = fileOf(req.body.screenshot);
      const state = (error: string): TaskFormState => ({
        form: 'proof',
        values: {},
        errors: { screenshot: error },
      });
      if (!shot) return refused(req, reply, worker, taskId, 400, state('Choose a screenshot.'));
      if (shot.truncated) return refused(req, reply, worker, taskId, 413, state(tooLarge()));
      try {
        await attachTaskProof(ctx, worker, taskId, {
          contentType: shot.contentType,
          bytes: shot.bytes,
        });
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'task_not_found') throw err;
        const message = isMediaRefusal(err) ? screenshotRefusal(err) : plain(req, err.message);
        return refused(req, reply, worker, taskId, err.status, state(message));
      }
      setScopedFlash(ctx, req, reply, 'Screenshot saved.', WORKER_FLASH);
      return toTask(req, reply, taskId);
    });

    const figuresRoute = { schema: { params: TaskParams, body: FiguresForm } };
    app.post('/tasks/:taskId/figures', figuresRoute, async (req, reply) => {
      const { worker } = sessionOf(req);
      const { taskId } = req.params;
      const { body } = req;
      const values: Record<string, string> = { collectedAt: body.collectedAt ?? '' };
      const errors: FieldErrors = {};
      const input: Record<string, unknown> = {};
      for (const name of COUNTERS) {
        const text = body[name] ?? '';
        values[name] = text;
        const n = parseCount(text);
        if (text.trim() === '') errors[name] = `Enter the ${name} (0 if there are none).`;
        else if (n === null) errors[name] = `Type the ${name} as a whole number, like 12500.`;
        else input[name] = n;
      }
      if (values.collectedAt) input.collectedAt = values.collectedAt;
      if (Object.keys(errors).length === 0 && !validSnapshot(input)) {
        const err = validationError(validSnapshot.errors);
        errors[fieldOf(err, COUNTERS)] = plain(req, err);
      }
      const state = (): TaskFormState => ({ form: 'figures', values, errors });
      if (Object.keys(errors).length > 0) {
        return refused(req, reply, worker, taskId, 400, state());
      }
      try {
        await recordSnapshot(ctx.db, ctx.clock, worker, taskId, input as SnapshotInput);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'task_not_found') throw err;
        // The hidden time is no field to correct: its refusal is the form's.
        errors[fieldOf(err.message, COUNTERS)] = plain(req, err.message);
        return refused(req, reply, worker, taskId, err.status, state());
      }
      const f = formatsFor(worker.timezone, ctx.clock.now());
      setScopedFlash(
        ctx,
        req,
        reply,
        `Figures saved: ${f.num(input.views as number)} views.`,
        WORKER_FLASH,
      );
      return toTask(req, reply, taskId);
    });
  };
}

function isMediaRefusal(err: ApiError): boolean {
  return ['unsupported_media_type', 'file_too_large', 'invalid_media_specs'].includes(err.code);
}

/** The first refusal of a body validator, as the API words it ("/reason must not be blank"). */
function validationError(errors: ReturnType<typeof compileValidator>['errors']): string {
  return apiValidationError(errors ?? [], 'body').message;
}
