// The worker API's reports on a claimed task: its outcome, the proof screenshot and
// analytics snapshots of the post.
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { workerOf } from '../../http/worker-auth.ts';
import { errorResponses, ref } from '../../schemas/common.ts';
import { AnalyticsSnapshot } from '../analytics/index.ts';
import { PROOF_MAX_BYTES, proofTooLarge } from '../uploads/index.ts';
import { attachTaskProof, recordSnapshot, reportResult } from './task-reports.service.ts';
import {
  BODY_ERRORS,
  ResultBody,
  SnapshotBody,
  Task,
  TaskIdParams,
  WORKER_AUTH_ERRORS,
  WORKER_TAG,
} from './workers.schemas.ts';

const worker = { worker: true } as const;

export function workerReportRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/tasks/:taskId/result',
      {
        config: worker,
        schema: {
          operationId: 'reportWorkerTask',
          tags: [WORKER_TAG],
          summary: 'Report the outcome of a claimed task',
          description:
            '`posted` with `postUrl` (and `postedAt`, default now) or `failed` with a `reason`. ' +
            'Sending the same report again returns the task unchanged; a different outcome for a ' +
            'reported task is `task_already_reported`. A task that failed because its claim went ' +
            'unreported can still be reported `posted` by the worker that claimed it.',
          params: TaskIdParams,
          body: ResultBody,
          response: {
            200: ref(Task),
            ...errorResponses([
              ...WORKER_AUTH_ERRORS,
              ...BODY_ERRORS,
              'task_not_found',
              'task_not_claimed',
              'task_already_reported',
            ]),
          },
        },
      },
      async (req) => reportResult(ctx, workerOf(req), req.params.taskId, req.body),
    );

    // The proof screenshot: the image file itself is the body.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: PROOF_MAX_BYTES },
        (_req, body, done) => done(null, body),
      );
      // A body past the proof limit is a screenshot too large, not a JSON body past the
      // service's: the parent handler renders what this one throws.
      raw.setErrorHandler(async (err: FastifyError) => {
        if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw proofTooLarge();
        throw err;
      });
      raw.withTypeProvider<TypeBoxTypeProvider>().put(
        '/tasks/:taskId/proof',
        {
          config: worker,
          schema: {
            operationId: 'putWorkerTaskProof',
            tags: [WORKER_TAG],
            summary: "Send a screenshot as proof of the task's post",
            description:
              'The body is the image itself (PNG, JPEG, WebP or HEIC, at most 15 MiB and 8192 px ' +
              'a side), with its `Content-Type`; it is checked like any image upload and its ' +
              'pixels decoded whole, so a file cut short is `invalid_media_specs` (422) and a ' +
              'body past 15 MiB `file_too_large` (413). It is kept with the task; the company ' +
              'sees it in GET /v2/posts/{postId}/deliveries once the task is reported posted. ' +
              'The task must be claimed by this worker, before or after its `posted` report; a ' +
              'failed task takes none (`task_already_reported`). The same image again changes ' +
              'nothing; another one replaces it.',
            params: TaskIdParams,
            response: {
              200: ref(Task),
              ...errorResponses([
                ...WORKER_AUTH_ERRORS,
                // Past the proof limit the body is file_too_large, never request_too_large.
                'invalid_request',
                'unsupported_media_type',
                'file_too_large',
                'invalid_media_specs',
                'task_not_found',
                'task_not_claimed',
                'task_already_reported',
              ]),
            },
          },
        },
        async (req) =>
          attachTaskProof(ctx, workerOf(req), req.params.taskId, {
            contentType: req.headers['content-type'],
            bytes: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          }),
      );
    });

    app.post(
      '/tasks/:taskId/analytics',
      {
        config: worker,
        schema: {
          operationId: 'createWorkerTaskAnalytics',
          tags: [WORKER_TAG],
          summary: 'Add an analytics snapshot of a posted task',
          description:
            'The counters as read on the platform at `collectedAt` (default now; not in the ' +
            'future, not before the post). Each snapshot is kept; GET /v2/posts/{postId}/analytics ' +
            'sums the latest one of every account. Views only grow: fewer views than a snapshot ' +
            'of the same task counted earlier, or more than one counted later, is ' +
            '`invalid_request`. The same snapshot (time and figures) sent again is answered with ' +
            'the one stored, so a retry never counts twice.',
          params: TaskIdParams,
          body: SnapshotBody,
          response: {
            201: ref(AnalyticsSnapshot),
            ...errorResponses([
              ...WORKER_AUTH_ERRORS,
              ...BODY_ERRORS,
              'task_not_found',
              'task_not_posted',
            ]),
          },
        },
      },
      async (req, reply) => {
        const snapshot = await recordSnapshot(
          ctx.db,
          ctx.clock,
          workerOf(req),
          req.params.taskId,
          req.body,
        );
        return reply.status(201).send(snapshot);
      },
    );
  };
}
