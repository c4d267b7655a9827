/*
 * Posting-window math for the release dispatcher and the API (SPEC 2.5, 2.6, 2.9, 4.5;
 * DECISIONS 5). Pure functions: time is always an argument (Date or epoch ms), nothing reads
 * the clock or does I/O. Module-level maps only memoize values that depend solely on their keys.
 * Split: local-time.ts (decision 1), slot-timeline.ts (decisions 2-3, nextWindowStart),
 * release-order.ts (release order and eligibility helpers), this file (decisions 4-10).
 *
 * Decisions
 *
 * 1. Local time (local-time.ts). Windows are wall-clock times of the account's worker timezone
 *    (SPEC 4.5 rule 2, DECISIONS 5). A local day is [first instant of date D, first instant of
 *    D+1). A window time that does not exist that day (spring-forward gap) opens at the first
 *    valid instant after the gap; a time that occurs twice (fall-back) opens at its first
 *    occurrence. Half-hour and 45-minute offsets need no special handling.
 *
 * 2. Slot timeline. A day's slots are the effective schedule's windows plus the standard slots
 *    08:00/11:00/14:00/17:00 that the schedule does not use; the latter are the make-up slots of
 *    DECISIONS 5. Slots are labelled with their configured "HH:mm". If a gap makes two slots
 *    open at the same instant, the window is kept.
 *
 * 3. How long a slot is open. A slot opens at its start and stays open until the next slot of
 *    the timeline starts, the last one until the end of the local day. A release made while a
 *    slot is open belongs to it, so a dispatcher that was down for a while still releases late
 *    in the same slot. Open periods partition the day from the first slot on, so every release
 *    instant maps to at most one slot and (localDate, label) is a natural unique key for
 *    releases (reliability-anchors 8.F4). A window starting exactly at `now` is open at `now`.
 *
 * 4. Eligibility. Only items ready (entered `queued`, not before `scheduledAfter`) at or before
 *    the slot's start may go out in it: an item approved at 09:10 waits for the next slot
 *    rather than being posted at 09:10 because the 08:00 window is still open. The release
 *    therefore matches what a punctual dispatcher would have done, and planSlots agrees with
 *    late dispatchers. Among eligible items the release order is priority desc, queuedAt asc,
 *    id asc (DECISIONS 5, release-order.ts).
 *
 * 5. One release per slot (SPEC 4.5 rule 2): a slot with any release in its open period is used.
 *
 * 6. Make-up (SPEC 4.5 rule 5, DECISIONS 5). A window is missed when its open period ended
 *    without a release although an item was due at its start. The dispatcher supplies that from
 *    stored data: `oldestReadyAt` (earliest readiness among the items queued now) and, on each
 *    release of the day, the released item's readiness; a window counts as missed when some item
 *    queued now, or released later that day, was ready at its start. Items cancelled since then
 *    are not evidence: there is nothing left to make up for them. A make-up slot may release
 *    when the missed windows before it outnumber the make-up releases before it. Misses never
 *    carry over to the next local day.
 *
 * 7. Daily cap (SPEC 4.5 rule 5, DECISIONS 5): at most MAX_POSTS_PER_DAY releases whose
 *    instant lies in the local day, whatever slot they belong to. postsToday counts the same set.
 *
 * 8. What a release is: every `queued` -> `posting` move of the account's items, whatever the
 *    outcome. A failed post is final (DECISIONS 2) and is not made up. Callers pass releases as
 *    instants or as { at, readyAt }; readyAt only sharpens the missed-window evidence.
 *
 * 9. Schedule changes (SPEC 4.5 rules 4 and 6): every call uses the effective windows given to
 *    it; releases already made are mapped onto that day's timeline by instant. A slot whose
 *    open period already ended can never be released again, so (localDate, label) stays unique
 *    across changes, and the cap always holds.
 *
 * 10. nextWindowStart (SPEC 2.5 `nextWindow`): the first window start at or after `now`; make-up
 *     slots are not windows. planSlots (SPEC 2.6 `scheduledSlotStart`) replays decideRelease at
 *     `now` and at every later slot start, assuming no future slot is missed and nothing new is
 *     queued; it therefore includes make-ups still owed today. queueDepth counts items in status
 *     `queued` only: items awaiting approval or media are not in the posting queue (SPEC 3 rule 1).
 *
 * 11. Windows are parsed as "HH:mm", sorted and de-duplicated; an empty or malformed list throws
 *     RangeError (effectiveSchedule never yields one; checkWindows guards stored schedules).
 */

