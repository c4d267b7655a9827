// The posting calendar (dashboard): the items of a day, a week (Monday first) or a month laid
// out by the days of the reader's timezone, for every account of a company or one of them.
// Queued items sit at their planned slot start (SPEC 2.6 scheduledSlotStart), released ones
// (posting, posted, failed) at their release; each account says why it gets nothing
// (DECISIONS 5 and 7) and which worker operates it. Read in a few queries for a whole
// company whatever the period holds: releases are counted per minute, and only the items a
// day lists are read with their posts, their thumbnails signed. What is read and planned is
// kept while the data is unchanged.
import type { AppContext } from '../../context.ts';
import type { AccountsTable } from '../../db/types.ts';
import { VersionedMemo } from '../../db/versioned-memo.ts';
import {
  effectiveSchedule,
  MAX_POSTS_PER_DAY,
  parseStoredWindows,
} from '../../schedule/schedule-rules.ts';
import { dayNumberOf, localDateString } from '../../schedule/local-time.ts';
import {
  addDays,
  daySlots,
  effectiveReadyAt,
  localDateOf,
  localDayBounds,
  planSlots,
  postsToday,
  type QueueEntry,
} from '../../schedule/windows.ts';
import { notPlannedReason, listCompanyAccounts } from '../accounts/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import {
  calendarDetails,
  calendarQueued,
  calendarReleased,
  calendarReleasedPerMinute,
  calendarWaiting,
  type CalendarDetailRow,
  type CalendarOpenRow,
  type CalendarReleasedRow,
} from '../items/index.ts';
import { postThumbnailUrl, readyThumbnails } from '../posts/index.ts';
import { listWorkers } from '../workers/index.ts';

