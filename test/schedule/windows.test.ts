import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  daySlots,
  decideRelease,
  nextWindowStart,
  planSlots,
  postsToday,
  queueDepth,
  slotAt,
} from '../../src/schedule/windows.ts';
import type { ReleaseDecision, ReleaseRecord } from '../../src/schedule/windows.ts';
import { compareReleaseOrder, oldestReadyAt, pickNext } from '../../src/schedule/release-order.ts';
import type { QueueEntry } from '../../src/schedule/release-order.ts';
import { STANDARD_SLOTS } from '../../src/schedule/schedule-rules.ts';

const STD = [...STANDARD_SLOTS];
const at = (s: string): Date => new Date(s);
const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

function slotTable(windows: string[], tz: string, date: string): string[][] {
  return daySlots(windows, tz, date).map((s) => [s.label, s.kind, iso(s.start)!, iso(s.end)!]);
}

function decide(
  windows: string[],
  timezone: string,
  now: string,
  releases: ReleaseRecord[] = [],
  oldest: string | null = null,
): ReleaseDecision {
  return decideRelease({
    windows,
    timezone,
    releases,
    oldestReadyAt: oldest === null ? null : at(oldest),
    now: at(now),
  });
}

function summary(d: ReleaseDecision): string {
  if (d.due)
    return `due ${d.slot.label} ${d.slot.kind} ${iso(d.slot.start)} cutoff ${iso(d.cutoff)}`;
  return `${d.reason}${d.slot ? ` ${d.slot.label}` : ''}`;
}

function item(id: string, priority: number, queuedAt: string, extra: Partial<QueueEntry> = {}) {
  return { id, priority, queuedAt: at(queuedAt), ...extra };
}

function plan(
  queue: QueueEntry[],
  windows: string[],
  tz: string,
  now: string,
  released: ReleaseRecord[] = [],
): string[] {
  return planSlots(queue, windows, tz, at(now), released).map(
    (p) => `${p.id} ${iso(p.scheduledSlotStart)} ${p.slot} ${p.kind}`,
  );
}

