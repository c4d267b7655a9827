// Property tests: a simulated dispatcher steps a clock through random multi-day spans
// (DST days included) with random valid schedules, queues and outages, using decideRelease
// and pickNext exactly as the real dispatcher does; invariants of SPEC 4.5 and DECISIONS 5
// are checked against the simulation's ground truth.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  daySlots,
  decideRelease,
  nextWindowStart,
  planSlots,
  slotAt,
} from '../../src/schedule/windows.ts';
import type { Slot } from '../../src/schedule/windows.ts';
import { oldestReadyAt, pickNext } from '../../src/schedule/release-order.ts';
import { addDays, localDateOf } from '../../src/schedule/local-time.ts';
import {
  MAX_POSTS_PER_DAY,
  STANDARD_SLOTS,
  checkWindows,
} from '../../src/schedule/schedule-rules.ts';

const MIN = 60_000;
const DAY = 86_400_000;

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'America/Santiago',
];

// Days around the 2026 transitions of the zones above, plus ordinary days.
const START_DATES = [
  '2026-03-07',
  '2026-10-31',
  '2026-03-28',
  '2026-10-24',
  '2026-04-04',
  '2026-10-03',
  '2026-09-26',
  '2026-09-05',
  '2026-06-15',
  '2026-01-10',
];

interface Item {
  id: string;
  priority: number;
  queuedAt: number;
  readyAt: number;
}

interface Released {
  id: string;
  at: number;
  readyAt: number;
  slot: Slot;
}

const hhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Valid schedules per SPEC 4.5 rule 1, built directly rather than filtered. */
const windowsArb = fc.integer({ min: 1, max: 4 }).chain((k) => {
  const slack = 540 - 180 * (k - 1);
  return fc
    .array(fc.integer({ min: 0, max: slack }), { minLength: k, maxLength: k })
    .map((cuts) => [...cuts].sort((a, b) => a - b).map((c, i) => hhmm(480 + 180 * i + c)));
});

