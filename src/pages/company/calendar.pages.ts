// The calendar (dashboard): a day, a week or a month of posts laid out in the reader's display
// timezone, for every account of the company or one of them; each item links to its post and
// says its status in a word, with the stylesheet's shape for it. A busy day lists its first
// items and links to the day with the rest. Editors change the priority of a queued item on
// one account's day.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { isSafeTarget } from '../kit/targets.ts';
import { changePriority } from '../../modules/items/index.ts';
import { calendarThumbnail, companyCalendar } from './calendar-read.ts';
import {
  CALENDAR_VIEWS,
  isCalendarDate,
  weekdayIndex,
  type CalendarView,
} from './calendar-period.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { BASE, redirect, userOf, actorOf } from './session.ts';
import { clockface, displayTimezone } from './time.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

// What a page lists is bounded, so that a page and its stylesheet and scripts stay a light
// first load (bench/dashboard.ts) whatever the company posts.
/** Items a month's day lists for all accounts; the rest are counted and one link away. */
export const MONTH_PER_DAY = 2;
/** Items a month's day lists for one account. */
export const MONTH_PER_DAY_ONE = 3;
/** Items a week's day lists for all accounts (one account's days list every item). */
export const WEEK_PER_DAY = 4;
/** Items a page of the day view lists. */
export const DAY_PAGE = 20;
/** Accounts the chooser lists in a menu; a company with more finds one by name. */
export const MENU_ACCOUNTS = 40;
/** Accounts a search by name lists. */
const FOUND_ACCOUNTS = 50;

// Any account id: one the company does not have answers "not found", whatever it looks like.
const CalendarQuery = Type.Object({
  view: Type.Optional(Type.String()),
  date: Type.Optional(Type.String()),
  account: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
  find: Type.Optional(Type.String({ maxLength: 200 })),
});
const ItemParams = Type.Object({ itemId: Type.String() });
/** How long a browser may keep a thumbnail's redirect: well within the signature's hour. */
const THUMBNAIL_CACHE = 'private, max-age=600';
/** The priority field of an item, and the calendar it was set from (to return to it). */
const PriorityForm = Type.Object({
  priority: Type.Optional(Type.String()),
  back: Type.Optional(Type.String()),
});

/** What the item statuses read as on the calendar. */
export const STATUS_LABELS: Readonly<Record<string, string>> = {
  queued: 'Planned',
  posting: 'Released',
  posted: 'Posted',
  failed: 'Failed',
};

const LONG_DAY = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const SHORT_DAY = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});
const MONTH = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long', year: 'numeric' });
const DAY_MONTH = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'long',
});

const noon = (localDate: string) => new Date(`${localDate}T12:00:00Z`);
/** "Monday 2 March 2026". */
const longDay = (localDate: string) => LONG_DAY.format(noon(localDate)).replace(',', '');
/** "Mon 2 Mar". */
const shortDay = (localDate: string) => SHORT_DAY.format(noon(localDate)).replace(',', '');
/** "Mon 2" (the month shows in the page's heading). */
const monthDay = (localDate: string) =>
  `${shortDay(localDate).split(' ')[0] as string} ${Number(localDate.slice(8))}`;