import { MAX_POSTS_PER_DAY, STANDARD_SLOTS } from './schedule-rules.ts';
import { toEpochMs, type Instant } from './local-time.ts';
import { ReleaseHeap, compareKeys, toKey } from './release-order.ts';
import type { OrderKey, QueueEntry } from './release-order.ts';
import {
  dayContaining,
  layoutOf,
  openSlotIndex,
  scheduleOf,
  toSlot,
  type DayLayout,
  type Slot,
  type SlotKind,
  type SlotSpan,
} from './slot-timeline.ts';

// Single entry point for the dispatcher and the API.
export { addDays, localDateOf, localDayBounds, zonedInstant } from './local-time.ts';
export type { Instant } from './local-time.ts';
export { compareReleaseOrder, effectiveReadyAt, oldestReadyAt, pickNext } from './release-order.ts';
export type { QueueEntry } from './release-order.ts';
export { daySlots, nextWindowStart, slotAt } from './slot-timeline.ts';
export type { Slot, SlotKind } from './slot-timeline.ts';

/** A release already made: its instant, or its instant and the released item's readiness. */
export type ReleaseRecord = Instant | { at: Instant; readyAt?: Instant | null };

export interface ReleaseInput {
  /** Effective windows of the account (effectiveSchedule). */
  windows: readonly string[];
  /** IANA timezone of the account's worker. */
  timezone: string;
  /** Releases already made for the account; at least those of the current local day. */
  releases: readonly ReleaseRecord[];
  /** Earliest readiness among the account's items queued now (oldestReadyAt); null if none. */
  oldestReadyAt: Instant | null;
  now: Instant;
}

export type NotDueReason =
  | 'no_open_slot'
  | 'slot_already_released'
  | 'daily_cap_reached'
  | 'no_missed_window'
  | 'nothing_due';

export type ReleaseDecision =
  | {
      due: true;
      slot: Slot;
      /** Release the first item in release order that was ready at or before this instant. */
      cutoff: Date;
      /** Releases in the local day before this one. */
      postsToday: number;
    }
  | { due: false; reason: NotDueReason; slot: Slot | null; postsToday: number };

export interface PlannedRelease {
  id: string;
  /** SPEC 2.6 `scheduledSlotStart`. */
  scheduledSlotStart: Date;
  localDate: string;
  slot: string;
  kind: SlotKind;
}

interface DayRelease {
  at: number;
  readyAt: number | null;
}

function dayReleases(day: DayLayout, releases: readonly ReleaseRecord[]): DayRelease[] {
  const out: DayRelease[] = [];
  for (const r of releases) {
    const isRecord = typeof r === 'object' && !(r instanceof Date);
    const at = toEpochMs(isRecord ? r.at : r);
    if (at < day.start || at >= day.end) continue;
    const ready = isRecord ? r.readyAt : null;
    out.push({ at, readyAt: ready === undefined || ready === null ? null : toEpochMs(ready) });
  }
  return out;
}

function releasedIn(span: SlotSpan, releases: readonly DayRelease[]): boolean {
  for (const r of releases) if (r.at >= span.start && r.at < span.end) return true;
  return false;
}

function wasDue(span: SlotSpan, releases: readonly DayRelease[], oldest: number | null): boolean {
  if (oldest !== null && oldest <= span.start) return true;
  for (const r of releases) {
    if (r.at > span.start && r.readyAt !== null && r.readyAt <= span.start) return true;
  }
  return false;
}

/** Decisions 3-7 for the slot at `index` of `day`; null when a release is due. */
function evaluate(
  day: DayLayout,
  index: number,
  releases: readonly DayRelease[],
  oldest: number | null,
): NotDueReason | null {
  const slot = day.slots[index]!;
  if (releasedIn(slot, releases)) return 'slot_already_released';
  if (releases.length >= MAX_POSTS_PER_DAY) return 'daily_cap_reached';
  if (slot.kind === 'makeup') {
    let missed = 0;
    let madeUp = 0;
    for (let i = 0; i < index; i++) {
      const earlier = day.slots[i]!;
      const released = releasedIn(earlier, releases);
      if (earlier.kind === 'makeup') {
        if (released) madeUp++;
      } else if (!released && wasDue(earlier, releases, oldest)) {
        missed++;
      }
    }
    if (missed <= madeUp) return 'no_missed_window';
  }
  if (oldest === null || oldest > slot.start) return 'nothing_due';
  return null;
}

