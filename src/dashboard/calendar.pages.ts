// The calendar and queues (dashboard page 2): a week of posting slots per account in its
// worker's timezone, with what is planned, released, posted or failed in each, why an
// account gets nothing, and each waiting item's priority to change.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { changePriority } from '../modules/items/index.ts';
import { companyWeek } from '../modules/queue/index.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { BASE, PageError, redirect, userOf, actorOf } from './session.ts';

// Formatters are costly to build and the page formats hundreds of dates: one per zone.
const timeFormats = new Map<string, Intl.DateTimeFormat>();
const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});

/** Local "HH:mm" of an instant in a timezone, for the item times shown. */
function localTime(iso: string, timezone: string): string {
  let format = timeFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timeFormats.set(timezone, format);
  }
  return format.format(new Date(iso));
}

// Any account id: one the company does not have answers "not found", whatever it looks like.
const CalendarQuery = Type.Object({ account: Type.Optional(Type.String()) });
const ItemParams = Type.Object({ itemId: Type.String() });
/** The priority field of an item, and the account the calendar showed (to return to it). */
const PriorityForm = Type.Object({
  priority: Type.Optional(Type.String()),
  account: Type.Optional(Type.String()),
});

/** "Tue 24 Nov" of a local date. */
function weekday(localDate: string): string {
  return DAY_FORMAT.format(new Date(`${localDate}T12:00:00Z`));
}

export function calendarPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/calendar', { schema: { querystring: CalendarQuery } }, async (req, reply) => {
      const user = userOf(req);
      const only = req.query.account;
      const weeks = await companyWeek(ctx, user.companyId, ctx.clock.now(), only);
      // Another company's account reads as an unknown one.
      if (only !== undefined && weeks.length === 0) throw new PageError(404, 'Not found.');
      return page(req, reply, 'calendar.eta', 'Calendar', {
        weeks,
        only: only ?? null,
        done: takeFlash(ctx, req, reply),
        canEdit: user.role !== 'viewer',
        localTime,
        weekday,
      });
    });

    app.post(
      '/items/:itemId/priority',
      { config: { role: 'editor' }, schema: { params: ItemParams, body: PriorityForm } },
      async (req, reply) => {
        const user = userOf(req);
        const { body } = req;
        const raw = body.priority?.trim() ?? '';
        const priority = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
        if (!Number.isSafeInteger(priority)) {
          throw new PageError(400, 'Priority must be a whole number of 0 or more.');
        }
        const result = await changePriority(
          ctx,
          user.companyId,
          req.params.itemId,
          priority,
          actorOf(user),
        );
        if (result === 'not_found') throw new PageError(404, 'Not found.');
        if (result === 'released') {
          throw new PageError(
            409,
            'This item was released already; its priority no longer matters.',
          );
        }
        const back = body.account ? `?account=${encodeURIComponent(body.account)}` : '';
        setFlash(ctx, req, reply, 'Priority changed');
        return redirect(req, reply, `${BASE}/calendar${back}`);
      },
    );
  };
}
