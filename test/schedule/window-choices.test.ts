import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkMove, plannedStartOf, windowChoices } from '../../src/schedule/window-choices.ts';
import { planSlots, type QueueEntry } from '../../src/schedule/windows.ts';

const WINDOWS = ['08:00', '14:00'];
const TZ = 'Europe/Berlin';
// Tuesday 2026-06-02 09:30 in Berlin (UTC+2).
const NOW = Date.parse('2026-06-02T07:30:00Z');
const entry = (id: string, queuedMinutesAgo: number, extra: Partial<QueueEntry> = {}) => ({
  id,
  priority: 0,
  queuedAt: NOW - queuedMinutesAgo * 60_000,
  ...extra,
});

describe('windowChoices', () => {
  test('lists window starts ahead of now, taken by the planned items', () => {
    const choices = windowChoices({
      queue: [entry('a', 60), entry('b', 30)],
      windows: WINDOWS,
      timezone: TZ,
      now: NOW,
      days: 2,
    });
    assert.deepEqual(
      choices.map((c) => [c.localDate, c.label, c.state, c.takenBy ?? null]),
      [
        ['2026-06-02', '14:00', 'taken', 'a'],
        ['2026-06-03', '08:00', 'taken', 'b'],
        ['2026-06-03', '14:00', 'free', null],
      ],
    );
    assert.equal(choices[0]!.start.toISOString(), '2026-06-02T12:00:00.000Z');
  });

  test('the moved item is left out, so its own window shows free', () => {
    const choices = windowChoices({
      queue: [entry('a', 60), entry('b', 30)],
      windows: WINDOWS,
      timezone: TZ,
      now: NOW,
      days: 1,
      exclude: 'a',
    });
    assert.deepEqual(
      choices.map((c) => [c.label, c.state, c.takenBy ?? null]),
      [['14:00', 'taken', 'b']],
    );
  });

  test('a day with four releases already is at its cap', () => {
    const released = ['06:10', '06:20', '06:30', '06:40'].map((t) =>
      Date.parse(`2026-06-02T${t}:00Z`),
    );
    const choices = windowChoices({
      queue: [],
      windows: WINDOWS,
      timezone: TZ,
      now: NOW,
      releasedToday: released,
      days: 2,
    });
    assert.deepEqual(
      choices.map((c) => [c.localDate, c.label, c.state]),
      [
        ['2026-06-02', '14:00', 'day_at_cap'],
        ['2026-06-03', '08:00', 'free'],
        ['2026-06-03', '14:00', 'free'],
      ],
    );
  });
});

describe('checkMove', () => {
  const input = {
    queue: [entry('a', 60), entry('b', 30)],
    windows: WINDOWS,
    timezone: TZ,
    now: NOW,
  };
  test('refuses what is not a window start, a past window, a taken window', () => {
    assert.deepEqual(checkMove(input, Date.parse('2026-06-03T10:00:00Z')), {
      ok: false,
      reason: 'outside_windows',
    });
    assert.equal(checkMove(input, Date.parse('2026-06-02T06:00:00Z')).ok, false);
    assert.equal(
      (checkMove(input, Date.parse('2026-06-02T06:00:00Z')) as { reason: string }).reason,
      'window_passed',
    );
    const taken = checkMove({ ...input, exclude: 'b' }, Date.parse('2026-06-02T12:00:00Z'));
    assert.equal(taken.ok, false);
    assert.equal((taken as { reason: string }).reason, 'window_taken');
    assert.equal(taken.choice?.takenBy, 'a');
  });
  test('accepts a free window days ahead', () => {
    const ok = checkMove({ ...input, exclude: 'a' }, Date.parse('2026-06-05T06:00:00Z'));
    assert.equal(ok.ok, true);
  });
});

describe('a floor set to a free window lands the item there', () => {
  test('property: any free window chosen is the planned slot, others keep theirs', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            priority: fc.integer({ min: 0, max: 3 }),
            age: fc.integer({ min: 0, max: 5000 }),
            floorDays: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.nat(),
        fc.nat(),
        (specs, pickItem, pickWindow) => {
          const queue: QueueEntry[] = specs.map((s, i) => ({
            id: `i${i}`,
            priority: s.priority,
            queuedAt: NOW - s.age * 60_000,
            scheduledAfter: s.floorDays === null ? null : NOW + s.floorDays * 86_400_000,
          }));
          const moved = queue[pickItem % queue.length]!;
          const base = { queue, windows: WINDOWS, timezone: TZ, now: NOW };
          const free = windowChoices({ ...base, exclude: moved.id, days: 8 }).filter(
            (c) => c.state === 'free',
          );
          if (free.length === 0) return;
          const target = free[pickWindow % free.length]!;
          assert.equal(checkMove({ ...base, exclude: moved.id }, target.start).ok, true);
          const floored = { ...moved, scheduledAfter: target.start.getTime() };
          assert.equal(plannedStartOf(base, floored)?.getTime(), target.start.getTime());
          // Items planned before the chosen window keep their slots.
          const before = planSlots(
            queue.filter((e) => e.id !== moved.id),
            WINDOWS,
            TZ,
            NOW,
          ).filter((p) => p.scheduledSlotStart < target.start);
          const after = new Map(
            planSlots([...queue.filter((e) => e.id !== moved.id), floored], WINDOWS, TZ, NOW).map(
              (p) => [p.id, p.scheduledSlotStart.getTime()],
            ),
          );
          for (const p of before) assert.equal(after.get(p.id), p.scheduledSlotStart.getTime());
        },
      ),
      { numRuns: 300 },
    );
  });
});