describe('daySlots: the slot timeline of a local day', () => {
  test('windows plus unused standard slots, each open until the next slot or end of day', () => {
    assert.deepEqual(slotTable(['08:00', '14:00'], 'UTC', '2026-05-01'), [
      ['08:00', 'window', '2026-05-01T08:00:00.000Z', '2026-05-01T11:00:00.000Z'],
      ['11:00', 'makeup', '2026-05-01T11:00:00.000Z', '2026-05-01T14:00:00.000Z'],
      ['14:00', 'window', '2026-05-01T14:00:00.000Z', '2026-05-01T17:00:00.000Z'],
      ['17:00', 'makeup', '2026-05-01T17:00:00.000Z', '2026-05-02T00:00:00.000Z'],
    ]);
  });

  test('non-standard windows in Asia/Kathmandu (+05:45)', () => {
    assert.deepEqual(slotTable(['09:30', '12:30', '15:30'], 'Asia/Kathmandu', '2026-06-01'), [
      ['08:00', 'makeup', '2026-06-01T02:15:00.000Z', '2026-06-01T03:45:00.000Z'],
      ['09:30', 'window', '2026-06-01T03:45:00.000Z', '2026-06-01T05:15:00.000Z'],
      ['11:00', 'makeup', '2026-06-01T05:15:00.000Z', '2026-06-01T06:45:00.000Z'],
      ['12:30', 'window', '2026-06-01T06:45:00.000Z', '2026-06-01T08:15:00.000Z'],
      ['14:00', 'makeup', '2026-06-01T08:15:00.000Z', '2026-06-01T09:45:00.000Z'],
      ['15:30', 'window', '2026-06-01T09:45:00.000Z', '2026-06-01T11:15:00.000Z'],
      ['17:00', 'makeup', '2026-06-01T11:15:00.000Z', '2026-06-01T18:15:00.000Z'],
    ]);
  });

  test('Asia/Kolkata (+05:30) standard slots', () => {
    assert.deepEqual(slotTable(STD, 'Asia/Kolkata', '2026-06-01'), [
      ['08:00', 'window', '2026-06-01T02:30:00.000Z', '2026-06-01T05:30:00.000Z'],
      ['11:00', 'window', '2026-06-01T05:30:00.000Z', '2026-06-01T08:30:00.000Z'],
      ['14:00', 'window', '2026-06-01T08:30:00.000Z', '2026-06-01T11:30:00.000Z'],
      ['17:00', 'window', '2026-06-01T11:30:00.000Z', '2026-06-01T18:30:00.000Z'],
    ]);
  });

  test('America/New_York on both 2026 transition days', () => {
    assert.deepEqual(slotTable(STD, 'America/New_York', '2026-03-08'), [
      ['08:00', 'window', '2026-03-08T12:00:00.000Z', '2026-03-08T15:00:00.000Z'],
      ['11:00', 'window', '2026-03-08T15:00:00.000Z', '2026-03-08T18:00:00.000Z'],
      ['14:00', 'window', '2026-03-08T18:00:00.000Z', '2026-03-08T21:00:00.000Z'],
      ['17:00', 'window', '2026-03-08T21:00:00.000Z', '2026-03-09T04:00:00.000Z'],
    ]);
    assert.deepEqual(slotTable(STD, 'America/New_York', '2026-11-01'), [
      ['08:00', 'window', '2026-11-01T13:00:00.000Z', '2026-11-01T16:00:00.000Z'],
      ['11:00', 'window', '2026-11-01T16:00:00.000Z', '2026-11-01T19:00:00.000Z'],
      ['14:00', 'window', '2026-11-01T19:00:00.000Z', '2026-11-01T22:00:00.000Z'],
      ['17:00', 'window', '2026-11-01T22:00:00.000Z', '2026-11-02T05:00:00.000Z'],
    ]);
  });

  test('Europe/London on both 2026 transition days', () => {
    assert.deepEqual(slotTable(['08:00'], 'Europe/London', '2026-03-29')[0], [
      '08:00',
      'window',
      '2026-03-29T07:00:00.000Z',
      '2026-03-29T10:00:00.000Z',
    ]);
    assert.deepEqual(slotTable(['08:00'], 'Europe/London', '2026-10-25').at(-1), [
      '17:00',
      'makeup',
      '2026-10-25T17:00:00.000Z',
      '2026-10-26T00:00:00.000Z',
    ]);
  });

  test('Australia/Lord_Howe 2026-04-05 (+11 to +10:30) and 2026-10-04 (+10:30 to +11)', () => {
    assert.deepEqual(slotTable(['08:00', '17:00'], 'Australia/Lord_Howe', '2026-04-05'), [
      ['08:00', 'window', '2026-04-04T21:30:00.000Z', '2026-04-05T00:30:00.000Z'],
      ['11:00', 'makeup', '2026-04-05T00:30:00.000Z', '2026-04-05T03:30:00.000Z'],
      ['14:00', 'makeup', '2026-04-05T03:30:00.000Z', '2026-04-05T06:30:00.000Z'],
      ['17:00', 'window', '2026-04-05T06:30:00.000Z', '2026-04-05T13:30:00.000Z'],
    ]);
    assert.deepEqual(slotTable(['08:00', '17:00'], 'Australia/Lord_Howe', '2026-10-04'), [
      ['08:00', 'window', '2026-10-03T21:00:00.000Z', '2026-10-04T00:00:00.000Z'],
      ['11:00', 'makeup', '2026-10-04T00:00:00.000Z', '2026-10-04T03:00:00.000Z'],
      ['14:00', 'makeup', '2026-10-04T03:00:00.000Z', '2026-10-04T06:00:00.000Z'],
      ['17:00', 'window', '2026-10-04T06:00:00.000Z', '2026-10-04T13:00:00.000Z'],
    ]);
  });

  test('Pacific/Chatham (+12:45 / +13:45) on its April transition day', () => {
    assert.deepEqual(slotTable(['08:00'], 'Pacific/Chatham', '2026-04-05')[0], [
      '08:00',
      'window',
      '2026-04-04T19:15:00.000Z',
      '2026-04-04T22:15:00.000Z',
    ]);
  });

  test('windows that straddle the UTC date line', () => {
    assert.deepEqual(slotTable(STD, 'Pacific/Kiritimati', '2026-05-02'), [
      ['08:00', 'window', '2026-05-01T18:00:00.000Z', '2026-05-01T21:00:00.000Z'],
      ['11:00', 'window', '2026-05-01T21:00:00.000Z', '2026-05-02T00:00:00.000Z'],
      ['14:00', 'window', '2026-05-02T00:00:00.000Z', '2026-05-02T03:00:00.000Z'],
      ['17:00', 'window', '2026-05-02T03:00:00.000Z', '2026-05-02T10:00:00.000Z'],
    ]);
    assert.deepEqual(slotTable(['08:00', '14:00'], 'Pacific/Pago_Pago', '2026-05-01'), [
      ['08:00', 'window', '2026-05-01T19:00:00.000Z', '2026-05-01T22:00:00.000Z'],
      ['11:00', 'makeup', '2026-05-01T22:00:00.000Z', '2026-05-02T01:00:00.000Z'],
      ['14:00', 'window', '2026-05-02T01:00:00.000Z', '2026-05-02T04:00:00.000Z'],
      ['17:00', 'makeup', '2026-05-02T04:00:00.000Z', '2026-05-02T11:00:00.000Z'],
    ]);
  });

  test('a skipped local date has no slots; malformed input throws', () => {
    assert.deepEqual(daySlots(STD, 'Pacific/Apia', '2011-12-30'), []);
    assert.throws(() => daySlots([], 'UTC', '2026-05-01'), RangeError);
    assert.throws(() => daySlots(['8:00'], 'UTC', '2026-05-01'), RangeError);
    assert.throws(() => daySlots(STD, 'Nowhere/Special', '2026-05-01'), RangeError);
    assert.throws(() => daySlots(STD, 'UTC', '2026-13-01'), RangeError);
  });

  test('slotAt maps an instant to the slot whose open period contains it', () => {
    assert.equal(slotAt(['08:00', '14:00'], 'UTC', at('2026-05-01T07:59:59Z')), null);
    assert.equal(slotAt(['08:00', '14:00'], 'UTC', at('2026-05-01T10:59:59Z'))?.label, '08:00');
    assert.equal(slotAt(['08:00', '14:00'], 'UTC', at('2026-05-01T11:00:00Z'))?.kind, 'makeup');
    assert.equal(slotAt(['08:00', '14:00'], 'UTC', at('2026-05-01T23:59:59Z'))?.label, '17:00');
  });
});

