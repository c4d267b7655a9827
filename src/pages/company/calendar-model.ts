// What the dashboard's posting calendar shows: the days of a period with their items, the
// accounts with why each gets nothing, and what a page asks for.
import type { CalendarView, CalendarPeriod } from './calendar-period.ts';

export interface CalendarEntry {
  queueItemId: string;
  postId: string;
  accountId: string;
  /** `queued` (planned), `posting` (released), `posted` or `failed`. */
  status: string;
  priority: number;
  caption: string;
  /** The planned slot start (queued) or the release (released since). */
  at: string;
  /** A queued item planned for a make-up slot (a missed window's second chance). */
  makeup: boolean;
  postUrl: string | null;
  error: string | null;
  mediaKind: string;
  /** Whether the post has a thumbnail yet (calendarThumbnail signs its address). */
  hasThumbnail: boolean;
}

/** A window of the one account shown that nothing is planned for yet. */
export interface FreeWindow {
  at: string;
  /** The window as configured ("HH:mm" in the account's timezone). */
  label: string;
}

export interface CalendarDay {
  localDate: string;
  /** The day's items in time order; at most `perDay` of them. */
  entries: CalendarEntry[];
  /** Items of the day after those listed. */
  more: number;
  /** Items of the day per status, all of them counted. */
  counts: Record<string, number>;
  /** Free windows, for one account only. */
  free: FreeWindow[];
}

export interface CalendarAccount {
  accountId: string;
  username: string;
  platform: string;
  timezone: string;
  status: string;
  workerName: string | null;
  postsToday: number;
  /** Items waiting for approval or for their media: they are not planned yet. */
  waiting: number;
  /** Why the account gets nothing now, or null. */
  blocked: string | null;
}

export interface CalendarInput {
  view: CalendarView;
  /** Any local date of the period to show. */
  date: string;
  /** The reader's timezone: the days and their items are laid out in it. */
  timezone: string;
  accountId?: string;
  /** Items listed per day, the rest only counted; every one when absent. */
  perDay?: number;
  /** Items of each day passed over before those listed (pages of a busy day). */
  skip?: number;
}

export interface CompanyCalendar {
  period: CalendarPeriod;
  timezone: string;
  /** Today in the reader's timezone. */
  today: string;
  days: CalendarDay[];
  /** Every account of the company, for names and for choosing one. */
  accounts: CalendarAccount[];
  /** The account shown alone, or null for all of them. */
  account: CalendarAccount | null;
  /** Items in the period. */
  total: number;
  /** Items of the accounts shown waiting for approval or media. */
  waiting: number;
}