/**
 * Whether the account releases an item at `now`, and in which slot (decisions 3-7). When due,
 * the dispatcher releases pickNext(queue, decision.cutoff) and records the release with
 * (slot.localDate, slot.label) as its unique slot key. Cost: one offset look-up at most, and
 * none while other accounts with the same timezone and windows are decided for the same day.
 */
export function decideRelease(input: ReleaseInput): ReleaseDecision {
  const now = toEpochMs(input.now);
  const schedule = scheduleOf(input.windows);
  const day = dayContaining(input.timezone, schedule, now);
  const releases = dayReleases(day, input.releases);
  const postsToday = releases.length;
  const index = openSlotIndex(day, now);
  if (index < 0) return { due: false, reason: 'no_open_slot', slot: null, postsToday };
  const span = day.slots[index]!;
  const oldest = input.oldestReadyAt === null ? null : toEpochMs(input.oldestReadyAt);
  const reason = evaluate(day, index, releases, oldest);
  const slot = toSlot(day, span);
  if (reason !== null) return { due: false, reason, slot, postsToday };
  return { due: true, slot, cutoff: new Date(span.start), postsToday };
}

/** SPEC 2.5 `postsToday`: releases whose instant lies in the local day containing `now`. */
export function postsToday(
  releases: readonly ReleaseRecord[],
  timezone: string,
  now: Instant,
): number {
  const day = dayContaining(timezone, scheduleOf(STANDARD_SLOTS), toEpochMs(now));
  return dayReleases(day, releases).length;
}

/** SPEC 2.5 `queueDepth`: items in status `queued` (decision 10). */
export function queueDepth(items: readonly { status: string }[]): number {
  let depth = 0;
  for (const item of items) if (item.status === 'queued') depth++;
  return depth;
}

/**
 * SPEC 2.6 `scheduledSlotStart` for every queued item, in planned release order (decision 10).
 * `releasedToday` must hold the account's releases of the current local day (older ones are
 * ignored): windows of today that passed without one, while items were due, are treated as
 * missed and their make-up is planned.
 */
export function planSlots(
  queue: readonly QueueEntry[],
  windows: readonly string[],
  timezone: string,
  now: Instant,
  releasedToday: readonly ReleaseRecord[] = [],
): PlannedRelease[] {
  const start = toEpochMs(now);
  const schedule = scheduleOf(windows);
  const keys = queue.map(toKey);
  const byReady = [...keys].sort((a, b) => a.ready - b.ready || compareKeys(a, b));
  const planned = new Set<OrderKey>();
  const heap = new ReleaseHeap();
  const out: PlannedRelease[] = [];
  let readyIndex = 0;
  let oldestIndex = 0;

  let day = dayContaining(timezone, schedule, start);
  let releases = dayReleases(day, releasedToday);
  let index = openSlotIndex(day, start);
  if (index < 0) index = day.slots.findIndex((s) => s.start > start);
  if (index < 0) index = day.slots.length;

  while (out.length < keys.length) {
    if (index >= day.slots.length) {
      day = layoutOf(timezone, schedule, day.dayNumber + 1);
      releases = [];
      index = 0;
      continue;
    }
    const span = day.slots[index]!;
    while (readyIndex < byReady.length && byReady[readyIndex]!.ready <= span.start) {
      heap.push(byReady[readyIndex++]!);
    }
    if (heap.size === 0) {
      // Nothing is ready before this slot: no release and no missed window until the next
      // readiness, so skip straight to the day that contains it.
      const next = byReady[readyIndex]!.ready;
      if (next >= day.end) {
        day = dayContaining(timezone, schedule, next, false);
        releases = [];
      }
      index = day.slots.findIndex((s) => s.start >= next);
      if (index < 0) index = day.slots.length;
      continue;
    }
    while (planned.has(byReady[oldestIndex]!)) oldestIndex++;
    const oldest = byReady[oldestIndex]!.ready;
    if (evaluate(day, index, releases, oldest) === null) {
      const item = heap.pop()!;
      planned.add(item);
      releases.push({ at: Math.max(span.start, start), readyAt: item.ready });
      out.push({
        id: item.id,
        scheduledSlotStart: new Date(span.start),
        localDate: day.localDate,
        slot: span.label,
        kind: span.kind,
      });
    }
    index++;
  }
  return out;
}