describe('nextWindowStart', () => {
  const cases: [string[], string, string, string][] = [
    [STD, 'UTC', '2026-05-01T08:00:00.000Z', '2026-05-01T08:00:00.000Z'],
    [STD, 'UTC', '2026-05-01T08:00:00.001Z', '2026-05-01T11:00:00.000Z'],
    [STD, 'UTC', '2026-05-01T17:00:01.000Z', '2026-05-02T08:00:00.000Z'],
    [['08:00', '14:00'], 'UTC', '2026-05-01T09:00:00.000Z', '2026-05-01T14:00:00.000Z'],
    [STD, 'America/New_York', '2026-03-07T22:00:00.000Z', '2026-03-07T22:00:00.000Z'],
    [STD, 'America/New_York', '2026-03-07T22:00:01.000Z', '2026-03-08T12:00:00.000Z'],
    [STD, 'America/New_York', '2026-10-31T21:00:01.000Z', '2026-11-01T13:00:00.000Z'],
    [STD, 'Europe/London', '2026-03-28T17:30:00.000Z', '2026-03-29T07:00:00.000Z'],
    [STD, 'Europe/London', '2026-10-24T16:30:00.000Z', '2026-10-25T08:00:00.000Z'],
    [STD, 'Australia/Lord_Howe', '2026-04-04T07:00:00.000Z', '2026-04-04T21:30:00.000Z'],
    [STD, 'Australia/Lord_Howe', '2026-10-03T07:00:00.000Z', '2026-10-03T21:00:00.000Z'],
    [['08:00'], 'Pacific/Chatham', '2026-04-04T12:00:00.000Z', '2026-04-04T19:15:00.000Z'],
    [
      ['09:30', '12:30', '15:30'],
      'Asia/Kolkata',
      '2026-06-01T06:00:00.000Z',
      '2026-06-01T07:00:00.000Z',
    ],
    [
      ['09:30', '12:30', '15:30'],
      'Asia/Kathmandu',
      '2026-06-01T06:00:00.000Z',
      '2026-06-01T06:45:00.000Z',
    ],
    [STD, 'Pacific/Kiritimati', '2026-05-01T12:00:00.000Z', '2026-05-01T18:00:00.000Z'],
    [STD, 'Pacific/Pago_Pago', '2026-05-01T23:00:00.000Z', '2026-05-02T01:00:00.000Z'],
    [['08:00'], 'Pacific/Apia', '2011-12-29T20:00:00.000Z', '2011-12-30T18:00:00.000Z'],
  ];
  for (const [windows, tz, now, expected] of cases) {
    test(`${tz} ${windows.join(',')} at ${now} is ${expected}`, () => {
      assert.equal(iso(nextWindowStart(windows, tz, at(now))), expected);
    });
  }

  test('accepts epoch milliseconds', () => {
    assert.equal(
      iso(nextWindowStart(STD, 'UTC', Date.parse('2026-05-01T12:00:00Z'))),
      '2026-05-01T14:00:00.000Z',
    );
  });
});

