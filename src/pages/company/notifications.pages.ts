// Your notifications (dashboard page, every signed-in user): which messages the user gets by
// mail and by push (approvals due, windows about to be missed, posts that failed or were not
// confirmed, accounts disconnected, the daily summary, which is off until turned on), and
// quiet hours in the user's timezone: the one chosen in Your settings, else the browser's,
// saved with the hours. Windows about to be missed come through quiet hours. Push reaches
// the devices the user turned it on for: the page's script subscribes this browser from a
// button (never on load) and registers it through PUT /dashboard/push-subscription with
// the session's CSRF token; the service worker is the workers' app's one, served here so
// that its scope is the dashboard.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { preferencesOf, savePreferences } from '../../modules/notify/index.ts';
import {
  RemoveBody,
  SubscriptionBody,
  devicesOf,
  removeSubscription,
  saveSubscription,
  type PushOwner,
} from '../../modules/push/index.ts';
import { validTimezone } from '../../schedule/local-time.ts';
import { sourceFolder } from '../kit/assets.ts';
import type { FieldError } from '../kit/form-errors.ts';
import {
  PrefsForm,
  prefsRows,
  readPrefs,
  savedMessage,
  stateOf,
  type PrefsFormState,
} from '../kit/notify-prefs.ts';
import { setFlash, takeFlash } from './flash.ts';
import { page } from './layout.ts';
import { BASE, redirect, userOf } from './session.ts';
import { browserTimezone } from './time.ts';

const HERE = `${BASE}/notifications`;
const SERVICE_WORKER = join(sourceFolder('pages/worker/assets'), 'worker-sw.js');

/** The user's devices: audience 'user', in the user's company. */
function ownerOf(req: FastifyRequest): PushOwner {
  const me = userOf(req);
  return { audience: 'user', ownerId: me.userId, companyId: me.companyId };
}

/** The zone quiet hours are read in: the user's chosen one, else the browser's, else UTC. */
function zoneOf(req: FastifyRequest): { zone: string; source: 'chosen' | 'browser' | 'none' } {
  const own = userOf(req).timezone;
  if (own && validTimezone(own)) return { zone: own, source: 'chosen' };
  const browser = browserTimezone(req);
  return browser ? { zone: browser, source: 'browser' } : { zone: 'UTC', source: 'none' };
}

export function notificationPages(ctx: AppContext) {
  let script: Promise<Buffer> | undefined;
  async function prefsPage(
    req: FastifyRequest,
    reply: FastifyReply,
    refused?: { state: PrefsFormState; errors: FieldError[] },
  ) {
    const me = userOf(req);
    const saved = await preferencesOf(ctx.db, 'user', me.userId);
    const { zone, source } = zoneOf(req);
    const state = refused?.state ?? stateOf(saved, zone);
    const devices = await devicesOf(ctx.db, ownerOf(req));
    return page(req, reply, 'notifications.eta', 'Your notifications', {
      publicKey: ctx.vapid.publicKey,
      pushPanel: true,
      devices: devices.length,
      rows: prefsRows(saved.kinds, state.on),
      state,
      zone,
      zoneSource: source,
      done: takeFlash(ctx, req, reply),
      errors: refused?.errors ?? [],
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/notifications', async (req, reply) => prefsPage(req, reply));

    // The service worker needs no session: the browser fetches it again on its own.
    app.get('/sw.js', { config: { anonymous: true } }, async (_req, reply) => {
      script ??= readFile(SERVICE_WORKER);
      return reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await script);
    });

    // The page's script sends this browser's subscription as JSON, with the CSRF header.
    app.put('/push-subscription', { schema: { body: SubscriptionBody } }, async (req, reply) => {
      const device = await saveSubscription(ctx.db, ctx.clock.now(), ownerOf(req), req.body);
      const count = (await devicesOf(ctx.db, ownerOf(req))).length;
      return reply.send({ endpoint: device.endpoint, devices: count });
    });

    app.delete('/push-subscription', { schema: { body: RemoveBody } }, async (req, reply) => {
      await removeSubscription(ctx.db, ownerOf(req), req.body.endpoint);
      return reply.code(204).send();
    });

    app.post('/notifications', { schema: { body: PrefsForm } }, async (req, reply) => {
      const me = userOf(req);
      const { zone } = zoneOf(req);
      const checked = readPrefs(req.body, { own: zone });
      if (!checked.ok) {
        reply.code(400);
        return prefsPage(req, reply, checked);
      }
      await savePreferences(ctx.db, 'user', me.userId, checked.input, ctx.clock.now());
      setFlash(ctx, req, reply, savedMessage(checked.state, zone));
      return redirect(req, reply, HERE);
    });
  };
}
