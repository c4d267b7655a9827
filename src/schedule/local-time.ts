// Wall-clock arithmetic in IANA timezones for posting windows (SPEC 4.5 rule 2: windows are
// worker-local times). Pure: every instant is passed in; the module-level maps below only
// memoize results that depend on nothing but their keys.
//
// Conventions shared with windows.ts:
// - A local date is a "yyyy-MM-dd" string in the proleptic Gregorian calendar.
// - A local day is the half-open interval [first instant of date D, first instant of D+1).
// - A wall time that does not exist (spring-forward gap) resolves to the first valid instant
//   after the gap, i.e. the transition instant itself: America/New_York 2026-03-08 02:30 is
//   03:00 EDT (07:00Z). Luxon's own default would shift by the gap length (03:30 EDT); we do
//   not want a window to drift past the gap, so resolution is done here.
// - A wall time that occurs twice (fall-back overlap) resolves to its first occurrence.
// - Offsets come from luxon's IANAZone (tzdata of the running Node). The fast path for a
//   whole day assumes a zone never changes its UTC offset twice within 36 hours, which holds
//   for every zone in current tzdata; on transition days each wall time is resolved exactly.

import { IANAZone } from 'luxon';

/** An instant: a Date or epoch milliseconds. */
export type Instant = Date | number;

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

const zones = new Map<string, IANAZone>();

/** The luxon zone of an IANA name; throws RangeError for names the runtime does not know. */
export function zoneOf(timezone: string): IANAZone {
  let zone = zones.get(timezone);
  if (zone === undefined) {
    const created = IANAZone.create(timezone);
    if (!created.isValid) throw new RangeError(`unknown IANA timezone "${timezone}"`);
    if (zones.size >= 1000) zones.clear();
    zones.set(timezone, created);
    zone = created;
  }
  return zone;
}

/** Whether the runtime knows this IANA timezone name (the one check config, companies and workers use). */
export function validTimezone(timezone: string): boolean {
  try {
    zoneOf(timezone);
    return true;
  } catch {
    return false;
  }
}

/** Epoch milliseconds of an instant; throws RangeError for an invalid Date or non-finite number. */
export function toEpochMs(instant: Instant): number {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('instant is not a valid time');
  return ms;
}

/** UTC offset of `zone` at instant `ts`, in milliseconds (local = UTC + offset). */
export function offsetMs(zone: IANAZone, ts: number): number {
  return zone.offset(ts) * MINUTE_MS;
}

/** Day number (days since 1970-01-01) of a "yyyy-MM-dd" local date; RangeError when malformed. */
export function dayNumberOf(localDate: string): number {
  const m = LOCAL_DATE.exec(localDate);
  if (m) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    const ms = Date.UTC(year, month - 1, day);
    const check = new Date(ms);
    if (check.getUTCMonth() === month - 1 && check.getUTCDate() === day) return ms / DAY_MS;
  }
  throw new RangeError(`local date must be a calendar date "yyyy-MM-dd" (got "${localDate}")`);
}

/** The "yyyy-MM-dd" string of a day number. */
export function localDateString(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/** Minutes after local midnight of "HH:mm"; RangeError when malformed. */
export function minutesOf(time: string): number {
  const m = HHMM.exec(time);
  if (!m) throw new RangeError(`time must be "HH:mm" (got "${time}")`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Day number of the wall-clock date shown in `zone` at instant `ts`. */
export function wallDayNumber(zone: IANAZone, ts: number): number {
  return Math.floor((ts + offsetMs(zone, ts)) / DAY_MS);
}

/**
 * The instant at which the wall clock of `zone` shows `wall` (wall-clock milliseconds counted
 * as if the zone were UTC). Overlap: first occurrence. Gap: the transition instant ending it.
 */
export function wallToInstant(zone: IANAZone, wall: number): number {
  // Every instant showing `wall` lies within 14 h of it, so offsets probed a day either side
  // are the (at most two) candidates.
  const before = offsetMs(zone, wall - DAY_MS);
  const after = offsetMs(zone, wall + DAY_MS);
  const larger = Math.max(before, after);
  const smaller = Math.min(before, after);
  // A larger offset means an earlier instant, so trying it first yields the first occurrence.
  const early = wall - larger;
  if (offsetMs(zone, early) === larger) return early;
  const late = wall - smaller;
  if (smaller !== larger && offsetMs(zone, late) === smaller) return late;
  return firstInstantAfterGap(zone, early, late);
}

/** Smallest instant in (lo, hi] whose offset differs from the offset at lo. */
function firstInstantAfterGap(zone: IANAZone, lo: number, hi: number): number {
  const offsetAtLo = offsetMs(zone, lo);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetMs(zone, mid) === offsetAtLo) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Instants of one local day: its start, its end, and each requested minute of the day. */
export interface ResolvedDay {
  start: number;
  end: number;
  at: number[];
}

/**
 * Resolves local midnight of `dayNumber`, of the next day, and each of `minutes` (minutes after
 * midnight). Three offset look-ups on ordinary days; exact per-time resolution near transitions.
 */
export function resolveDay(
  zone: IANAZone,
  dayNumber: number,
  minutes: readonly number[],
): ResolvedDay {
  const midnight = dayNumber * DAY_MS;
  const before = offsetMs(zone, midnight - DAY_MS);
  const noon = offsetMs(zone, midnight + DAY_MS / 2);
  const after = offsetMs(zone, midnight + 2 * DAY_MS);
  const steady = before === noon && noon === after;
  const resolve = steady
    ? (wall: number) => wall - before
    : (wall: number) => wallToInstant(zone, wall);
  return {
    start: resolve(midnight),
    end: resolve(midnight + DAY_MS),
    at: minutes.map((m) => resolve(midnight + m * MINUTE_MS)),
  };
}

/** The local calendar date ("yyyy-MM-dd") shown in `timezone` at `instant`. */
export function localDateOf(instant: Instant, timezone: string): string {
  return localDateString(wallDayNumber(zoneOf(timezone), toEpochMs(instant)));
}

/**
 * The instant of local time `time` ("HH:mm") on `localDate` in `timezone`. Nonexistent times
 * (spring-forward gap) give the first instant after the gap; repeated times (fall-back) give
 * the first occurrence.
 */
export function zonedInstant(localDate: string, time: string, timezone: string): Date {
  const wall = dayNumberOf(localDate) * DAY_MS + minutesOf(time) * MINUTE_MS;
  return new Date(wallToInstant(zoneOf(timezone), wall));
}

/** The local day `localDate` in `timezone` as [start, end): end is the start of the next day. */
export function localDayBounds(localDate: string, timezone: string): { start: Date; end: Date } {
  const day = resolveDay(zoneOf(timezone), dayNumberOf(localDate), []);
  return { start: new Date(day.start), end: new Date(day.end) };
}

/** `localDate` moved by `days` calendar days. */
export function addDays(localDate: string, days: number): string {
  return localDateString(dayNumberOf(localDate) + days);
}