describe('decideRelease: one release per window', () => {
  const W = ['08:00', '14:00'];
  const day = '2026-05-01';
  test('nothing is open before the first slot of the day', () => {
    assert.equal(
      summary(decide(W, 'UTC', `${day}T07:59:59Z`, [], '2026-04-30T00:00:00Z')),
      'no_open_slot',
    );
  });
  test('a window is due from its start, with the start as eligibility cutoff', () => {
    assert.equal(
      summary(decide(W, 'UTC', `${day}T08:00:00Z`, [], `${day}T07:00:00Z`)),
      'due 08:00 window 2026-05-01T08:00:00.000Z cutoff 2026-05-01T08:00:00.000Z',
    );
  });
  test('a dispatcher 10 minutes late still releases in the window', () => {
    assert.equal(
      summary(decide(W, 'UTC', `${day}T08:10:00Z`, [], `${day}T07:00:00Z`)),
      'due 08:00 window 2026-05-01T08:00:00.000Z cutoff 2026-05-01T08:00:00.000Z',
    );
  });
  test('items that became ready after the window opened wait for the next slot', () => {
    assert.equal(
      summary(decide(W, 'UTC', `${day}T08:10:00Z`, [], `${day}T08:05:00Z`)),
      'nothing_due 08:00',
    );
    assert.equal(summary(decide(W, 'UTC', `${day}T08:10:00Z`, [], null)), 'nothing_due 08:00');
  });
  test('the window is used once something was released in it', () => {
    const d = decide(W, 'UTC', `${day}T10:59:00Z`, [at(`${day}T08:05:00Z`)], `${day}T07:00:00Z`);
    assert.equal(summary(d), 'slot_already_released 08:00');
    assert.equal(d.postsToday, 1);
  });
  test('releases of earlier days neither use a slot nor count', () => {
    const d = decide(
      W,
      'UTC',
      `${day}T08:00:00Z`,
      [at('2026-04-30T08:00:00Z')],
      `${day}T07:00:00Z`,
    );
    assert.equal(d.due, true);
    assert.equal(d.postsToday, 0);
  });
});

