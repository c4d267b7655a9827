// The windows a person may choose for an item (the dashboard's composer, post page and
// calendar): every window start of the coming days with what the planner (windows.ts) has
// put there, and whether a given instant may take an item. Choosing a window sets the item's
// earliest-release floor (SPEC 2.2 `scheduledAfter`) to that window's start.
//
// Why a free window is kept by the floor: a window is free when, in the plan without the
// item, nothing was ready and waiting at its start (otherwise the planner would have released
// it there) and its day is under the cap. The floor makes the item ineligible before that
// start, so earlier slots plan as before; at the window the item is the only one waiting, so
// it is released there whatever its priority. A window already taken is refused rather than
// given away, so a move never pushes another item out of its planned window.
import { MAX_POSTS_PER_DAY } from './schedule-rules.ts';
import { addDays, localDateOf, toEpochMs, type Instant } from './local-time.ts';
import type { QueueEntry } from './release-order.ts';
import { daySlots } from './slot-timeline.ts';
import { planSlots, postsToday, type ReleaseRecord } from './windows.ts';

export type WindowState = 'free' | 'taken' | 'day_at_cap';

export interface WindowChoice {
  /** The window's start: the floor an item gets when it is chosen. */
  start: Date;
  /** Local date ("yyyy-MM-dd") and configured "HH:mm" in the worker's timezone. */
  localDate: string;
  label: string;
  state: WindowState;
  /** The queued item planned in the window, when taken. */
  takenBy?: string;
}

export interface ChoiceInput {
  /** The account's queued items (the planner's input), the item being moved included. */
  queue: readonly QueueEntry[];
  windows: readonly string[];
  timezone: string;
  now: Instant;
  /** The account's releases of its current local day. */
  releasedToday?: readonly ReleaseRecord[];
  /** The item being moved: planned as if it were not in the queue. */
  exclude?: string;
  /** Local days shown from today on (today counts as one). */
  days: number;
}

/**
 * Every window start after `now` on the account's next `days` local days, in time order,
 * with its state in the plan without the excluded item.
 */
export function windowChoices(input: ChoiceInput): WindowChoice[] {
  const now = toEpochMs(input.now);
  const queue = input.exclude ? input.queue.filter((e) => e.id !== input.exclude) : input.queue;
  const released = input.releasedToday ?? [];
  const plan = planSlots(queue, input.windows, input.timezone, now, released);
  const taken = new Map<string, string>();
  const perDay = new Map<string, number>();
  const today = localDateOf(now, input.timezone);
  perDay.set(today, postsToday(released, input.timezone, now));
  for (const p of plan) {
    taken.set(`${p.localDate} ${p.slot}`, p.id);
    perDay.set(p.localDate, (perDay.get(p.localDate) ?? 0) + 1);
  }
  const out: WindowChoice[] = [];
  for (let d = 0; d < input.days; d++) {
    const localDate = addDays(today, d);
    for (const slot of daySlots(input.windows, input.timezone, localDate)) {
      if (slot.kind !== 'window' || slot.start.getTime() <= now) continue;
      const by = taken.get(`${localDate} ${slot.label}`);
      const full = (perDay.get(localDate) ?? 0) >= MAX_POSTS_PER_DAY;
      const choice: WindowChoice = {
        start: slot.start,
        localDate,
        label: slot.label,
        state: by !== undefined ? 'taken' : full ? 'day_at_cap' : 'free',
      };
      if (by !== undefined) choice.takenBy = by;
      out.push(choice);
    }
  }
  return out;
}

export type MoveRefusal = 'outside_windows' | 'window_passed' | 'window_taken' | 'day_at_cap';

export type MoveCheck =
  { ok: true; choice: WindowChoice } | { ok: false; reason: MoveRefusal; choice?: WindowChoice };

/**
 * Whether an item may be moved to the window starting at `at`: it must be a window start of
 * the account's schedule on that local day, still ahead, free and under the day's cap.
 */
export function checkMove(input: Omit<ChoiceInput, 'days'>, at: Instant): MoveCheck {
  const ts = toEpochMs(at);
  const now = toEpochMs(input.now);
  const localDate = localDateOf(ts, input.timezone);
  const isWindow = daySlots(input.windows, input.timezone, localDate).some(
    (s) => s.kind === 'window' && s.start.getTime() === ts,
  );
  if (!isWindow) return { ok: false, reason: 'outside_windows' };
  if (ts <= now) return { ok: false, reason: 'window_passed' };
  const today = localDateOf(now, input.timezone);
  const days = Math.round((Date.parse(localDate) - Date.parse(today)) / 86_400_000) + 1;
  const choice = windowChoices({ ...input, days }).find((c) => c.start.getTime() === ts);
  // A window start ahead of now on a day within the horizon is always among the choices.
  if (!choice) return { ok: false, reason: 'outside_windows' };
  if (choice.state === 'taken') return { ok: false, reason: 'window_taken', choice };
  if (choice.state === 'day_at_cap') return { ok: false, reason: 'day_at_cap', choice };
  return { ok: true, choice };
}

/**
 * Where the planner puts `entry` (a new item, or an existing one with a new floor) among the
 * account's queue: its planned slot start, or null when it is not planned.
 */
export function plannedStartOf(
  input: Omit<ChoiceInput, 'days' | 'exclude'>,
  entry: QueueEntry,
): Date | null {
  const queue = [...input.queue.filter((e) => e.id !== entry.id), entry];
  const plan = planSlots(queue, input.windows, input.timezone, input.now, input.releasedToday);
  return plan.find((p) => p.id === entry.id)?.scheduledSlotStart ?? null;
}
