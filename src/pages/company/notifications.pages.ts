// Your notifications (dashboard page, every signed-in user): which messages the user gets by
// mail and by push (approvals due, windows about to be missed, posts that failed or were not
// confirmed, accounts disconnected, the daily summary, which is off until turned on), and
// quiet hours in the user's timezone: the one chosen in Your settings, else the browser's,
// saved with the hours. Windows about to be missed come through quiet hours.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { preferencesOf, savePreferences } from '../../modules/notify/index.ts';
import { validTimezone } from '../../schedule/local-time.ts';
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

/** The zone quiet hours are read in: the user's chosen one, else the browser's, else UTC. */
function zoneOf(req: FastifyRequest): { zone: string; source: 'chosen' | 'browser' | 'none' } {
  const own = userOf(req).timezone;
  if (own && validTimezone(own)) return { zone: own, source: 'chosen' };
  const browser = browserTimezone(req);
  return browser ? { zone: browser, source: 'browser' } : { zone: 'UTC', source: 'none' };
}

export function notificationPages(ctx: AppContext) {
  async function prefsPage(
    req: FastifyRequest,
    reply: FastifyReply,
    refused?: { state: PrefsFormState; errors: FieldError[] },
  ) {
    const me = userOf(req);
    const saved = await preferencesOf(ctx.db, 'user', me.userId);
    const { zone, source } = zoneOf(req);
    const state = refused?.state ?? stateOf(saved, zone);
    return page(req, reply, 'notifications.eta', 'Your notifications', {
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