/** The heading of a period: a day, "2 – 8 March 2026", or "March 2026". */
function periodTitle(view: CalendarView, start: string, end: string): string {
  if (view === 'day') return longDay(start);
  if (view === 'month') return MONTH.format(noon(start));
  const last = new Date(Date.parse(`${end}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const lastText = `${DAY_MONTH.format(noon(last))} ${last.slice(0, 4)}`;
  if (start.slice(0, 7) === last.slice(0, 7)) return `${Number(start.slice(8))} – ${lastText}`;
  const first = DAY_MONTH.format(noon(start));
  return start.slice(0, 4) === last.slice(0, 4)
    ? `${first} – ${lastText}`
    : `${first} ${start.slice(0, 4)} – ${lastText}`;
}

interface Where {
  view: CalendarView;
  date?: string | undefined;
  account?: string | undefined;
  page?: number | undefined;
}

/** The calendar's address for a view, a date in it and an account (all accounts without). */
export function calendarUrl(where: Where): string {
  const params = new URLSearchParams();
  if (where.view !== 'week') params.set('view', where.view);
  if (where.date) params.set('date', where.date);
  if (where.account) params.set('account', where.account);
  if (where.page && where.page > 1) params.set('page', String(where.page));
  const qs = params.toString();
  return `${BASE}/calendar${qs ? `?${qs}` : ''}`;
}

function viewOf(raw: string | undefined): CalendarView {
  if (raw === undefined || raw === '') return 'week';
  if ((CALENDAR_VIEWS as readonly string[]).includes(raw)) return raw as CalendarView;
  throw new ActionRefused('invalid', 'The view must be day, week or month.');
}

function pageOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  if (!/^[1-9]\d{0,4}$/.test(raw))
    throw new ActionRefused('invalid', 'The page must be a number from 1.');
  return Number(raw);
}

/**
 * Where a priority form returns: a safe calendar address (pages/kit/targets.ts), nothing else.
 * Never one a Location refuses, so the answer cannot fail once the change is written.
 */
function backOf(raw: string | undefined): string {
  const calendar = `${BASE}/calendar`;
  return raw && isSafeTarget(raw, calendar) && !raw.startsWith(`${calendar}/`) ? raw : calendar;
}

export function calendarPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/calendar', { schema: { querystring: CalendarQuery } }, async (req, reply) => {
      const user = userOf(req);
      const view = viewOf(req.query.view);
      const date = req.query.date || undefined;
      if (date !== undefined && !isCalendarDate(date)) {
        throw new ActionRefused('invalid', 'The date must be a day written like 2026-03-02.');
      }
      const account = req.query.account || undefined;
      const pageNo = view === 'day' ? pageOf(req.query.page) : 1;
      const timezone = displayTimezone(req);
      const one = account !== undefined;
      const perDay =
        view === 'month'
          ? one
            ? MONTH_PER_DAY_ONE
            : MONTH_PER_DAY
          : view === 'day'
            ? DAY_PAGE
            : one
              ? undefined
              : WEEK_PER_DAY;
      const cal = await companyCalendar(ctx, user.companyId, {
        view,
        // The reader's today when no date is asked for.
        date: date ?? clockface(timezone).localDate(ctx.clock.now().toISOString()),
        timezone,
        ...(account !== undefined ? { accountId: account } : {}),
        ...(perDay !== undefined ? { perDay } : {}),
        ...(view === 'day' ? { skip: (pageNo - 1) * DAY_PAGE } : {}),
      });
      // Another company's account reads as an unknown one.
      if (cal === null) throw new ActionRefused('not_found', 'Not found.');
      // The day view pages through a busy day.
      const pages = view === 'day' ? Math.max(1, Math.ceil(cal.total / DAY_PAGE)) : 1;
      const { period } = cal;
      const here = (over: Partial<Where>) => calendarUrl({ view, date, account, ...over });
      const names = new Map(cal.accounts.map((a) => [a.accountId, a]));
      // Finding an account by name (companies with more accounts than the menu lists).
      const find = req.query.find?.trim().replace(/^@/, '').toLowerCase() ?? '';
      const found = find
        ? cal.accounts.filter((a) => a.username.toLowerCase().includes(find))
        : null;
      if (found?.length === 1 && found[0]) {
        return redirect(req, reply, calendarUrl({ view, date, account: found[0].accountId }));
      }
      return page(req, reply, 'calendar.eta', 'Calendar', {
        cal,
        view,
        one,
        pageNo,
        pages,
        first: (pageNo - 1) * DAY_PAGE + 1,
        heading: periodTitle(view, period.start, period.end),
        names,
        labels: STATUS_LABELS,
        done: takeFlash(ctx, req, reply),
        canEdit: user.role !== 'viewer',
        self: here({ page: pageNo }),
        urls: {
          previous: here({ date: period.previous, page: 1 }),
          next: here({ date: period.next, page: 1 }),
          today: calendarUrl({ view, account }),
          view: (v: CalendarView) => calendarUrl({ view: v, date, account }),
          day: (d: string) => calendarUrl({ view: 'day', date: d, account }),
          page: (n: number) => here({ page: n }),
          account: (id: string) => calendarUrl({ view, date, account: id }),
          all: calendarUrl({ view, date }),
        },
        menu: cal.accounts.length <= MENU_ACCOUNTS,
        find: req.query.find?.trim() ?? '',
        found: found?.slice(0, FOUND_ACCOUNTS) ?? null,
        foundMore: Math.max(0, (found?.length ?? 0) - FOUND_ACCOUNTS),
        // Monday-first offset of the month's first day, for the month grid.
        lead: view === 'month' ? weekdayIndex(period.start) : 0,
        longDay,
        shortDay,
        monthDay,
      });
    });

    // A listed item's thumbnail: the signed address of its post's, found by the item.
    app.get(
      '/calendar/thumbnails/:itemId',
      { schema: { params: ItemParams } },
      async (req, reply) => {
        const user = userOf(req);
        const url = await calendarThumbnail(ctx, user.companyId, req.params.itemId);
        if (url === null) throw new ActionRefused('not_found', 'Not found.');
        return reply.header('cache-control', THUMBNAIL_CACHE).redirect(url, 302);
      },
    );

    app.post(
      '/items/:itemId/priority',
      { config: { role: 'editor' }, schema: { params: ItemParams, body: PriorityForm } },
      async (req, reply) => {
        const user = userOf(req);
        const { body } = req;
        const raw = body.priority?.trim() ?? '';
        const priority = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
        if (!Number.isSafeInteger(priority)) {
          throw new ActionRefused('invalid', 'Priority must be a whole number of 0 or more.');
        }
        const result = await changePriority(
          ctx.db,
          ctx.clock,
          user.companyId,
          req.params.itemId,
          priority,
          actorOf(user),
        );
        if (result === 'not_found') throw new ActionRefused('not_found', 'Not found.');
        if (result === 'released') {
          throw new ActionRefused(
            'conflict',
            'This item was released already; its priority no longer matters.',
          );
        }
        setFlash(ctx, req, reply, 'Priority changed');
        return redirect(req, reply, backOf(body.back));
      },
    );
  };
}
