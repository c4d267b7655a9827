// The periods the dashboard's posting calendar shows: a day, a week (Monday first) or a
// month around a local date, and which strings are calendar dates.
import { dayNumberOf, localDateString } from '../../schedule/local-time.ts';
import { addDays } from '../../schedule/windows.ts';

export const CALENDAR_VIEWS = ['day', 'week', 'month'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

/** The days a view shows around a local date, and the dates its previous and next periods start. */
export interface CalendarPeriod {
  view: CalendarView;
  /** First local date shown. */
  start: string;
  /** The local date after the last one shown. */
  end: string;
  previous: string;
  next: string;
}

/** Monday = 0 ... Sunday = 6 of a local date. */
export function weekdayIndex(localDate: string): number {
  // 1970-01-01 (day 0) was a Thursday.
  return (((dayNumberOf(localDate) + 3) % 7) + 7) % 7;
}

function firstOfMonth(localDate: string, months: number): string {
  const [y, m] = localDate.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + months, 1));
  return d.toISOString().slice(0, 10);
}

/** The period of `view` that contains `localDate` (a valid "yyyy-MM-dd"). */
export function calendarPeriod(view: CalendarView, localDate: string): CalendarPeriod {
  if (view === 'day') {
    return {
      view,
      start: localDate,
      end: addDays(localDate, 1),
      previous: addDays(localDate, -1),
      next: addDays(localDate, 1),
    };
  }
  if (view === 'week') {
    const start = addDays(localDate, -weekdayIndex(localDate));
    return {
      view,
      start,
      end: addDays(start, 7),
      previous: addDays(start, -7),
      next: addDays(start, 7),
    };
  }
  const start = firstOfMonth(localDate, 0);
  const next = firstOfMonth(localDate, 1);
  return { view, start, end: next, previous: firstOfMonth(localDate, -1), next };
}

/** Whether a string is a calendar date "yyyy-MM-dd" between the years 2000 and 2199. */
export function isCalendarDate(value: string): boolean {
  if (!/^2[01]\d\d-\d\d-\d\d$/.test(value)) return false;
  try {
    return localDateString(dayNumberOf(value)) === value;
  } catch {
    return false;
  }
}