const scenarioArb = fc.record({
  timezone: fc.constantFrom(...ZONES),
  windows: windowsArb,
  startDate: fc.constantFrom(...START_DATES),
  startShiftHours: fc.integer({ min: -14, max: 14 }),
  days: fc.integer({ min: 2, max: 4 }),
  items: fc.array(
    fc.record({
      priority: fc.integer({ min: 0, max: 3 }),
      readyMinute: fc.integer({ min: -1440, max: 4 * 1440 }),
      approvalDelay: fc.integer({ min: 0, max: 600 }),
    }),
    { maxLength: 16 },
  ),
  steps: fc.array(fc.integer({ min: 1, max: 240 }), { minLength: 1, maxLength: 12 }),
  outages: fc.array(
    fc.record({ startMinute: fc.nat(4 * 1440), length: fc.integer({ min: 10, max: 900 }) }),
    { maxLength: 3 },
  ),
  punctual: fc.boolean(),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function setup(s: Scenario) {
  const start = Date.parse(`${s.startDate}T00:00:00Z`) + s.startShiftHours * 3_600_000;
  const end = start + s.days * DAY;
  const items: Item[] = s.items.map((it, i) => {
    const readyAt = start + it.readyMinute * MIN;
    return {
      id: `i${String(i).padStart(2, '0')}`,
      priority: it.priority,
      queuedAt: readyAt - it.approvalDelay * MIN,
      readyAt,
    };
  });
  const outages = s.outages.map((o) => [
    start + o.startMinute * MIN,
    start + (o.startMinute + o.length) * MIN,
  ]);
  const down = (t: number) => outages.some(([a, b]) => t >= a! && t < b!);
  return { start, end, items, down };
}

/** All slots of the local days overlapping [from, to). */
function slotsBetween(windows: string[], tz: string, from: number, to: number): Slot[] {
  const out: Slot[] = [];
  const last = addDays(localDateOf(to, tz), 1);
  for (let d = addDays(localDateOf(from, tz), -1); d <= last; d = addDays(d, 1)) {
    out.push(...daySlots(windows, tz, d));
  }
  return out;
}

function tickTimes(
  s: Scenario,
  start: number,
  end: number,
  slots: Slot[],
  down: (t: number) => boolean,
) {
  const ticks = new Set<number>();
  let t = start;
  for (let i = 0; t < end; i++) {
    ticks.add(t);
    t += s.steps[i % s.steps.length]! * MIN;
  }
  if (s.punctual) {
    for (const slot of slots) {
      const at = slot.start.getTime();
      if (at >= start && at < end) ticks.add(at);
    }
  }
  return [...ticks].filter((x) => !down(x)).sort((a, b) => a - b);
}

/** One dispatcher step at `now`: decide, pick, record. Returns the release made, if any. */
function step(
  windows: string[],
  timezone: string,
  items: Item[],
  released: Released[],
  releasedIds: Set<string>,
  now: number,
): Released | null {
  const queue = items.filter((it) => it.readyAt <= now && !releasedIds.has(it.id));
  const decision = decideRelease({
    windows,
    timezone,
    releases: released.map((r) => ({ at: r.at, readyAt: r.readyAt })),
    oldestReadyAt: oldestReadyAt(queue),
    now,
  });
  if (!decision.due) return null;
  assert.ok(decision.postsToday < MAX_POSTS_PER_DAY);
  const next = pickNext(queue, decision.cutoff);
  assert.ok(next, 'a due decision always has an eligible item');
  const release = { id: next.id, at: now, readyAt: next.readyAt, slot: decision.slot };
  released.push(release);
  releasedIds.add(next.id);
  return release;
}

function countBy<T>(values: T[], key: (v: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(key(v), (m.get(key(v)) ?? 0) + 1);
  return m;
}

describe('simulated dispatcher', () => {
  test('cap, one release per slot, windows and make-up only, eligibility', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const { windows, timezone: tz } = s;
        assert.equal(checkWindows(windows), null);
        const { start, end, items, down } = setup(s);
        const slots = slotsBetween(windows, tz, start, end);
        const released: Released[] = [];
        const ids = new Set<string>();
        for (const now of tickTimes(s, start, end, slots, down)) {
          step(windows, tz, items, released, ids, now);
        }

        const perDay = countBy(released, (r) => localDateOf(r.at, tz));
        for (const n of perDay.values()) {
          assert.ok(n <= MAX_POSTS_PER_DAY);
          // Make-ups only replace missed windows, so a day never exceeds its window count.
          assert.ok(n <= windows.length);
        }
        for (const n of countBy(released, (r) => `${r.slot.localDate} ${r.slot.label}`).values()) {
          assert.equal(n, 1);
        }
        for (const r of released) {
          const slot = slotAt(windows, tz, r.at);
          assert.ok(slot);
          assert.deepEqual(slot, r.slot);
          if (slot.kind === 'window') assert.ok(windows.includes(slot.label));
          else assert.ok(STANDARD_SLOTS.includes(slot.label) && !windows.includes(slot.label));
          assert.ok(r.readyAt <= slot.start.getTime(), 'item was ready at the slot start');
        }

        // Make-up releases are justified by the ground truth of missed windows (DECISIONS 5).
        const releasedAt = new Map(released.map((r) => [r.id, r.at]));
        const hasRelease = (slot: Slot) =>
          released.some((r) => r.at >= slot.start.getTime() && r.at < slot.end.getTime());
        const dueAt = (t: number) =>
          items.some((it) => it.readyAt <= t && (releasedAt.get(it.id) ?? Infinity) > t);
        for (const r of released.filter((x) => x.slot.kind === 'makeup')) {
          const earlier = slots.filter(
            (x) => x.localDate === r.slot.localDate && x.start < r.slot.start,
          );
          const missed = earlier.filter(
            (x) => x.kind === 'window' && !hasRelease(x) && dueAt(x.start.getTime()),
          ).length;
          const madeUp = earlier.filter((x) => x.kind === 'makeup' && hasRelease(x)).length;
          assert.ok(missed > madeUp, 'make-up only for a missed window');
        }

        // Liveness: a punctual dispatcher releases in every window that has an item due.
        if (s.punctual) {
          for (const w of slots) {
            const t = w.start.getTime();
            if (w.kind !== 'window' || t < start || t >= end || down(t)) continue;
            const before = released.filter(
              (r) => r.slot.localDate === w.localDate && r.at < t,
            ).length;
            if (dueAt(t) && before < MAX_POSTS_PER_DAY) assert.ok(hasRelease(w));
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  test('planSlots predicts the releases of a punctual dispatcher', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.integer({ min: 0, max: 2 * 1440 }),
        fc.integer({ min: 0, max: 720 }),
        (generated, splitMinute, outageBeforeSplit) => {
          // Everything becomes ready before t0, so the plan has work beyond the first day.
          const s = {
            ...generated,
            items: generated.items.map((it) => ({
              ...it,
              readyMinute: -1440 + ((it.readyMinute + 1440) % (splitMinute + 1441)),
            })),
            // An outage right before t0 leaves missed windows whose make-up is still owed.
            outages: [
              ...generated.outages,
              { startMinute: splitMinute - outageBeforeSplit, length: outageBeforeSplit },
            ],
          };
          const { windows, timezone: tz } = s;
          const { start, end, items, down } = setup(s);
          const t0 = start + splitMinute * MIN;
          const history = slotsBetween(windows, tz, start, t0);
          const released: Released[] = [];
          const ids = new Set<string>();
          // Phase 1: irregular ticks and outages up to t0, so misses and make-ups are owed.
          for (const now of tickTimes(s, start, Math.min(t0, end), history, down)) {
            step(windows, tz, items, released, ids, now);
          }
          // Phase 2: from t0 nothing new is queued and the dispatcher ticks at every slot start.
          const queued = items.filter((it) => it.readyAt <= t0 && !ids.has(it.id));
          const predicted = planSlots(
            queued,
            windows,
            tz,
            t0,
            released.map((r) => ({ at: r.at, readyAt: r.readyAt })),
          ).map((p) => `${p.id} ${p.scheduledSlotStart.toISOString()} ${p.slot} ${p.kind}`);

          const actual: string[] = [];
          const record = (r: Released | null) => {
            if (r)
              actual.push(`${r.id} ${r.slot.start.toISOString()} ${r.slot.label} ${r.slot.kind}`);
          };
          record(step(windows, tz, queued, released, ids, t0));
          let date = localDateOf(t0, tz);
          for (let d = 0; d < 60 && actual.length < queued.length; d++, date = addDays(date, 1)) {
            for (const slot of daySlots(windows, tz, date)) {
              const at = slot.start.getTime();
              if (at > t0) record(step(windows, tz, queued, released, ids, at));
            }
          }
          assert.deepEqual(predicted, actual);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('schedule changes never break the cap or reuse a slot', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 * 1440 }), windowsArb), { maxLength: 3 }),
        (s, changes) => {
          const { timezone: tz } = s;
          const { start, end, items, down } = setup(s);
          const plan = [...changes]
            .map(([minute, w]) => [start + minute * MIN, w] as const)
            .sort((a, b) => a[0] - b[0]);
          const windowsAt = (t: number) => {
            let w = s.windows;
            for (const [from, next] of plan) if (t >= from) w = next;
            return w;
          };
          const slots = slotsBetween(STANDARD_SLOTS as string[], tz, start, end);
          const released: Released[] = [];
          const ids = new Set<string>();
          for (const now of tickTimes(s, start, end, slots, down)) {
            const r = step(windowsAt(now), tz, items, released, ids, now);
            if (r) assert.equal(slotAt(windowsAt(now), tz, now)?.label, r.slot.label);
          }
          for (const n of countBy(released, (r) => localDateOf(r.at, tz)).values()) {
            assert.ok(n <= MAX_POSTS_PER_DAY);
          }
          for (const n of countBy(
            released,
            (r) => `${r.slot.localDate} ${r.slot.label}`,
          ).values()) {
            assert.equal(n, 1);
          }
        },
      ),
      { numRuns: 250 },
    );
  });
});

describe('nextWindowStart properties', () => {
  test('is the earliest window start at or after now', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        windowsArb,
        fc.constantFrom(...START_DATES),
        fc.integer({ min: -1440, max: 3 * 1440 }),
        (tz, windows, date, minute) => {
          const now = Date.parse(`${date}T00:00:00Z`) + minute * MIN;
          const next = nextWindowStart(windows, tz, now).getTime();
          assert.ok(next >= now);
          const slot = slotAt(windows, tz, next);
          assert.ok(slot && slot.kind === 'window' && slot.start.getTime() === next);
          const skipped = slotsBetween(windows, tz, now, next).filter(
            (x) => x.kind === 'window' && x.start.getTime() >= now && x.start.getTime() < next,
          );
          assert.deepEqual(skipped, []);
        },
      ),
      { numRuns: 300 },
    );
  });
});
