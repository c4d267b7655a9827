// The worker API's push devices: a worker's phones (or an automation) register the Web
// Push subscription their browser made, and remove it; a worker may have several devices.
// Released tasks and reminders are then pushed to each of them.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { workerOf } from '../../http/worker-auth.ts';
import { errorResponses } from '../../schemas/common.ts';
import {
  PushDeviceOut,
  RemoveBody,
  SubscriptionBody,
  removeSubscription,
  saveSubscription,
} from '../push/index.ts';
import { BODY_ERRORS, WORKER_AUTH_ERRORS, WORKER_TAG } from './workers.schemas.ts';

const worker = { worker: true } as const;

export function workerPushRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.put(
      '/push-subscription',
      {
        config: worker,
        schema: {
          operationId: 'putWorkerPushSubscription',
          tags: [WORKER_TAG],
          summary: 'Register a device for pushes',
          description:
            'Keeps the Web Push subscription of one of the worker’s devices: each released ' +
            'task is pushed to it at once ("New task for @account, window 14:00, report by ' +
            '16:00"), and a reminder before a report is due. Registering the same endpoint ' +
            'again updates its keys; a worker may register several devices. A device the push ' +
            'service reports gone (404 or 410) is removed.',
          body: SubscriptionBody,
          response: {
            200: PushDeviceOut,
            ...errorResponses([...WORKER_AUTH_ERRORS, ...BODY_ERRORS]),
          },
        },
      },
      async (req) =>
        saveSubscription(
          ctx.db,
          ctx.clock.now(),
          { audience: 'worker', ownerId: workerOf(req).workerId, companyId: null },
          req.body,
        ),
    );

    app.delete(
      '/push-subscription',
      {
        config: worker,
        schema: {
          operationId: 'deleteWorkerPushSubscription',
          tags: [WORKER_TAG],
          summary: 'Remove a device from pushes',
          description:
            'Forgets the subscription of this endpoint (send the subscription’s JSON or only ' +
            'its `endpoint`). Removing one the worker does not have changes nothing.',
          body: RemoveBody,
          response: {
            204: Type.Null({ description: 'Removed, or never registered' }),
            ...errorResponses([...WORKER_AUTH_ERRORS, ...BODY_ERRORS]),
          },
        },
      },
      async (req, reply) => {
        await removeSubscription(
          ctx.db,
          { audience: 'worker', ownerId: workerOf(req).workerId, companyId: null },
          req.body.endpoint,
        );
        return reply.code(204).send(null);
      },
    );
  };
}
