// Your settings (dashboard page, every signed-in user): the display timezone every page
// shows times in (time.ts): one the user picks from the IANA list, or the browser's (the
// zone dashboard.js keeps in a cookie, else UTC). A personal preference of the user only;
// beside it, admins find the way to the company's chat alerts (alerts.pages.ts).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { setUserTimezone } from '../../modules/users/index.ts';
import { validTimezone } from '../../schedule/local-time.ts';
import { setFlash, takeFlash } from './flash.ts';
import { fieldError, type FieldError } from './forms.ts';
import { page } from './layout.ts';
import { BASE, redirect, userOf } from './session.ts';
import { browserTimezone, clockface } from './time.ts';

/** The form as sent: an IANA name, or empty for the browser's timezone. */
const SettingsForm = Type.Object({ timezone: Type.Optional(Type.String()) });

/** Every IANA timezone the runtime knows, grouped by region for the select. */
const ZONE_GROUPS: { region: string; zones: string[] }[] = (() => {
  const zones = Intl.supportedValuesOf('timeZone');
  const groups = new Map<string, string[]>();
  for (const zone of zones.includes('UTC') ? zones : ['UTC', ...zones]) {
    const region = zone.includes('/') ? (zone.split('/')[0] as string) : 'Other';
    groups.set(region, [...(groups.get(region) ?? []), zone]);
  }
  return [...groups].map(([region, list]) => ({ region, zones: list }));
})();
const KNOWN = new Set(ZONE_GROUPS.flatMap((g) => g.zones));

export function settingsPages(ctx: AppContext) {
  function settingsPage(
    req: FastifyRequest,
    reply: FastifyReply,
    extra: { errors?: FieldError[]; chosen?: string } = {},
  ) {
    const me = userOf(req);
    const browser = browserTimezone(req);
    const own = me.timezone && validTimezone(me.timezone) ? me.timezone : null;
    const inForce = own ?? browser ?? 'UTC';
    const chosen = extra.chosen ?? own ?? '';
    return page(req, reply, 'settings.eta', 'Your settings', {
      groups: ZONE_GROUPS,
      // A zone the list does not hold (an older alias) stays selectable as it was chosen.
      extraZone: chosen && !KNOWN.has(chosen) && validTimezone(chosen) ? chosen : null,
      chosen,
      own,
      browser,
      inForce,
      inForceZone: clockface(inForce).zoneName(ctx.clock.now().toISOString()),
      now: ctx.clock.now().toISOString(),
      done: takeFlash(ctx, req, reply),
      errors: extra.errors ?? [],
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/settings', async (req, reply) => settingsPage(req, reply));

    app.post('/settings', { schema: { body: SettingsForm } }, async (req, reply) => {
      const me = userOf(req);
      const typed = (req.body.timezone ?? '').trim();
      if (typed !== '' && (typed.length > 64 || !validTimezone(typed))) {
        reply.code(400);
        return settingsPage(req, reply, {
          chosen: typed,
          errors: [
            fieldError(
              'timezone',
              `Display timezone: “${typed.slice(0, 64)}” is not a timezone this service knows; choose one from the list.`,
              'settings-timezone',
            ),
          ],
        });
      }
      await setUserTimezone(ctx.db, ctx.clock, me.userId, typed === '' ? null : typed);
      setFlash(
        ctx,
        req,
        reply,
        typed === ''
          ? 'Times now follow your browser’s timezone.'
          : `Times are now shown in ${typed}.`,
      );
      return redirect(req, reply, `${BASE}/settings`);
    });
  };
}
