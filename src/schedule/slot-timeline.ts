// The slot timeline of a local day (decisions 2-3 in windows.ts): the effective windows plus
// the standard slots the schedule does not use (make-up slots), each open from its start until
// the next slot starts or the local day ends. Pure; the maps below only memoize layouts that
// depend on nothing but their keys, so deciding 10,000 accounts that share a few timezones and
// schedules costs at most one offset look-up per account.

import { STANDARD_SLOTS, parseWindow } from './schedule-rules.ts';
import {
  dayNumberOf,
  localDateString,
  resolveDay,
  toEpochMs,
  wallDayNumber,
  zoneOf,
  type Instant,
} from './local-time.ts';

export type SlotKind = 'window' | 'makeup';

/** A slot of one local day (decision 2) with its open period [start, end) (decision 3). */
export interface Slot {
  localDate: string;
  /** Configured "HH:mm" of the window or standard slot. */
  label: string;
  kind: SlotKind;
  start: Date;
  end: Date;
}

export interface Schedule {
  key: string;
  slots: readonly { label: string; kind: SlotKind; minutes: number }[];
}

export interface SlotSpan {
  label: string;
  kind: SlotKind;
  start: number;
  end: number;
}

export interface DayLayout {
  dayNumber: number;
  localDate: string;
  start: number;
  end: number;
  slots: readonly SlotSpan[];
}

const CACHE_LIMIT = 4096;
const schedules = new Map<string, Schedule>();
const layouts = new Map<string, DayLayout>();
const currentDay = new Map<string, DayLayout>();

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= CACHE_LIMIT) map.clear();
  map.set(key, value);
  return value;
}

export function scheduleOf(windows: readonly string[]): Schedule {
  const key = windows.join(',');
  const cached = schedules.get(key);
  if (cached) return cached;
  if (windows.length === 0) throw new RangeError('windows must not be empty');
  const byMinute = new Map<number, { label: string; kind: SlotKind; minutes: number }>();
  for (const label of windows) {
    const minutes = parseWindow(label);
    if (minutes === null) throw new RangeError(`window must be "HH:mm" (got "${label}")`);
    byMinute.set(minutes, { label, kind: 'window', minutes });
  }
  for (const label of STANDARD_SLOTS) {
    const minutes = parseWindow(label);
    if (minutes !== null && !byMinute.has(minutes)) {
      byMinute.set(minutes, { label, kind: 'makeup', minutes });
    }
  }
  const slots = [...byMinute.values()].sort((a, b) => a.minutes - b.minutes);
  return remember(schedules, key, { key, slots });
}

export function layoutOf(timezone: string, schedule: Schedule, dayNumber: number): DayLayout {
  const key = `${timezone}|${schedule.key}|${dayNumber}`;
  const cached = layouts.get(key);
  if (cached) return cached;
  const resolved = resolveDay(
    zoneOf(timezone),
    dayNumber,
    schedule.slots.map((s) => s.minutes),
  );
  const spans: SlotSpan[] = [];
  schedule.slots.forEach((s, i) => {
    const start = resolved.at[i]!;
    // A gap can push a slot to the next day (a skipped date has no slots at all).
    if (start < resolved.start || start >= resolved.end) return;
    const previous = spans[spans.length - 1];
    if (previous && previous.start === start) {
      if (s.kind === 'window' && previous.kind === 'makeup') {
        spans[spans.length - 1] = { label: s.label, kind: s.kind, start, end: start };
      }
      return;
    }
    spans.push({ label: s.label, kind: s.kind, start, end: start });
  });
  spans.forEach((span, i) => {
    span.end = spans[i + 1]?.start ?? resolved.end;
  });
  const layout: DayLayout = {
    dayNumber,
    localDate: localDateString(dayNumber),
    start: resolved.start,
    end: resolved.end,
    slots: spans,
  };
  return remember(layouts, key, layout);
}

/** The local day whose interval contains `ts` (one offset look-up at most per new day). */
export function dayContaining(
  timezone: string,
  schedule: Schedule,
  ts: number,
  hot = true,
): DayLayout {
  const hotKey = `${timezone}|${schedule.key}`;
  const current = currentDay.get(hotKey);
  if (current && ts >= current.start && ts < current.end) return current;
  let day = layoutOf(timezone, schedule, wallDayNumber(zoneOf(timezone), ts));
  // Where clocks fall back across midnight, a repeated hour shows yesterday's date after
  // today has begun; by interval it belongs to today.
  while (ts >= day.end) day = layoutOf(timezone, schedule, day.dayNumber + 1);
  return hot ? remember(currentDay, hotKey, day) : day;
}

export function toSlot(day: DayLayout, span: SlotSpan): Slot {
  return {
    localDate: day.localDate,
    label: span.label,
    kind: span.kind,
    start: new Date(span.start),
    end: new Date(span.end),
  };
}

export function openSlotIndex(day: DayLayout, ts: number): number {
  return day.slots.findIndex((s) => ts >= s.start && ts < s.end);
}

/** SPEC 2.5 `nextWindow`: the first window start at or after `now` (decision 10). */
export function nextWindowStart(windows: readonly string[], timezone: string, now: Instant): Date {
  const ts = toEpochMs(now);
  const schedule = scheduleOf(windows);
  let day = dayContaining(timezone, schedule, ts);
  // A window exists on every day that is not skipped entirely, so this ends within days.
  for (let i = 0; i < 366; i++) {
    for (const s of day.slots) if (s.kind === 'window' && s.start >= ts) return new Date(s.start);
    day = layoutOf(timezone, schedule, day.dayNumber + 1);
  }
  throw new RangeError(`no window start found for timezone "${timezone}"`);
}

/** The slots of `localDate` ("yyyy-MM-dd") with their open periods (decisions 2-3). */
export function daySlots(windows: readonly string[], timezone: string, localDate: string): Slot[] {
  const day = layoutOf(timezone, scheduleOf(windows), dayNumberOf(localDate));
  return day.slots.map((s) => toSlot(day, s));
}

/** The slot whose open period contains `instant`, or null (before the first slot of the day). */
export function slotAt(
  windows: readonly string[],
  timezone: string,
  instant: Instant,
): Slot | null {
  const ts = toEpochMs(instant);
  const day = dayContaining(timezone, scheduleOf(windows), ts);
  const index = openSlotIndex(day, ts);
  return index < 0 ? null : toSlot(day, day.slots[index]!);
}