describe('decideRelease: make-up (DECISIONS 5)', () => {
  const W = ['08:00', '14:00'];
  const day = '2026-05-01';
  test('a missed window with an item due is made up in the next unused standard slot', () => {
    assert.equal(
      summary(decide(W, 'UTC', `${day}T11:30:00Z`, [], `${day}T07:00:00Z`)),
      'due 11:00 makeup 2026-05-01T11:00:00.000Z cutoff 2026-05-01T11:00:00.000Z',
    );
  });
  test('no make-up when nothing was due at the window', () => {
    assert.equal(
      summary(decide(W, 'UTC', `${day}T11:30:00Z`, [], `${day}T09:00:00Z`)),
      'no_missed_window 11:00',
    );
  });
  test('no make-up when the window released', () => {
    assert.equal(
      summary(decide(W, 'UTC', `${day}T11:30:00Z`, [at(`${day}T08:05:00Z`)], `${day}T07:00:00Z`)),
      'no_missed_window 11:00',
    );
  });
  test('one make-up per missed window', () => {
    const releases = [at(`${day}T11:05:00Z`), at(`${day}T14:00:00Z`)];
    assert.equal(
      summary(decide(W, 'UTC', `${day}T17:05:00Z`, releases, `${day}T07:00:00Z`)),
      'no_missed_window 17:00',
    );
  });
  test('a release recorded with its readiness is evidence that a window was missed', () => {
    // 08:00 missed with item X due; X went out at 14:00; Y (ready 09:00) remains.
    const withReady = [{ at: at(`${day}T14:00:00Z`), readyAt: at(`${day}T07:00:00Z`) }];
    assert.equal(
      summary(decide(W, 'UTC', `${day}T17:00:00Z`, withReady, `${day}T09:00:00Z`)),
      'due 17:00 makeup 2026-05-01T17:00:00.000Z cutoff 2026-05-01T17:00:00.000Z',
    );
    const bare = [at(`${day}T14:00:00Z`)];
    assert.equal(
      summary(decide(W, 'UTC', `${day}T17:00:00Z`, bare, `${day}T09:00:00Z`)),
      'no_missed_window 17:00',
    );
  });
  test('two missed windows allow two make-ups; the make-up slot may be late too', () => {
    assert.equal(
      summary(decide(W, 'UTC', `${day}T17:10:00Z`, [], `${day}T07:00:00Z`)),
      'due 17:00 makeup 2026-05-01T17:00:00.000Z cutoff 2026-05-01T17:00:00.000Z',
    );
    assert.equal(
      summary(decide(['08:00'], 'UTC', `${day}T23:59:00Z`, [], `${day}T07:00:00Z`)),
      'due 17:00 makeup 2026-05-01T17:00:00.000Z cutoff 2026-05-01T17:00:00.000Z',
    );
  });
  test('misses do not carry over to the next local day', () => {
    assert.equal(
      summary(decide(['14:00'], 'UTC', '2026-05-02T08:30:00Z', [], `${day}T07:00:00Z`)),
      'no_missed_window 08:00',
    );
  });
  test('a schedule of all standard slots has no make-up slots', () => {
    assert.equal(
      summary(decide(STD, 'UTC', `${day}T11:30:00Z`, [], `${day}T07:00:00Z`)),
      'due 11:00 window 2026-05-01T11:00:00.000Z cutoff 2026-05-01T11:00:00.000Z',
    );
  });
  test('a window cut short by a make-up slot is made up right after it', () => {
    const W2 = ['10:59', '14:00'];
    assert.equal(
      summary(decide(W2, 'UTC', `${day}T10:59:30Z`, [], `${day}T07:00:00Z`)),
      'due 10:59 window 2026-05-01T10:59:00.000Z cutoff 2026-05-01T10:59:00.000Z',
    );
    assert.equal(
      summary(decide(W2, 'UTC', `${day}T11:01:00Z`, [], `${day}T07:00:00Z`)),
      'due 11:00 makeup 2026-05-01T11:00:00.000Z cutoff 2026-05-01T11:00:00.000Z',
    );
  });
});

describe('decideRelease: daily cap and DST days', () => {
  test('never a fifth release in a local day, whatever slots the releases were in', () => {
    const releases = [
      at('2026-05-01T06:00:00Z'),
      at('2026-05-01T08:00:00Z'),
      at('2026-05-01T11:00:00Z'),
      at('2026-05-01T14:00:00Z'),
    ];
    const d = decide(STD, 'UTC', '2026-05-01T17:00:00Z', releases, '2026-05-01T07:00:00Z');
    assert.equal(summary(d), 'daily_cap_reached 17:00');
    assert.equal(d.postsToday, 4);
  });

  test('America/New_York 2026-03-08: the 08:00 window opens at 12:00Z', () => {
    assert.equal(
      summary(decide(STD, 'America/New_York', '2026-03-08T11:59:00Z', [], '2026-03-07T00:00:00Z')),
      'no_open_slot',
    );
    assert.equal(
      summary(decide(STD, 'America/New_York', '2026-03-08T12:00:00Z', [], '2026-03-07T00:00:00Z')),
      'due 08:00 window 2026-03-08T12:00:00.000Z cutoff 2026-03-08T12:00:00.000Z',
    );
  });

  test('America/New_York 2026-11-01: the 17:00 window stays open through the extra hour', () => {
    const releases = [
      at('2026-11-01T13:00:00Z'),
      at('2026-11-01T16:00:00Z'),
      at('2026-11-01T19:00:00Z'),
    ];
    const d = decide(
      STD,
      'America/New_York',
      '2026-11-02T04:30:00Z',
      releases,
      '2026-11-01T20:00:00Z',
    );
    assert.equal(
      summary(d),
      'due 17:00 window 2026-11-01T22:00:00.000Z cutoff 2026-11-01T22:00:00.000Z',
    );
    assert.equal(d.postsToday, 3);
    const early = [...releases, at('2026-11-01T05:30:00Z')];
    assert.equal(
      summary(
        decide(STD, 'America/New_York', '2026-11-02T04:30:00Z', early, '2026-11-01T20:00:00Z'),
      ),
      'daily_cap_reached 17:00',
    );
  });

  test('Australia/Lord_Howe 2026-10-04 (23.5 h): make-up open until local midnight', () => {
    const tz = 'Australia/Lord_Howe';
    assert.equal(
      summary(decide(['08:00'], tz, '2026-10-04T12:59:00Z', [], '2026-10-03T00:00:00Z')),
      'due 17:00 makeup 2026-10-04T06:00:00.000Z cutoff 2026-10-04T06:00:00.000Z',
    );
    assert.equal(
      summary(decide(['08:00'], tz, '2026-10-04T13:00:00Z', [], '2026-10-03T00:00:00Z')),
      'no_open_slot',
    );
  });

  test('America/Santiago 2026-04-04 lasts 25 hours: 23:00-24:00 repeats before midnight', () => {
    const tz = 'America/Santiago';
    const releases = [at('2026-04-04T20:00:00Z'), at('2026-04-05T03:10:00Z')];
    assert.equal(postsToday(releases, tz, at('2026-04-05T03:30:00Z')), 2);
    assert.equal(postsToday(releases, tz, at('2026-04-05T04:00:00Z')), 0);
    assert.equal(
      summary(decide(STD, tz, '2026-04-05T03:30:00Z', releases, '2026-04-01T00:00:00Z')),
      'slot_already_released 17:00',
    );
    assert.equal(
      summary(decide(STD, tz, '2026-04-05T03:59:00Z', [], '2026-04-01T00:00:00Z')),
      'due 17:00 window 2026-04-04T20:00:00.000Z cutoff 2026-04-04T20:00:00.000Z',
    );
  });
});