export const CALENDAR_VIEWS = ['day', 'week', 'month'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

const DAY_MS = 86_400_000;

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

function entry(row: {
  id: string;
  priority?: number;
  queued_at: string;
  approved_at: string | null;
  scheduled_after?: string | null;
}): QueueEntry {
  return {
    id: row.id,
    priority: row.priority ?? 0,
    queuedAt: Date.parse(row.queued_at),
    readyAt: Date.parse(row.approved_at ?? row.queued_at),
    scheduledAfter:
      row.scheduled_after === null || row.scheduled_after === undefined
        ? null
        : Date.parse(row.scheduled_after),
  };
}

function blockedReason(account: AccountsTable, today: number): string | null {
  const status = notPlannedReason(account.status);
  if (status === 'account_paused') return 'paused by the company';
  if (status === 'account_disconnected') return 'disconnected: its worker lost access';
  if (status === 'account_pending_setup') return 'waiting for its worker to set it up';
  if (today >= MAX_POSTS_PER_DAY) return `daily cap of ${MAX_POSTS_PER_DAY} reached today`;
  return null;
}

/** An item placed on a day: when, whose, and whether it was planned for a make-up slot. */
interface Placed {
  id: string;
  accountId: string;
  status: string;
  at: number;
  makeup: boolean;
}

/** The signed address of an item's post thumbnail, or null while it has none. */
function thumbnailOf(ctx: AppContext, r: CalendarDetailRow, ready: Set<string>): string | null {
  return postThumbnailUrl(
    ctx,
    {
      id: r.post_id,
      carousel: Boolean(r.carousel),
      thumbnail_key: r.thumbnail_key,
      thumbnail_upload_id: r.thumbnail_upload_id,
    },
    r.thumbnail_upload_id !== null && ready.has(r.thumbnail_upload_id),
  );
}

/**
 * The signed thumbnail address of the post of one of the company's items, or null (no such
 * item of the company, or no thumbnail yet). Pages link to it by the item, in a few bytes,
 * rather than carry a long signed address per item.
 */
export async function calendarThumbnail(
  ctx: AppContext,
  companyId: string,
  itemId: string,
): Promise<string | null> {
  const [row] = await calendarDetails(ctx.db, companyId, [itemId]);
  if (!row) return null;
  return thumbnailOf(ctx, row, await readyThumbnails(ctx, [row]));
}

/** Time order; items of the same instant by id (the order the reads page them in). */
const byTime = (a: Placed, b: Placed) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

// When a local day starts depends on nothing but the date and the zone: worked out once.
const dayStarts = new Map<string, number>();

/** The first instant of a local date in a timezone, in epoch milliseconds. */
function dayStart(localDate: string, timezone: string): number {
  const key = `${timezone}|${localDate}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    if (dayStarts.size >= 10_000) dayStarts.clear();
    start = localDayBounds(localDate, timezone).start.getTime();
    dayStarts.set(key, start);
  }
  return start;
}

/** The index of the day of `bounds` (ascending day starts, then the end) holding `ts`, or -1. */
function dayIndex(bounds: readonly number[], ts: number): number {
  if (ts < (bounds[0] as number) || ts >= (bounds[bounds.length - 1] as number)) return -1;
  let lo = 0;
  let hi = bounds.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((bounds[mid] as number) <= ts) lo = mid;
    else hi = mid;
  }
  return lo;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Adjacent or overlapping [from, to) ranges joined. */
function joined(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const r of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** One account as planned at a minute: its facts, and its queued items' planned slots. */
interface AccountPlan {
  summary: CalendarAccount;
  timezone: string;
  windows: readonly string[];
  /** Planned slot starts of its queued items (none for an account that gets nothing). */
  planned: { id: string; at: number; makeup: boolean }[];
}

interface CompanyPlan {
  accounts: AccountPlan[];
  /** The minute planned at. */
  now: number;
}

const MB = 1024 * 1024;
/**
 * What the calendar reads and works out, kept while the company's data is unchanged (the
 * database's data version); the plan also only within its minute, as slots start on whole
 * minutes. Pages of every period and timezone share them. Both stores are bounded by an
 * estimate of their size and emptied when full.
 */
const reads = new VersionedMemo<unknown>({
  maxEntries: 256,
  maxBytes: 32 * MB,
  sizeOf: (v) => (Array.isArray(v) ? v.length * 200 : v instanceof Map ? v.size * 80 : 1024),
});
const plans = new VersionedMemo<CompanyPlan>({
  maxEntries: 64,
  maxBytes: 32 * MB,
  sizeOf: (p) => p.accounts.reduce((n, a) => n + 500 + a.planned.length * 100, 0),
});

function keep<V>(ctx: AppContext, key: string, read: () => Promise<V>): Promise<V> {
  return reads.get(ctx.db, key, read) as Promise<V>;
}

/** Every account of the company (or the one) with its facts and plan at the current minute. */
function companyPlan(
  ctx: AppContext,
  companyId: string,
  only: string | undefined,
): Promise<CompanyPlan> {
  const minute = Math.floor(ctx.clock.now().getTime() / 60_000) * 60_000;
  return plans.get(ctx.db, `${companyId}|${only ?? ''}|${minute}`, () =>
    planAt(ctx, companyId, only, new Date(minute)),
  );
}

async function planAt(
  ctx: AppContext,
  companyId: string,
  only: string | undefined,
  now: Date,
): Promise<CompanyPlan> {
  const nowMs = now.getTime();
  // Every timezone's today lies within a day either side of now: the releases of the two
  // days either side of this hour, read again when the data changes or the hour does.
  const hour = Math.floor(nowMs / 3_600_000) * 3_600_000;
  const recentRange: [string, string] = [iso(hour - 2 * DAY_MS), iso(hour + 2 * DAY_MS)];
  const scope = `${companyId}|${only ?? ''}`;
  const [accounts, company, workers, open, pendingOf, recent] = await Promise.all([
    listCompanyAccounts(ctx.db, companyId),
    getCompanyRow(ctx.db, companyId),
    listWorkers(ctx.db),
    keep(ctx, `queued|${scope}`, () => calendarQueued(ctx.db, companyId, only)),
    keep(ctx, `waiting|${scope}`, () => calendarWaiting(ctx.db, companyId, only)),
    keep(ctx, `recent|${scope}|${hour}`, () =>
      calendarReleased(ctx.db, companyId, [recentRange], only),
    ),
  ]);
  const workerName = new Map(workers.map((w) => [w.workerId, w.name]));
  const openOf = new Map<string, CalendarOpenRow[]>();
  for (const r of open) {
    const list = openOf.get(r.account_id);
    if (list) list.push(r);
    else openOf.set(r.account_id, [r]);
  }
  const recentOf = new Map<string, CalendarReleasedRow[]>();
  for (const r of recent) {
    const list = recentOf.get(r.account_id);
    if (list) list.push(r);
    else recentOf.set(r.account_id, [r]);
  }
  const companyWindows = parseStoredWindows(company?.schedule_windows ?? null);
  // Accounts mostly share a few timezones: each one's today is worked out once.
  const todays = new Map<string, { start: Date; end: Date }>();
  const plans: AccountPlan[] = [];
  for (const account of accounts) {
    const shown = only === undefined || only === account.id;
    const accountTz = account.timezone;
    let todayBounds = todays.get(accountTz);
    if (!todayBounds) {
      todayBounds = localDayBounds(localDateOf(now, accountTz), accountTz);
      todays.set(accountTz, todayBounds);
    }
    const { start, end } = todayBounds;
    const releasedToday = (recentOf.get(account.id) ?? [])
      .map((r) => ({ row: r, at: Date.parse(r.released_at) }))
      .filter((r) => r.at >= start.getTime() && r.at < end.getTime());
    const count = postsToday(
      releasedToday.map((r) => r.at),
      accountTz,
      now,
    );
    const blocked = blockedReason(account, count);
    const { windows } = effectiveSchedule(
      parseStoredWindows(account.schedule_windows),
      companyWindows,
    );
    const plan: AccountPlan = {
      summary: {
        accountId: account.id,
        username: account.username,
        platform: account.platform,
        timezone: accountTz,
        status: account.status,
        workerName: account.worker_id ? (workerName.get(account.worker_id) ?? null) : null,
        postsToday: count,
        waiting: pendingOf.get(account.id) ?? 0,
        blocked,
      },
      timezone: accountTz,
      windows,
      planned: [],
    };
    plans.push(plan);
    const queued = openOf.get(account.id) ?? [];
    // Nothing is planned for an account that gets nothing (a daily cap only moves it on).
    if (!shown || queued.length === 0) continue;
    if (blocked !== null && !blocked.startsWith('daily cap')) continue;
    const releases = releasedToday.map((r) => ({
      at: r.at,
      readyAt: effectiveReadyAt(entry(r.row)),
    }));
    for (const p of planSlots(queued.map(entry), windows, accountTz, now, releases)) {
      plan.planned.push({
        id: p.id,
        at: p.scheduledSlotStart.getTime(),
        makeup: p.kind === 'makeup',
      });
    }
  }
  return { accounts: plans, now: nowMs };
}

/**
 * The company's calendar for a period, or null when `accountId` names no account of the
 * company (another company's account reads as an unknown one). Releases of the period are
 * counted per minute; only those a day lists are read one by one, with their posts.
 */
export async function companyCalendar(
  ctx: AppContext,
  companyId: string,
  input: CalendarInput,
): Promise<CompanyCalendar | null> {
  const tz = input.timezone;
  const only = input.accountId;
  const period = calendarPeriod(input.view, input.date);
  const dates: string[] = [];
  for (let d = period.start; d < period.end; d = addDays(d, 1)) dates.push(d);
  const bounds = [...dates, period.end].map((d) => dayStart(d, tz));
  const from = bounds[0] as number;
  const to = bounds[bounds.length - 1] as number;

  const [plan, perMinute] = await Promise.all([
    companyPlan(ctx, companyId, only),
    keep(ctx, `minutes|${companyId}|${only ?? ''}|${from}|${to}`, () =>
      calendarReleasedPerMinute(ctx.db, companyId, iso(from), iso(to), only),
    ),
  ]);
  if (only !== undefined && !plan.accounts.some((a) => a.summary.accountId === only)) {
    return null;
  }
  const nowMs = plan.now;
  const planned: Placed[][] = dates.map(() => []);
  const free: FreeWindow[][] = dates.map(() => []);
  let waiting = 0;
  for (const a of plan.accounts) {
    const accountId = a.summary.accountId;
    if (only !== undefined && only !== accountId) continue;
    waiting += a.summary.waiting;
    const taken = new Set<number>();
    for (const p of a.planned) {
      taken.add(p.at);
      planned[dayIndex(bounds, p.at)]?.push({
        id: p.id,
        accountId,
        status: 'queued',
        at: p.at,
        makeup: p.makeup,
      });
    }
    const blocked = a.summary.blocked;
    if (only === undefined || to <= nowMs) continue;
    if (blocked !== null && !blocked.startsWith('daily cap')) continue;
    // The one account's windows still open to a post, in the period.
    const last = localDateOf(to - 1, a.timezone);
    for (let d = localDateOf(Math.max(from, nowMs), a.timezone); d <= last; d = addDays(d, 1)) {
      for (const s of daySlots(a.windows, a.timezone, d)) {
        const at = s.start.getTime();
        if (s.kind !== 'window' || at <= nowMs || taken.has(at)) continue;
        const i = dayIndex(bounds, at);
        if (i >= 0) free[i]?.push({ at: s.start.toISOString(), label: s.label });
      }
    }
  }
  const summaries = plan.accounts.map((a) => a.summary);

  // Releases per day from their counts per minute; a day's listed releases lie at or before
  // the minute its count reaches the items listed (those planned only push them later), and
  // are among the first that many of their minute.
  const limit = input.perDay ?? Number.POSITIVE_INFINITY;
  const skip = input.skip ?? 0;
  const need = skip + limit;
  const counts: Record<string, number>[] = dates.map(() => ({}));
  const minutes: { at: number; n: number }[][] = dates.map(() => []);
  for (const m of perMinute) {
    const at = Date.parse(`${m.minute}:00.000Z`);
    const i = dayIndex(bounds, at);
    if (i < 0) continue;
    const c = counts[i] as Record<string, number>;
    c[m.status] = (c[m.status] ?? 0) + m.n;
    minutes[i]?.push({ at, n: m.n });
  }
  const wanted: [number, number][] = [];
  minutes.forEach((list, i) => {
    if (list.length === 0) return;
    list.sort((a, b) => a.at - b.at);
    let sum = 0;
    let until = bounds[i + 1] as number;
    for (const m of list) {
      sum += m.n;
      if (sum >= need) {
        until = Math.min(until, m.at + 60_000);
        break;
      }
    }
    wanted.push([bounds[i] as number, until]);
  });
  const released =
    wanted.length === 0
      ? []
      : await calendarReleased(
          ctx.db,
          companyId,
          joined(wanted).map(([a, b]) => [iso(a), iso(b)] as const),
          only,
          Number.isFinite(need) ? need : undefined,
        );
  const placed: Placed[][] = planned.map((list) => [...list]);
  for (const r of released) {
    const at = Date.parse(r.released_at);
    placed[dayIndex(bounds, at)]?.push({
      id: r.id,
      accountId: r.account_id,
      status: r.status,
      at,
      makeup: false,
    });
  }

  let total = 0;
  const shape = placed.map((list, i) => {
    list.sort(byTime);
    const c = counts[i] as Record<string, number>;
    const plannedHere = planned[i]?.length ?? 0;
    if (plannedHere > 0) c.queued = plannedHere;
    let all = 0;
    for (const n of Object.values(c)) all += n;
    total += all;
    const listed = list.slice(skip, skip + limit);
    return { listed, more: Math.max(0, all - skip - listed.length), counts: c };
  });
  const kept = shape.flatMap((d) => d.listed);
  const details = new Map(
    (
      await calendarDetails(
        ctx.db,
        companyId,
        kept.map((p) => p.id),
      )
    ).map((r) => [r.id, r]),
  );
  const ready = await readyThumbnails(ctx, [...details.values()]);
  const toEntry = (p: Placed): CalendarEntry | null => {
    const r = details.get(p.id);
    if (!r) return null;
    const thumbnailUrl = thumbnailOf(ctx, r, ready);
    return {
      queueItemId: p.id,
      postId: r.post_id,
      accountId: p.accountId,
      status: p.status,
      priority: r.priority,
      caption: r.caption ?? '',
      at: iso(p.at),
      makeup: p.makeup,
      postUrl: r.post_url,
      error: p.status === 'failed' ? r.failure_reason : null,
      mediaKind: r.carousel ? 'carousel' : r.media_kind,
      hasThumbnail: thumbnailUrl !== null,
    };
  };
  const days: CalendarDay[] = shape.map((d, i) => ({
    localDate: dates[i] as string,
    entries: d.listed.map(toEntry).filter((e): e is CalendarEntry => e !== null),
    more: d.more,
    counts: d.counts,
    free: free[i] ?? [],
  }));
  summaries.sort(
    (a, b) =>
      (a.username < b.username ? -1 : a.username > b.username ? 1 : 0) ||
      (a.platform < b.platform ? -1 : a.platform > b.platform ? 1 : 0),
  );
  return {
    period,
    timezone: tz,
    today: localDateOf(ctx.clock.now(), tz),
    days,
    accounts: summaries,
    account: summaries.find((a) => a.accountId === only) ?? null,
    total,
    waiting,
  };
}
