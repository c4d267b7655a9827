// The posting calendar (dashboard page 2): for each account, the next seven local days of its
// worker's timezone with their slots (the schedule's windows and the make-up slots), the items
// planned for them (SPEC 2.6 scheduledSlotStart), and those released, posted or failed; and
// why an account gets nothing (DECISIONS 5 and 7). Read in three queries for a whole company.
import type { AppContext } from '../../context.ts';
import type { AccountsTable } from '../../db/types.ts';
import {
  effectiveSchedule,
  MAX_POSTS_PER_DAY,
  parseStoredWindows,
} from '../../schedule/schedule-rules.ts';
import {
  addDays,
  daySlots,
  effectiveReadyAt,
  localDateOf,
  localDayBounds,
  planSlots,
  postsToday,
  type QueueEntry,
  type Slot,
} from '../../schedule/windows.ts';
import { notPlannedReason, listCompanyAccounts } from '../accounts/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import { calendarItems, type CalendarRow } from '../items/index.ts';

/** Days the calendar shows, today first. */
export const CALENDAR_DAYS = 7;

export interface CalendarItem {
  queueItemId: string;
  postId: string;
  status: string;
  priority: number;
  caption: string;
  /** The planned slot start (queued) or the release time (released since). */
  at: string;
  postUrl: string | null;
  error: string | null;
}

export interface CalendarSlot {
  label: string;
  kind: 'window' | 'makeup';
  start: string;
  items: CalendarItem[];
}

export interface CalendarDay {
  localDate: string;
  slots: CalendarSlot[];
}

export interface AccountWeek {
  accountId: string;
  username: string;
  platform: string;
  timezone: string;
  status: string;
  workerId: string | null;
  postsToday: number;
  /** Items waiting for approval or for their media: they are not planned yet. */
  waiting: number;
  /** Why the account gets nothing now, or null. */
  blocked: string | null;
  days: CalendarDay[];
}

/**
 * A day's slots depend only on the schedule, the zone and the date, which most accounts of a
 * company share: laid out once per page rather than once per account.
 */
function slotsMemo() {
  const memo = new Map<string, Slot[]>();
  return (windows: readonly string[], timezone: string, localDate: string): Slot[] => {
    const key = `${windows.join(',')}|${timezone}|${localDate}`;
    let slots = memo.get(key);
    if (!slots) {
      slots = daySlots(windows, timezone, localDate);
      memo.set(key, slots);
    }
    return slots;
  };
}

function entry(row: CalendarRow): QueueEntry {
  return {
    id: row.id,
    priority: row.priority,
    queuedAt: Date.parse(row.queued_at),
    readyAt: Date.parse(row.approved_at ?? row.queued_at),
    scheduledAfter: row.scheduled_after === null ? null : Date.parse(row.scheduled_after),
  };
}

function item(row: CalendarRow, at: string): CalendarItem {
  return {
    queueItemId: row.id,
    postId: row.post_id,
    status: row.status,
    priority: row.priority,
    caption: row.caption ?? '',
    at,
    postUrl: row.post_url,
    error: row.status === 'failed' ? row.failure_reason : null,
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

function weekOf(
  account: AccountsTable,
  rows: readonly CalendarRow[],
  companySchedule: string | null,
  now: Date,
  slotsOf: ReturnType<typeof slotsMemo>,
): AccountWeek {
  const { windows } = effectiveSchedule(
    parseStoredWindows(account.schedule_windows),
    parseStoredWindows(companySchedule),
  );
  const tz = account.timezone;
  const today = localDateOf(now, tz);
  const todayBounds = localDayBounds(today, tz);
  const released = rows.filter((r) => r.released_at !== null);
  const queued = rows.filter((r) => r.status === 'queued');
  const releasedToday = released.filter(
    (r) => Date.parse(r.released_at as string) >= todayBounds.start.getTime(),
  );
  const count = postsToday(
    releasedToday.map((r) => Date.parse(r.released_at as string)),
    tz,
    now,
  );
  const blocked = blockedReason(account, count);
  const planned = new Map<string, string>();
  if (blocked === null || blocked.startsWith('daily cap')) {
    const releases = releasedToday.map((r) => ({
      at: Date.parse(r.released_at as string),
      readyAt: effectiveReadyAt(entry(r)),
    }));
    for (const p of planSlots(queued.map(entry), windows, tz, now, releases)) {
      planned.set(p.id, p.scheduledSlotStart.toISOString());
    }
  }
  const days: CalendarDay[] = [];
  for (let d = 0; d < CALENDAR_DAYS; d++) {
    const localDate = addDays(today, d);
    const slots: CalendarSlot[] = slotsOf(windows, tz, localDate).map((s) => ({
      label: s.label,
      kind: s.kind,
      start: s.start.toISOString(),
      items: [],
    }));
    days.push({ localDate, slots });
  }
  const place = (at: string, it: CalendarItem, exact: boolean) => {
    const ts = Date.parse(at);
    for (const day of days) {
      // A released item belongs to the last slot started at or before its release.
      let target: CalendarSlot | undefined;
      for (const slot of day.slots) {
        const start = Date.parse(slot.start);
        if (exact ? start === ts : start <= ts) target = slot;
      }
      if (target && (exact || localDateOf(ts, tz) === day.localDate)) {
        target.items.push(it);
        return;
      }
    }
  };
  for (const r of released) place(r.released_at as string, item(r, r.released_at as string), false);
  for (const r of queued) {
    const at = planned.get(r.id);
    if (at !== undefined) place(at, item(r, at), true);
  }
  return {
    accountId: account.id,
    username: account.username,
    platform: account.platform,
    timezone: tz,
    status: account.status,
    workerId: account.worker_id,
    postsToday: count,
    waiting: rows.filter((r) => r.status === 'pending_approval' || r.status === 'processing')
      .length,
    blocked,
    days,
  };
}

/** The company's accounts (or one of them), each with its week. */
export async function companyWeek(
  ctx: AppContext,
  companyId: string,
  now: Date,
  onlyAccountId?: string,
): Promise<AccountWeek[]> {
  // A day either side covers every timezone's today and the week after it.
  const from = new Date(now.getTime() - 2 * 86_400_000).toISOString();
  const to = new Date(now.getTime() + (CALENDAR_DAYS + 1) * 86_400_000).toISOString();
  const [accounts, company, rows] = await Promise.all([
    listCompanyAccounts(ctx.db, companyId),
    getCompanyRow(ctx.db, companyId),
    calendarItems(ctx.db, companyId, from, to),
  ]);
  const byAccount = new Map<string, CalendarRow[]>();
  for (const r of rows) {
    const list = byAccount.get(r.account_id) ?? [];
    if (list.length === 0) byAccount.set(r.account_id, list);
    list.push(r);
  }
  const slotsOf = slotsMemo();
  return accounts
    .filter((a) => onlyAccountId === undefined || a.id === onlyAccountId)
    .map((a) =>
      weekOf(a, byAccount.get(a.id) ?? [], company?.schedule_windows ?? null, now, slotsOf),
    );
}