describe('postsToday and queueDepth', () => {
  test('postsToday counts releases in the local day of now', () => {
    const releases: ReleaseRecord[] = [
      at('2026-05-01T18:00:00Z'),
      Date.parse('2026-05-02T03:00:00Z'),
      { at: at('2026-05-02T09:59:59Z') },
      at('2026-05-02T10:00:00Z'),
      at('2026-05-01T09:00:00Z'),
    ];
    // Kiritimati (+14): local 2026-05-02 is [2026-05-01T10:00Z, 2026-05-02T10:00Z).
    assert.equal(postsToday(releases, 'Pacific/Kiritimati', at('2026-05-01T12:00:00Z')), 3);
    assert.equal(postsToday(releases, 'Pacific/Kiritimati', at('2026-05-02T10:00:00Z')), 1);
    assert.equal(postsToday(releases, 'UTC', at('2026-05-01T23:00:00Z')), 2);
    assert.equal(postsToday([], 'UTC', at('2026-05-01T23:00:00Z')), 0);
  });

  test('queueDepth counts only items waiting in the posting queue', () => {
    const statuses = [
      'queued',
      'pending_approval',
      'queued',
      'posting',
      'processing',
      'posted',
      'queued',
    ];
    assert.equal(queueDepth(statuses.map((status) => ({ status }))), 3);
    assert.equal(queueDepth([]), 0);
  });
});

describe('release order', () => {
  test('priority desc, then queuedAt asc, then id', () => {
    const queue = [
      item('c', 0, '2026-04-29T10:00:00Z'),
      item('b', 2, '2026-05-01T07:00:00Z'),
      item('a2', 1, '2026-05-01T08:30:00Z'),
      item('a1', 1, '2026-05-01T08:30:00Z'),
      item('d', 2, '2026-05-01T06:00:00Z'),
    ];
    assert.deepEqual(
      [...queue].sort(compareReleaseOrder).map((q) => q.id),
      ['d', 'b', 'a1', 'a2', 'c'],
    );
  });

  test('pickNext only considers items ready by the cutoff', () => {
    const queue = [
      item('late-vip', 9, '2026-05-01T08:10:00Z'),
      item('early', 0, '2026-05-01T07:00:00Z'),
      item('approved-late', 5, '2026-05-01T06:00:00Z', { readyAt: at('2026-05-01T08:20:00Z') }),
      item('floor', 7, '2026-05-01T06:00:00Z', { scheduledAfter: at('2026-05-03T00:00:00Z') }),
    ];
    assert.equal(pickNext(queue, at('2026-05-01T08:00:00Z'))?.id, 'early');
    assert.equal(pickNext(queue, at('2026-05-01T08:15:00Z'))?.id, 'late-vip');
    assert.equal(pickNext(queue, at('2026-05-03T00:00:00Z'))?.id, 'late-vip');
    assert.equal(pickNext(queue, at('2026-05-01T06:59:00Z')), null);
    assert.equal(iso(oldestReadyAt(queue)), '2026-05-01T07:00:00.000Z');
    assert.equal(oldestReadyAt([]), null);
  });
});

