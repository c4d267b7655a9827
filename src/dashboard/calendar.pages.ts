// The calendar and queues (dashboard page 2): a week of posting slots per account in its
// worker's timezone, with what is planned, released, posted or failed in each, why an
// account gets nothing, and each waiting item's priority to change.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { changePriority } from '../modules/items/items.service.ts';
import { companyWeek } from '../modules/queue/calendar.service.ts';
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

/** "Tue 24 Nov" of a local date. */
function weekday(localDate: string): string {
  return DAY_FORMAT.format(new Date(`${localDate}T12:00:00Z`));
}

export function calendarPages(ctx: AppContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/calendar', async (req, reply) => {
      const user = userOf(req);
      const query = req.query as { account?: unknown };
      const only = typeof query.account === 'string' && query.account ? query.account : undefined;
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

    app.post<{ Params: { itemId: string } }>(
      '/items/:itemId/priority',
      { config: { role: 'editor' } },
      async (req, reply) => {
        const user = userOf(req);
        const body = (req.body ?? {}) as Record<string, unknown>;
        const raw = typeof body.priority === 'string' ? body.priority.trim() : '';
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
        const back =
          typeof body.account === 'string' && body.account
            ? `?account=${encodeURIComponent(body.account)}`
            : '';
        setFlash(ctx, req, reply, 'Priority changed');
        return redirect(req, reply, `${BASE}/calendar${back}`);
      },
    );
  };
}
