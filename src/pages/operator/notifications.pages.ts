// Your notifications (console page, every signed-in operator): which of the operator side's
// mail the operator gets (hand-offs nobody took, posts that failed, accounts disconnected),
// and quiet hours in a timezone the operator picks (operators have no other). Personal to
// the operator; the team's chat alerts are on the alerts page.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { preferencesOf, savePreferences } from '../../modules/notify/index.ts';
import { validTimezone } from '../../schedule/local-time.ts';
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
import { TIMEZONES } from './fields.ts';
import { consolePage } from './layout.ts';
import { OPERATOR_BASE, OPERATOR_FLASH, sessionOf } from './session.ts';

const HERE = `${OPERATOR_BASE}/notifications`;

export function notificationPages(ctx: AppContext) {
  async function prefsPage(
    req: FastifyRequest,
    reply: FastifyReply,
    refused?: { state: PrefsFormState; errors: FieldError[] },
  ) {
    const me = sessionOf(req);
    const saved = await preferencesOf(ctx.db, 'operator', me.operatorId);
    const state = refused?.state ?? stateOf(saved, 'UTC');
    return consolePage(req, reply, 'notifications.eta', 'Your notifications', {
      rows: prefsRows(saved.kinds, state.on),
      state,
      timezones: TIMEZONES,
      done: takeScopedFlash(ctx, req, reply, OPERATOR_FLASH),
      errors: refused?.errors ?? [],
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/notifications', async (req, reply) => prefsPage(req, reply));

    app.post('/notifications', { schema: { body: PrefsForm } }, async (req, reply) => {
      const me = sessionOf(req);
      const checked = readPrefs(req.body, { field: true, validZone: validTimezone });
      if (!checked.ok) {
        reply.code(400);
        return prefsPage(req, reply, checked);
      }
      await savePreferences(ctx.db, 'operator', me.operatorId, checked.input, ctx.clock.now());
      const said = savedMessage(checked.state, checked.state.timezone);
      setScopedFlash(ctx, req, reply, said, OPERATOR_FLASH);
      return redirect(req, reply, HERE);
    });
  };
}
