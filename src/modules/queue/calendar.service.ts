// The posting calendar (dashboard): the items of a day, a week (Monday first) or a month laid
// out by the days of the reader's timezone, for every account of a company or one of them.
// Queued items sit at their planned slot start (SPEC 2.6 scheduledSlotStart), released ones
// (posting, posted, failed) at their release; each account says why it gets nothing
// (DECISIONS 5 and 7) and which worker operates it. Read in a few queries for a whole
// company whatever the period holds: queued items one text per account, releases counted per
// day, and only the items a day lists are read with their posts, their thumbnails signed.
// What is read and planned is kept while the data is unchanged; after a write, each
// account's plan is kept while what it was planned from is (most writes change one account).
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
  calendarReleasedCounts,
  calendarReleasedToday,
  calendarWaiting,
  type CalendarDetailRow,
  type CalendarOpenRow,
  type CalendarTodayRow,
} from '../items/index.ts';
import { postThumbnailUrl, readyThumbnails } from '../posts/index.ts';
import { listWorkers } from '../workers/index.ts';

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

/** A queued item as the planner takes it, from its planning fields in one text. */
function queueEntry(item: string): QueueEntry {
  const [id, priority, queuedAt, approvedAt, scheduledAfter] = item.split(' ') as [
    string,
    string,
    string,
    string,
    string,
  ];
  const queued = Date.parse(queuedAt);
  return {
    id,
    priority: Number(priority),
    queuedAt: queued,
    readyAt: approvedAt ? Date.parse(approvedAt) : queued,
    scheduledAfter: scheduledAfter ? Date.parse(scheduledAfter) : null,
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

/** An item placed on a day: when, whose, and whether it was planned for a make-up slot. */
interface Placed {
  id: string;
  accountId: string;
  status: string;
  at: number;
  makeup: boolean;
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

/** The first index of the ascending `list` whose value is at or after `ts`. */
function firstAtOrAfter(list: Float64Array, ts: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as number) < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A queued item's planned slot. */
interface PlannedSlot extends Placed {
  status: 'queued';
}

/** One account as planned at a minute: its facts, and its queued items' planned slots. */
interface AccountPlan {
  summary: CalendarAccount;
  timezone: string;
  windows: readonly string[];
  /** Planned slots of its queued items in time order (none for an account that gets nothing). */
  planned: readonly PlannedSlot[];
}

interface CompanyPlan {
  accounts: AccountPlan[];
  /** The summaries of `accounts` by username, then platform. */
  sorted: CalendarAccount[];
  /** Every planned slot of the accounts, in time order (then id). */
  slots: PlannedSlot[];
  /** Their instants, for finding a day's slots by bisection. */
  ats: Float64Array;
  /** The minute planned at. */
  now: number;
}

const MB = 1024 * 1024;

/** A map bounded by an estimate of the size of what it holds: emptied when that passes. */
class SizedStore<V> {
  private readonly map = new Map<string, { value: V; size: number }>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    const old = this.map.get(key);
    if (old) this.bytes -= old.size;
    if (this.bytes + size > this.maxBytes) {
      this.map.clear();
      this.bytes = 0;
    }
    this.map.set(key, { value, size });
    this.bytes += size;
  }
}

/**
 * What the calendar reads and works out, kept while the company's data is unchanged (the
 * database's data version); the plan also only within its minute, as slots start on whole
 * minutes. Pages of every period and timezone share them. Both stores are bounded by an
 * estimate of their size and emptied when full.
 */
const reads = new VersionedMemo<unknown>({
  maxEntries: 256,
  maxBytes: 32 * MB,
  sizeOf: (v) =>
    Array.isArray(v)
      ? v.reduce<number>(
          (n, r) => n + 200 + ((r as Partial<CalendarOpenRow>).items?.length ?? 0),
          0,
        )
      : v instanceof Map
        ? v.size * 80
        : 1024,
});
const plans = new VersionedMemo<CompanyPlan>({
  maxEntries: 64,
  maxBytes: 32 * MB,
  sizeOf: (p) => p.accounts.length * 500 + p.slots.length * 100,
});

function keep<V>(ctx: AppContext, key: string, read: () => Promise<V>): Promise<V> {
  return reads.get(ctx.db, key, read) as Promise<V>;
}

/**
 * Each account's last plan with what it was worked out from: any write moves the data
 * version and so misses the stores above, but most writes change the queue of one account
 * at most, and a new minute changes no plan unless a slot started in it. So the planner runs
 * again only for an account whose inputs differ: its queued items, its releases of today,
 * its windows and timezone, and the slot open at the time planned at. The planner places
 * items at slot starts from the slot open at `now` on (schedule/windows.ts, decisions 3, 4
 * and 10), so the moment within that slot changes nothing. The inputs are compared whole,
 * so a plan kept is the plan the planner would give; the store is bounded like those above.
 */
interface KeptPlan {
  /** The timezone, the windows and the slot open when planned (slotPeriod). */
  basis: string;
  /** The queued items' planning fields (CalendarOpenRow.items), and as the planner takes them. */
  items: string;
  queue: QueueEntry[];
  /** Today's releases: each one's instant and readiness, in release order. */
  releases: string[];
  planned: PlannedSlot[];
}
const keptPlans = new SizedStore<KeptPlan>(
  32 * MB,
  (k) =>
    500 + k.items.length + k.queue.length * 80 + k.releases.length * 30 + k.planned.length * 100,
);

function sameReleases(kept: readonly string[], releases: readonly CalendarTodayRow[]): boolean {
  if (kept.length !== 2 * releases.length) return false;
  for (const [i, r] of releases.entries()) {
    if (kept[2 * i] !== r.released_at || kept[2 * i + 1] !== r.ready_at) return false;
  }
  return true;
}

/**
 * Where `now` falls in a day of these windows and timezone: the start of the slot open at
 * it, or its local date before the day's first slot opens.
 */
function slotPeriod(windows: readonly string[], timezone: string, now: Date): string {
  const localDate = localDateOf(now, timezone);
  let open = localDate;
  for (const s of daySlots(windows, timezone, localDate)) {
    if (s.start.getTime() <= now.getTime()) open = s.start.toISOString();
  }
  return `${timezone}|${windows.join(',')}|${open}`;
}

/**
 * The planned slots of one account's queued `items` at `now`, after today's `releases`: the
 * plan kept for it when nothing it depends on changed, else a new one.
 */
function planAccount(
  accountId: string,
  basis: string,
  windows: readonly string[],
  timezone: string,
  now: Date,
  items: string,
  releases: readonly CalendarTodayRow[],
): PlannedSlot[] {
  const kept = keptPlans.get(accountId);
  if (
    kept &&
    kept.basis === basis &&
    kept.items === items &&
    sameReleases(kept.releases, releases)
  ) {
    return kept.planned;
  }
  const released: string[] = [];
  const done = releases.map((r) => {
    released.push(r.released_at, r.ready_at);
    return { at: Date.parse(r.released_at), readyAt: Date.parse(r.ready_at) };
  });
  // A new slot or other windows plan the same items again: they are read once.
  const queue = kept?.items === items ? kept.queue : items.split(',').map(queueEntry);
  const planned: PlannedSlot[] = planSlots(queue, windows, timezone, now, done).map((p) => ({
    id: p.id,
    accountId,
    status: 'queued',
    at: p.scheduledSlotStart.getTime(),
    makeup: p.kind === 'makeup',
  }));
  keptPlans.set(accountId, { basis, items, queue, releases: released, planned });
  return planned;
}

/** Planned slots in time order (then id), and their instants for bisection. */
interface Timeline {
  /** Each account's planned slots the timeline holds, by account. */
  of: ReadonlyMap<string, readonly PlannedSlot[]>;
  slots: PlannedSlot[];
  ats: Float64Array;
}

/**
 * The last timeline of each company (and account shown alone): a new plan mostly keeps the
 * slots of all accounts but one, so its timeline is the last one without the slots of the
 * accounts planned anew, merged with theirs, rather than every slot sorted again.
 */
const timelines = new SizedStore<Timeline>(32 * MB, (t) => 500 + t.slots.length * 16);

function timelineOf(key: string, planned: ReadonlyMap<string, readonly PlannedSlot[]>): Timeline {
  const last = timelines.get(key);
  // The accounts planned anew since the last timeline, and their slots.
  const changed = new Set<string>();
  const added: PlannedSlot[] = [];
  for (const [accountId, list] of last?.of ?? []) {
    if (planned.get(accountId) !== list) changed.add(accountId);
  }
  for (const [accountId, list] of planned) {
    if (last?.of.get(accountId) === list) continue;
    changed.add(accountId);
    for (const p of list) added.push(p);
  }
  if (last && changed.size === 0) return last;
  // Each account's slots are in time order already: the sort merges them.
  added.sort(byTime);
  const kept = last?.slots ?? [];
  const slots = new Array<PlannedSlot>(kept.length + added.length);
  let n = 0;
  let j = 0;
  for (const p of kept) {
    if (changed.has(p.accountId)) continue;
    while (j < added.length && byTime(added[j] as PlannedSlot, p) < 0) {
      slots[n++] = added[j++] as PlannedSlot;
    }
    slots[n++] = p;
  }
  while (j < added.length) slots[n++] = added[j++] as PlannedSlot;
  slots.length = n;
  const ats = new Float64Array(n);
  for (let i = 0; i < n; i++) ats[i] = (slots[i] as PlannedSlot).at;
  const timeline = { of: planned, slots, ats };
  timelines.set(key, timeline);
  return timeline;
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

function periodOf(
  periods: Map<string, string>,
  windows: readonly string[],
  timezone: string,
  now: Date,
): string {
  const key = `${timezone}|${windows.join(',')}`;
  let period = periods.get(key);
  if (period === undefined) {
    period = slotPeriod(windows, timezone, now);
    periods.set(key, period);
  }
  return period;
}

const byName = (a: CalendarAccount, b: CalendarAccount) =>
  (a.username < b.username ? -1 : a.username > b.username ? 1 : 0) ||
  (a.platform < b.platform ? -1 : a.platform > b.platform ? 1 : 0);

async function planAt(
  ctx: AppContext,
  companyId: string,
  only: string | undefined,
  now: Date,
): Promise<CompanyPlan> {
  const nowMs = now.getTime();
  const scope = `${companyId}|${only ?? ''}`;
  const [accounts, company, workers, open, pendingOf] = await Promise.all([
    listCompanyAccounts(ctx.db, companyId),
    getCompanyRow(ctx.db, companyId),
    listWorkers(ctx.db),
    keep(ctx, `queued|${scope}`, () => calendarQueued(ctx.db, companyId, only)),
    keep(ctx, `waiting|${scope}`, () => calendarWaiting(ctx.db, companyId, only)),
  ]);
  // Each account's today, worked out once per timezone (accounts mostly share a few), and
  // the releases of all of them read at once.
  const todays = new Map<string, { start: string; end: string }>();
  let first = '';
  let last = '';
  for (const account of accounts) {
    const tz = account.timezone;
    if (todays.has(tz)) continue;
    const bounds = localDayBounds(localDateOf(now, tz), tz);
    const today = { start: bounds.start.toISOString(), end: bounds.end.toISOString() };
    todays.set(tz, today);
    if (first === '' || today.start < first) first = today.start;
    if (today.end > last) last = today.end;
  }
  const recent =
    todays.size === 0
      ? []
      : await keep(ctx, `today|${scope}|${first}|${last}`, () =>
          calendarReleasedToday(ctx.db, companyId, first, last, only),
        );
  const workerName = new Map(workers.map((w) => [w.workerId, w.name]));
  const openOf = new Map(open.map((r) => [r.account_id, r.items]));
  const recentOf = new Map<string, CalendarTodayRow[]>();
  for (const r of recent) {
    const list = recentOf.get(r.account_id);
    if (list) list.push(r);
    else recentOf.set(r.account_id, [r]);
  }
  const companyWindows = parseStoredWindows(company?.schedule_windows ?? null);
  // Accounts mostly share a few timezones and windows: where now falls is found once each.
  const periods = new Map<string, string>();
  const plans: AccountPlan[] = [];
  const planned = new Map<string, readonly PlannedSlot[]>();
  for (const account of accounts) {
    const shown = only === undefined || only === account.id;
    const accountTz = account.timezone;
    const { start, end } = todays.get(accountTz) as { start: string; end: string };
    // Instants as stored compare as text, in time order (as the read compared them).
    const releasedToday = (recentOf.get(account.id) ?? []).filter(
      (r) => r.released_at >= start && r.released_at < end,
    );
    const count =
      releasedToday.length === 0
        ? 0
        : postsToday(
            releasedToday.map((r) => Date.parse(r.released_at)),
            accountTz,
            now,
          );
    const blocked = blockedReason(account, count);
    const { windows } = effectiveSchedule(
      parseStoredWindows(account.schedule_windows),
      companyWindows,
    );
    const items = openOf.get(account.id);
    // Nothing is planned for an account that gets nothing (a daily cap only moves it on).
    const slots =
      !shown || items === undefined || (blocked !== null && !blocked.startsWith('daily cap'))
        ? []
        : planAccount(
            account.id,
            periodOf(periods, windows, accountTz, now),
            windows,
            accountTz,
            now,
            items,
            releasedToday,
          );
    if (slots.length > 0) planned.set(account.id, slots);
    plans.push({
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
      planned: slots,
    });
  }
  const { slots, ats } = timelineOf(scope, planned);
  return {
    accounts: plans,
    sorted: plans.map((a) => a.summary).sort(byName),
    slots,
    ats,
    now: nowMs,
  };
}

/** A day's releases: how many per status, and the first of them (all, without a limit). */
interface ReleasedDay {
  counts: Readonly<Record<string, number>>;
  first: readonly Placed[];
}

/** The releases of each day of `bounds` (day starts, then the end): counted, the first listed. */
function releasedByDay(
  ctx: AppContext,
  companyId: string,
  bounds: readonly number[],
  need: number,
  only: string | undefined,
): Promise<ReleasedDay[]> {
  return Promise.all(
    bounds.slice(0, -1).map(async (start, i) => {
      const from = iso(start);
      const to = iso(bounds[i + 1] as number);
      const counts: Record<string, number> = {};
      let all = 0;
      for (const r of await calendarReleasedCounts(ctx.db, companyId, from, to, only)) {
        counts[r.status] = r.n;
        all += r.n;
      }
      if (all === 0 || need <= 0) return { counts, first: [] };
      const limit = Number.isFinite(need) ? need : undefined;
      const rows = await calendarReleased(ctx.db, companyId, from, to, only, limit);
      const first = rows.map((r): Placed => ({
        id: r.id,
        accountId: r.account_id,
        status: r.status,
        at: Date.parse(r.released_at),
        makeup: false,
      }));
      return { counts, first: first.sort(byTime) };
    }),
  );
}

/**
 * The company's calendar for a period, or null when `accountId` names no account of the
 * company (another company's account reads as an unknown one). Releases are counted per day;
 * only those a day lists are read one by one, with their posts.
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
  const limit = input.perDay ?? Number.POSITIVE_INFINITY;
  const skip = input.skip ?? 0;
  const need = skip + limit;

  const [plan, releasedDays] = await Promise.all([
    companyPlan(ctx, companyId, only),
    keep(
      ctx,
      `released|${companyId}|${only ?? ''}|${tz}|${period.start}|${period.end}|${need}`,
      () => releasedByDay(ctx, companyId, bounds, need, only),
    ),
  ]);
  if (only !== undefined && !plan.accounts.some((a) => a.summary.accountId === only)) {
    return null;
  }
  const nowMs = plan.now;
  const free: FreeWindow[][] = dates.map(() => []);
  let waiting = 0;
  for (const a of plan.accounts) {
    if (only !== undefined && only !== a.summary.accountId) continue;
    waiting += a.summary.waiting;
    const blocked = a.summary.blocked;
    if (only === undefined || to <= nowMs) continue;
    if (blocked !== null && !blocked.startsWith('daily cap')) continue;
    // The one account's windows still open to a post, in the period.
    const taken = new Set(a.planned.map((p) => p.at));
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

  // Each day's first items: its first planned slots (found by bisection of the company's
  // plan) and its first releases, in time order; the rest are counted.
  let total = 0;
  const shape = dates.map((_, i) => {
    const lo = firstAtOrAfter(plan.ats, bounds[i] as number);
    const hi = firstAtOrAfter(plan.ats, bounds[i + 1] as number);
    const day = releasedDays[i] as ReleasedDay;
    const c: Record<string, number> = { ...day.counts };
    if (hi > lo) c.queued = hi - lo;
    let all = 0;
    for (const n of Object.values(c)) all += n;
    total += all;
    const list: Placed[] = plan.slots.slice(lo, Math.min(hi, lo + need));
    for (const r of day.first) list.push(r);
    list.sort(byTime);
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
  const summaries = plan.sorted.slice();
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
