// Release order of an account's queued items (DECISIONS 5): highest `priority` first, then
// oldest `queuedAt`, then `id` (plain code-unit comparison) so the order is total and every
// replica of the dispatcher picks the same item.

import { toEpochMs } from './local-time.ts';
import type { Instant } from './local-time.ts';

/** A queued item as the dispatcher and the planner see it. */
export interface QueueEntry {
  id: string;
  /** SPEC 4.2 `priority` (integer >= 0); larger is released first. */
  priority: number;
  /** SPEC 2.6 `queuedAt`; orders items of equal priority. */
  queuedAt: Instant;
  /**
   * When the item entered status `queued` (its approval, for items that needed one); defaults
   * to `queuedAt`. An item is eligible for a slot only when it was ready at the slot's start.
   */
  readyAt?: Instant | null;
  /** Legacy earliest-release floor (SPEC 2.2 `scheduledAfter`); delays readiness when later. */
  scheduledAfter?: Instant | null;
}

/** Instant from which an entry may be released: the later of readyAt/queuedAt and scheduledAfter. */
export function effectiveReadyAt(entry: QueueEntry): number {
  const ready = toEpochMs(entry.readyAt ?? entry.queuedAt);
  if (entry.scheduledAfter === undefined || entry.scheduledAfter === null) return ready;
  return Math.max(ready, toEpochMs(entry.scheduledAfter));
}

/** Sort comparator for release order; negative when `a` goes out before `b`. */
export function compareReleaseOrder(a: QueueEntry, b: QueueEntry): number {
  return compareKeys(toKey(a), toKey(b));
}

/** Normalized entry used internally for fast ordering. */
export interface OrderKey {
  id: string;
  priority: number;
  queuedAt: number;
  ready: number;
}

export function toKey(entry: QueueEntry): OrderKey {
  return {
    id: entry.id,
    priority: entry.priority,
    queuedAt: toEpochMs(entry.queuedAt),
    ready: effectiveReadyAt(entry),
  };
}

export function compareKeys(a: OrderKey, b: OrderKey): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.queuedAt !== b.queuedAt) return a.queuedAt - b.queuedAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The item a release with eligibility cutoff `cutoff` (the slot start, see windows.ts) sends
 * out: the first in release order among items ready at or before the cutoff; null when none.
 */
export function pickNext<T extends QueueEntry>(queue: readonly T[], cutoff: Instant): T | null {
  const limit = toEpochMs(cutoff);
  let best: T | null = null;
  let bestKey: OrderKey | null = null;
  for (const entry of queue) {
    const key = toKey(entry);
    if (key.ready > limit) continue;
    if (bestKey === null || compareKeys(key, bestKey) < 0) {
      best = entry;
      bestKey = key;
    }
  }
  return best;
}

/** Earliest readiness among the queued items (the `oldestReadyAt` input of decideRelease). */
export function oldestReadyAt(queue: readonly QueueEntry[]): Date | null {
  let oldest = Infinity;
  for (const entry of queue) oldest = Math.min(oldest, effectiveReadyAt(entry));
  return oldest === Infinity ? null : new Date(oldest);
}

/** Binary min-heap in release order; the planner pops the next item to release from it. */
export class ReleaseHeap {
  private readonly items: OrderKey[] = [];

  get size(): number {
    return this.items.length;
  }

  push(key: OrderKey): void {
    const items = this.items;
    items.push(key);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent]!;
      if (compareKeys(p, key) <= 0) break;
      items[i] = p;
      i = parent;
    }
    items[i] = key;
  }

  pop(): OrderKey | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && compareKeys(items[right]!, items[left]!) < 0 ? right : left;
      const c = items[child]!;
      if (compareKeys(last, c) <= 0) break;
      items[i] = c;
      i = child;
    }
    items[i] = last;
    return top;
  }
}
