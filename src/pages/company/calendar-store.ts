// The calendar planner's building blocks: items placed in time, the days of a timezone as
// instants, and a store bounded by an estimate of its size.
import { localDayBounds } from '../../schedule/windows.ts';
import type { CalendarAccount } from './calendar-model.ts';

/** An item placed on a day: when, whose, and whether it was planned for a make-up slot. */
export interface Placed {
  id: string;
  accountId: string;
  status: string;
  at: number;
  makeup: boolean;
}

/** Time order; items of the same instant by id (the order the reads page them in). */
export const byTime = (a: Placed, b: Placed) =>
  a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

// When a local day starts depends on nothing but the date and the zone: worked out once.
const dayStarts = new Map<string, number>();

/** The first instant of a local date in a timezone, in epoch milliseconds. */
export function dayStart(localDate: string, timezone: string): number {
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
export function dayIndex(bounds: readonly number[], ts: number): number {
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
export function firstAtOrAfter(list: Float64Array, ts: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as number) < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const iso = (ms: number) => new Date(ms).toISOString();

/** A queued item's planned slot. */
export interface PlannedSlot extends Placed {
  status: 'queued';
}

/** One account as planned at a minute: its facts, and its queued items' planned slots. */
export interface AccountPlan {
  summary: CalendarAccount;
  timezone: string;
  windows: readonly string[];
  /** Planned slots of its queued items in time order (none for an account that gets nothing). */
  planned: readonly PlannedSlot[];
}

export interface CompanyPlan {
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

export const MB = 1024 * 1024;

/** A map bounded by an estimate of the size of what it holds: emptied when that passes. */
export class SizedStore<V> {
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
