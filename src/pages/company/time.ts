// Times on the dashboard's pages, in the display timezone of the person reading them: the
// one set on their user, else their browser's (dashboard.js keeps it in a cookie), else
// UTC. Every page gets a Clockface through layout.ts as `it.clock`.
import type { FastifyRequest } from 'fastify';
import { validTimezone } from '../../schedule/local-time.ts';

/** The cookie where dashboard.js keeps the browser's IANA timezone. */
export const BROWSER_TZ_COOKIE = 'slotline_tz';

export interface Clockface {
  /** The IANA name, e.g. "Europe/Berlin". */
  timezone: string;
  /** "27 Nov 2026, 14:05". */
  dateTime(iso: string): string;
  /** "27 Nov 2026". */
  date(iso: string): string;
  /** "14:05". */
  time(iso: string): string;
  /** The zone's short name at that instant ("CET", "GMT+1"), for labels. */
  zoneName(iso?: string): string;
  /** The local calendar date, "2026-11-27". */
  localDate(iso: string): string;
}

const faces = new Map<string, Clockface>();

function makeFace(timezone: string): Clockface {
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: timezone, ...options });
  const dateTime = format({
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const date = format({ day: 'numeric', month: 'short', year: 'numeric' });
  const time = format({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const zone = format({ timeZoneName: 'short' });
  const ymd = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return {
    timezone,
    dateTime: (iso) => dateTime.format(new Date(iso)),
    date: (iso) => date.format(new Date(iso)),
    time: (iso) => time.format(new Date(iso)),
    zoneName: (iso) =>
      zone.formatToParts(iso ? new Date(iso) : new Date()).find((p) => p.type === 'timeZoneName')
        ?.value ?? timezone,
    localDate: (iso) => ymd.format(new Date(iso)),
  };
}

/** The Clockface of an IANA timezone (UTC for a name the runtime does not know). */
export function clockface(timezone: string): Clockface {
  const name = validTimezone(timezone) ? timezone : 'UTC';
  let face = faces.get(name);
  if (!face) {
    if (faces.size >= 500) faces.clear();
    face = makeFace(name);
    faces.set(name, face);
  }
  return face;
}

/** The browser's timezone as dashboard.js keeps it in its cookie, or null (unknown, invalid). */
export function browserTimezone(req: FastifyRequest): string | null {
  const browser = req.cookies?.[BROWSER_TZ_COOKIE];
  return browser && browser.length <= 64 && validTimezone(browser) ? browser : null;
}

/** The display timezone of a request: the user's own, else the browser's, else UTC. */
export function displayTimezone(req: FastifyRequest): string {
  const own = req.dashboardUser?.timezone;
  if (own && validTimezone(own)) return own;
  return browserTimezone(req) ?? 'UTC';
}
