// Notifications in the workers' app: the service worker (served here so that its scope is
// the app), this phone's push subscription (made by the page's script from a button, never
// on load, and registered here as through PUT /worker/v1/push-subscription), the worker's
// devices with a way to remove each, a test push, which kinds of notification the worker
// gets and their quiet hours (in the worker's own timezone; reports about to be late come
// through them), and the version of the task list that the tasks page asks for to refresh
// itself without a tap.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { preferencesOf, savePreferences } from '../../modules/notify/index.ts';
import {
  RemoveBody,
  SubscriptionBody,
  devicesOf,
  queuePush,
  removeSubscription,
  saveSubscription,
  type PushDevice,
  type PushOwner,
} from '../../modules/push/index.ts';
import { taskListVersion } from '../../modules/workers/index.ts';
import { sourceFolder } from '../kit/assets.ts';
import { setScopedFlash, takeScopedFlash } from '../kit/flash.ts';
import type { FieldError } from '../kit/form-errors.ts';
import {
  PrefsForm,
  prefsRows,
  readPrefs,
  savedMessage,
  stateOf,
  type PrefsFormState,
} from '../kit/notify-prefs.ts';
import { redirect } from '../kit/session.ts';
import { WORKER_BASE, WORKER_FLASH, sessionOf, workerPage } from './layout.ts';

const SERVICE_WORKER = join(sourceFolder('pages/worker/assets'), 'worker-sw.js');
const PAGE = `${WORKER_BASE}/notifications`;

/** The browsers' push services, by the host of their endpoints. */
const SERVICES: readonly [RegExp, string][] = [
  [/(^|\.)fcm\.googleapis\.com$|(^|\.)android\.googleapis\.com$/, 'Chrome or Android'],
  [/(^|\.)push\.apple\.com$/, 'Safari on iPhone, iPad or Mac'],
  [/(^|\.)push\.services\.mozilla\.com$/, 'Firefox'],
  [/(^|\.)notify\.windows\.com$/, 'Edge on Windows'],
];

/** A device as a person knows it: the browser its push service belongs to. */
export function deviceLabel(endpoint: string): string {
  let host = '';
  try {
    host = new URL(endpoint).hostname;
  } catch {
    return 'A device';
  }
  return SERVICES.find(([pattern]) => pattern.test(host))?.[1] ?? `A device (${host})`;
}

const RemoveForm = Type.Object({ endpoint: Type.Optional(Type.String({ maxLength: 4096 })) });

function ownerOf(req: FastifyRequest): PushOwner {
  return { audience: 'worker', ownerId: sessionOf(req).worker.workerId, companyId: null };
}

export function workerNotificationPages(ctx: AppContext) {
  let script: Promise<Buffer> | undefined;
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    // The service worker needs no session: the browser fetches it again on its own.
    app.get('/sw.js', { config: { workerAnonymous: true } }, async (_req, reply) => {
      script ??= readFile(SERVICE_WORKER);
      return reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await script);
    });

    async function notificationsPage(
      req: FastifyRequest,
      reply: FastifyReply,
      refused?: { state: PrefsFormState; errors: FieldError[] },
    ) {
      const worker = sessionOf(req).worker;
      const devices = await devicesOf(ctx.db, ownerOf(req));
      const saved = await preferencesOf(ctx.db, 'worker', worker.workerId);
      const state = refused?.state ?? stateOf(saved, worker.timezone);
      return workerPage(req, reply, ctx.clock.now(), 'notifications.eta', 'Notifications', {
        publicKey: ctx.vapid.publicKey,
        pushPanel: true,
        devices: devices.map((d: PushDevice) => ({ ...d, label: deviceLabel(d.endpoint) })),
        done: takeScopedFlash(ctx, req, reply, WORKER_FLASH),
        prefs: { rows: prefsRows(saved.kinds, state.on), state, zone: worker.timezone },
        errors: refused?.errors ?? [],
      });
    }

    app.get('/notifications', async (req, reply) => notificationsPage(req, reply));

    app.post('/notifications/preferences', { schema: { body: PrefsForm } }, async (req, reply) => {
      const worker = sessionOf(req).worker;
      const checked = readPrefs(req.body, { own: worker.timezone });
      if (!checked.ok) {
        reply.code(400);
        return notificationsPage(req, reply, checked);
      }
      await savePreferences(ctx.db, 'worker', worker.workerId, checked.input, ctx.clock.now());
      setScopedFlash(ctx, req, reply, savedMessage(checked.state, worker.timezone), WORKER_FLASH);
      return redirect(req, reply, PAGE);
    });

    // The page's script sends this phone's subscription as JSON, with the CSRF header.
    app.put('/push-subscription', { schema: { body: SubscriptionBody } }, async (req, reply) => {
      const device = await saveSubscription(ctx.db, ctx.clock.now(), ownerOf(req), req.body);
      return reply.send({ endpoint: device.endpoint, label: deviceLabel(device.endpoint) });
    });

    app.delete('/push-subscription', { schema: { body: RemoveBody } }, async (req, reply) => {
      await removeSubscription(ctx.db, ownerOf(req), req.body.endpoint);
      return reply.code(204).send();
    });

    // The devices list's "Remove" buttons, a plain form.
    app.post('/notifications/remove', { schema: { body: RemoveForm } }, async (req, reply) => {
      const endpoint = req.body.endpoint ?? '';
      const removed = endpoint ? await removeSubscription(ctx.db, ownerOf(req), endpoint) : false;
      const said = removed
        ? `${deviceLabel(endpoint)} will no longer get notifications.`
        : 'That device was already removed.';
      setScopedFlash(ctx, req, reply, said, WORKER_FLASH);
      return redirect(req, reply, PAGE);
    });

    app.post('/notifications/test', async (req, reply) => {
      const now = ctx.clock.now();
      const sent = await queuePush(
        ctx.db,
        {
          audience: 'worker',
          ownerIds: [sessionOf(req).worker.workerId],
          companyId: null,
          kind: 'push_test',
          notice: {
            title: 'Slotline test',
            body: 'Notifications work on this device. Tap to open your tasks.',
            url: `${WORKER_BASE}/tasks`,
            tag: 'push-test',
          },
          dedupeKey: `push_test:${now.getTime()}`,
          ttlSeconds: 600,
        },
        now,
      );
      const said =
        sent === 0
          ? 'No device gets notifications yet: turn them on above first.'
          : `A test notification is on its way to ${sent === 1 ? 'your device' : `your ${sent} devices`}.`;
      setScopedFlash(ctx, req, reply, said, WORKER_FLASH);
      return redirect(req, reply, PAGE);
    });

    // The tasks page's light poll: a short token that changes with the open tasks.
    app.get('/tasks/version', async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return taskListVersion(ctx, sessionOf(req).worker);
    });
  };
}