describe('planSlots', () => {
  test('consumes future windows day by day in release order', () => {
    const queue = [
      item('a', 0, '2026-04-30T10:00:00Z'),
      item('b', 2, '2026-05-01T07:00:00Z'),
      item('c', 0, '2026-04-29T10:00:00Z'),
      item('d', 2, '2026-05-01T06:00:00Z'),
      item('e', 1, '2026-05-01T08:30:00Z'),
    ];
    assert.deepEqual(
      plan(queue, ['08:00', '14:00'], 'UTC', '2026-05-01T09:00:00Z', [at('2026-05-01T08:02:00Z')]),
      [
        'd 2026-05-01T14:00:00.000Z 14:00 window',
        'b 2026-05-02T08:00:00.000Z 08:00 window',
        'e 2026-05-02T14:00:00.000Z 14:00 window',
        'c 2026-05-03T08:00:00.000Z 08:00 window',
        'a 2026-05-03T14:00:00.000Z 14:00 window',
      ],
    );
  });

  test('respects the daily cap with releases already made today', () => {
    const queue = [1, 2, 3, 4, 5, 6].map((n) => item(`q${n}`, 0, `2026-04-30T0${n}:00:00Z`));
    const released = [
      at('2026-05-01T06:00:00Z'),
      at('2026-05-01T07:00:00Z'),
      at('2026-05-01T08:30:00Z'),
    ];
    assert.deepEqual(plan(queue, STD, 'UTC', '2026-05-01T10:00:00Z', released), [
      'q1 2026-05-01T11:00:00.000Z 11:00 window',
      'q2 2026-05-02T08:00:00.000Z 08:00 window',
      'q3 2026-05-02T11:00:00.000Z 11:00 window',
      'q4 2026-05-02T14:00:00.000Z 14:00 window',
      'q5 2026-05-02T17:00:00.000Z 17:00 window',
      'q6 2026-05-03T08:00:00.000Z 08:00 window',
    ]);
  });

  test('includes the make-up still owed today', () => {
    const queue = [
      item('x', 0, '2026-05-01T07:00:00Z'),
      item('y', 0, '2026-05-01T07:10:00Z'),
      item('z', 0, '2026-05-01T07:20:00Z'),
    ];
    assert.deepEqual(plan(queue, ['08:00', '14:00'], 'UTC', '2026-05-01T11:30:00Z'), [
      'x 2026-05-01T11:00:00.000Z 11:00 makeup',
      'y 2026-05-01T14:00:00.000Z 14:00 window',
      'z 2026-05-02T08:00:00.000Z 08:00 window',
    ]);
  });

  test('the open slot only takes items ready at its start', () => {
    const queue = [
      item('vip', 9, '2026-05-01T08:10:00Z'),
      item('old', 0, '2026-05-01T07:00:00Z'),
      item('approved', 5, '2026-05-01T06:00:00Z', { readyAt: at('2026-05-01T08:20:00Z') }),
      item('floor', 9, '2026-04-01T00:00:00Z', { scheduledAfter: at('2026-05-02T12:00:00Z') }),
    ];
    assert.deepEqual(plan(queue, ['08:00', '14:00'], 'UTC', '2026-05-01T08:30:00Z'), [
      'old 2026-05-01T08:00:00.000Z 08:00 window',
      'vip 2026-05-01T14:00:00.000Z 14:00 window',
      'approved 2026-05-02T08:00:00.000Z 08:00 window',
      'floor 2026-05-02T14:00:00.000Z 14:00 window',
    ]);
  });

  test('America/New_York across both 2026 transitions', () => {
    const three = ['a', 'b', 'c'].map((id) => item(id, 0, '2026-03-01T00:00:00Z'));
    assert.deepEqual(plan(three, ['08:00'], 'America/New_York', '2026-03-07T06:00:00Z'), [
      'a 2026-03-07T13:00:00.000Z 08:00 window',
      'b 2026-03-08T12:00:00.000Z 08:00 window',
      'c 2026-03-09T12:00:00.000Z 08:00 window',
    ]);
    const four = ['a', 'b', 'c', 'd'].map((id) => item(id, 0, '2026-10-01T00:00:00Z'));
    assert.deepEqual(plan(four, ['08:00', '17:00'], 'America/New_York', '2026-10-31T04:30:00Z'), [
      'a 2026-10-31T12:00:00.000Z 08:00 window',
      'b 2026-10-31T21:00:00.000Z 17:00 window',
      'c 2026-11-01T13:00:00.000Z 08:00 window',
      'd 2026-11-01T22:00:00.000Z 17:00 window',
    ]);
  });

  test('Australia/Lord_Howe across its 30-minute fall-back', () => {
    const four = ['a', 'b', 'c', 'd'].map((id) => item(id, 0, '2026-04-01T00:00:00Z'));
    assert.deepEqual(
      plan(four, ['08:00', '17:00'], 'Australia/Lord_Howe', '2026-04-03T20:00:00Z'),
      [
        'a 2026-04-03T21:00:00.000Z 08:00 window',
        'b 2026-04-04T06:00:00.000Z 17:00 window',
        'c 2026-04-04T21:30:00.000Z 08:00 window',
        'd 2026-04-05T06:30:00.000Z 17:00 window',
      ],
    );
  });

  test('Pacific/Kiritimati and Pacific/Pago_Pago across the UTC date line', () => {
    const two = ['a', 'b'].map((id) => item(id, 0, '2026-04-01T00:00:00Z'));
    assert.deepEqual(plan(two, ['14:00', '17:00'], 'Pacific/Kiritimati', '2026-05-01T12:00:00Z'), [
      'a 2026-05-02T00:00:00.000Z 14:00 window',
      'b 2026-05-02T03:00:00.000Z 17:00 window',
    ]);
    assert.deepEqual(plan(two, ['14:00', '17:00'], 'Pacific/Pago_Pago', '2026-05-01T12:00:00Z'), [
      'a 2026-05-02T01:00:00.000Z 14:00 window',
      'b 2026-05-02T04:00:00.000Z 17:00 window',
    ]);
  });

  test('planning right after missed windows includes their make-up', () => {
    // At 15:00 EST with nothing released today although items were due at 08:00.
    const two = ['a', 'b'].map((id) => item(id, 0, '2026-03-01T00:00:00Z'));
    assert.deepEqual(plan(two, ['08:00'], 'America/New_York', '2026-03-06T20:00:00Z'), [
      'a 2026-03-06T19:00:00.000Z 14:00 makeup',
      'b 2026-03-07T13:00:00.000Z 08:00 window',
    ]);
  });

  test('an empty queue plans nothing; a long queue stays cheap', () => {
    assert.deepEqual(planSlots([], STD, 'UTC', at('2026-05-01T00:00:00Z')), []);
    const many = Array.from({ length: 2000 }, (_, i) =>
      item(`m${String(i).padStart(4, '0')}`, i % 3, '2026-04-01T00:00:00Z'),
    );
    const started = performance.now();
    const out = planSlots(many, ['09:00'], 'America/New_York', at('2026-05-01T12:00:00Z'));
    assert.ok(performance.now() - started < 1500);
    assert.equal(out.length, 2000);
    assert.equal(out[0]!.id, 'm0002');
    assert.equal(iso(out[1999]!.scheduledSlotStart), '2031-10-21T13:00:00.000Z');
  });
});

describe('performance', () => {
  test('10,000 account decisions at one instant stay well under the benchmark budget', () => {
    const zones = [
      'UTC',
      'America/New_York',
      'Europe/London',
      'Asia/Kolkata',
      'Australia/Lord_Howe',
    ];
    const schedules = [STD, ['08:00', '14:00'], ['09:30', '12:30', '15:30']];
    const now = at('2026-03-08T15:05:00Z');
    const oldest = at('2026-03-01T00:00:00Z');
    const started = performance.now();
    let due = 0;
    for (let i = 0; i < 10_000; i++) {
      const d = decideRelease({
        windows: schedules[i % schedules.length]!,
        timezone: zones[i % zones.length]!,
        releases: [at('2026-03-08T12:01:00Z')],
        oldestReadyAt: oldest,
        now,
      });
      if (d.due) due++;
    }
    assert.ok(performance.now() - started < 500, 'decisions took too long');
    assert.ok(due > 0);
  });
});
