import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import {
  addDays,
  localDateOf,
  localDayBounds,
  zonedInstant,
} from '../../src/schedule/local-time.ts';

const iso = (d: Date): string => d.toISOString();

function bounds(localDate: string, timezone: string): [string, string] {
  const b = localDayBounds(localDate, timezone);
  return [iso(b.start), iso(b.end)];
}

describe('zonedInstant: ordinary days and fractional offsets', () => {
  const cases: [string, string, string, string][] = [
    ['UTC', '2026-06-01', '08:00', '2026-06-01T08:00:00.000Z'],
    ['UTC', '2026-06-01', '17:00', '2026-06-01T17:00:00.000Z'],
    ['Asia/Kolkata', '2026-06-01', '08:00', '2026-06-01T02:30:00.000Z'],
    ['Asia/Kolkata', '2026-06-01', '17:00', '2026-06-01T11:30:00.000Z'],
    ['Asia/Kathmandu', '2026-06-01', '08:00', '2026-06-01T02:15:00.000Z'],
    ['Asia/Kathmandu', '2026-06-01', '17:00', '2026-06-01T11:15:00.000Z'],
    ['Pacific/Chatham', '2026-06-01', '08:00', '2026-05-31T19:15:00.000Z'],
    ['Pacific/Chatham', '2026-01-15', '08:00', '2026-01-14T18:15:00.000Z'],
    ['Australia/Lord_Howe', '2026-06-01', '08:00', '2026-05-31T21:30:00.000Z'],
    ['Australia/Lord_Howe', '2026-01-15', '08:00', '2026-01-14T21:00:00.000Z'],
    ['Pacific/Kiritimati', '2026-05-02', '08:00', '2026-05-01T18:00:00.000Z'],
    ['Pacific/Kiritimati', '2026-05-02', '17:00', '2026-05-02T03:00:00.000Z'],
    ['Pacific/Pago_Pago', '2026-05-01', '08:00', '2026-05-01T19:00:00.000Z'],
    ['Pacific/Pago_Pago', '2026-05-01', '14:00', '2026-05-02T01:00:00.000Z'],
    ['Pacific/Pago_Pago', '2026-05-01', '17:00', '2026-05-02T04:00:00.000Z'],
  ];
  for (const [tz, date, time, expected] of cases) {
    test(`${tz} ${date} ${time} is ${expected}`, () => {
      assert.equal(iso(zonedInstant(date, time, tz)), expected);
    });
  }
});

describe('zonedInstant: DST transitions', () => {
  test('America/New_York spring forward 2026-03-08', () => {
    assert.equal(
      iso(zonedInstant('2026-03-07', '08:00', 'America/New_York')),
      '2026-03-07T13:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-03-08', '08:00', 'America/New_York')),
      '2026-03-08T12:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-03-08', '17:00', 'America/New_York')),
      '2026-03-08T21:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-03-08', '01:59', 'America/New_York')),
      '2026-03-08T06:59:00.000Z',
    );
    // 02:00-02:59 does not exist: first valid instant after the gap is 03:00 EDT.
    assert.equal(
      iso(zonedInstant('2026-03-08', '02:00', 'America/New_York')),
      '2026-03-08T07:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-03-08', '02:30', 'America/New_York')),
      '2026-03-08T07:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-03-08', '03:00', 'America/New_York')),
      '2026-03-08T07:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-03-08', '03:01', 'America/New_York')),
      '2026-03-08T07:01:00.000Z',
    );
  });

  test('America/New_York fall back 2026-11-01', () => {
    assert.equal(
      iso(zonedInstant('2026-10-31', '08:00', 'America/New_York')),
      '2026-10-31T12:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-11-01', '08:00', 'America/New_York')),
      '2026-11-01T13:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-11-01', '17:00', 'America/New_York')),
      '2026-11-01T22:00:00.000Z',
    );
    // 01:00-01:59 happens twice: first occurrence (EDT).
    assert.equal(
      iso(zonedInstant('2026-11-01', '01:30', 'America/New_York')),
      '2026-11-01T05:30:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-11-01', '02:00', 'America/New_York')),
      '2026-11-01T07:00:00.000Z',
    );
  });

  test('Europe/London 2026-03-29 and 2026-10-25', () => {
    assert.equal(
      iso(zonedInstant('2026-03-28', '08:00', 'Europe/London')),
      '2026-03-28T08:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-03-29', '08:00', 'Europe/London')),
      '2026-03-29T07:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-03-29', '01:30', 'Europe/London')),
      '2026-03-29T01:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-10-24', '08:00', 'Europe/London')),
      '2026-10-24T07:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-10-25', '08:00', 'Europe/London')),
      '2026-10-25T08:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-10-25', '01:30', 'Europe/London')),
      '2026-10-25T00:30:00.000Z',
    );
  });

  test('Australia/Lord_Howe 30-minute shifts 2026-04-05 and 2026-10-04', () => {
    const tz = 'Australia/Lord_Howe';
    assert.equal(iso(zonedInstant('2026-04-04', '08:00', tz)), '2026-04-03T21:00:00.000Z');
    assert.equal(iso(zonedInstant('2026-04-05', '08:00', tz)), '2026-04-04T21:30:00.000Z');
    assert.equal(iso(zonedInstant('2026-04-05', '17:00', tz)), '2026-04-05T06:30:00.000Z');
    // 01:30-01:59 repeats (+11 then +10:30): first occurrence.
    assert.equal(iso(zonedInstant('2026-04-05', '01:45', tz)), '2026-04-04T14:45:00.000Z');
    assert.equal(iso(zonedInstant('2026-04-05', '02:00', tz)), '2026-04-04T15:30:00.000Z');
    assert.equal(iso(zonedInstant('2026-10-03', '08:00', tz)), '2026-10-02T21:30:00.000Z');
    assert.equal(iso(zonedInstant('2026-10-04', '08:00', tz)), '2026-10-03T21:00:00.000Z');
    // 02:00-02:29 does not exist: shifted to 02:30 +11.
    assert.equal(iso(zonedInstant('2026-10-04', '02:15', tz)), '2026-10-03T15:30:00.000Z');
    assert.equal(iso(zonedInstant('2026-10-04', '02:30', tz)), '2026-10-03T15:30:00.000Z');
  });

  test('Pacific/Chatham 45-minute offset transitions', () => {
    const tz = 'Pacific/Chatham';
    assert.equal(iso(zonedInstant('2026-04-05', '03:00', tz)), '2026-04-04T13:15:00.000Z');
    assert.equal(iso(zonedInstant('2026-04-05', '08:00', tz)), '2026-04-04T19:15:00.000Z');
    assert.equal(iso(zonedInstant('2026-09-27', '03:00', tz)), '2026-09-26T14:00:00.000Z');
    assert.equal(iso(zonedInstant('2026-09-27', '08:00', tz)), '2026-09-26T18:15:00.000Z');
  });

  test('America/Santiago skips local midnight on 2026-09-06', () => {
    assert.equal(
      iso(zonedInstant('2026-09-06', '00:30', 'America/Santiago')),
      '2026-09-06T04:00:00.000Z',
    );
    assert.equal(
      iso(zonedInstant('2026-09-06', '08:00', 'America/Santiago')),
      '2026-09-06T11:00:00.000Z',
    );
  });
});

describe('localDayBounds', () => {
  test('23-, 25- and 24.5-hour days', () => {
    assert.deepEqual(bounds('2026-03-08', 'America/New_York'), [
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
    ]);
    assert.deepEqual(bounds('2026-11-01', 'America/New_York'), [
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
    ]);
    assert.deepEqual(bounds('2026-03-29', 'Europe/London'), [
      '2026-03-29T00:00:00.000Z',
      '2026-03-29T23:00:00.000Z',
    ]);
    assert.deepEqual(bounds('2026-04-05', 'Australia/Lord_Howe'), [
      '2026-04-04T13:00:00.000Z',
      '2026-04-05T13:30:00.000Z',
    ]);
    assert.deepEqual(bounds('2026-10-04', 'Australia/Lord_Howe'), [
      '2026-10-03T13:30:00.000Z',
      '2026-10-04T13:00:00.000Z',
    ]);
  });

  test('a 25-hour day whose last hour repeats (America/Santiago 2026-04-04)', () => {
    assert.deepEqual(bounds('2026-04-04', 'America/Santiago'), [
      '2026-04-04T03:00:00.000Z',
      '2026-04-05T04:00:00.000Z',
    ]);
    assert.equal(localDateOf(Date.parse('2026-04-05T03:30:00Z'), 'America/Santiago'), '2026-04-04');
  });

  test('a day starting after a skipped midnight, and a day skipped entirely', () => {
    assert.deepEqual(bounds('2026-09-06', 'America/Santiago'), [
      '2026-09-06T04:00:00.000Z',
      '2026-09-07T03:00:00.000Z',
    ]);
    // Samoa moved across the date line: 2011-12-30 never happened in Pacific/Apia.
    const skipped = localDayBounds('2011-12-30', 'Pacific/Apia');
    assert.equal(skipped.start.getTime(), skipped.end.getTime());
  });
});

describe('localDateOf', () => {
  test('local calendar day of instants around the date line', () => {
    assert.equal(localDateOf(new Date('2026-05-01T12:00:00Z'), 'Pacific/Kiritimati'), '2026-05-02');
    assert.equal(localDateOf(new Date('2026-05-01T09:59:59Z'), 'Pacific/Kiritimati'), '2026-05-01');
    assert.equal(localDateOf(new Date('2026-05-01T10:00:00Z'), 'Pacific/Kiritimati'), '2026-05-02');
    assert.equal(localDateOf(new Date('2026-05-02T03:00:00Z'), 'Pacific/Pago_Pago'), '2026-05-01');
    assert.equal(localDateOf(Date.parse('2026-06-01T18:29:59Z'), 'Asia/Kolkata'), '2026-06-01');
    assert.equal(localDateOf(Date.parse('2026-06-01T18:30:00Z'), 'Asia/Kolkata'), '2026-06-02');
    assert.equal(localDateOf(Date.parse('2026-06-01T18:15:00Z'), 'Asia/Kathmandu'), '2026-06-02');
    assert.equal(localDateOf(Date.parse('2026-11-01T04:59:00Z'), 'America/New_York'), '2026-11-01');
    assert.equal(localDateOf(Date.parse('2026-11-02T04:59:00Z'), 'America/New_York'), '2026-11-01');
    assert.equal(localDateOf(Date.parse('2026-11-02T05:00:00Z'), 'America/New_York'), '2026-11-02');
  });

  test('rejects unknown zones, invalid instants and malformed dates', () => {
    assert.throws(() => localDateOf(new Date(), 'Mars/Olympus_Mons'), RangeError);
    assert.throws(() => localDateOf(new Date('nope'), 'UTC'), RangeError);
    assert.throws(() => zonedInstant('2026-02-30', '08:00', 'UTC'), RangeError);
    assert.throws(() => zonedInstant('2026-02-01', '8:00', 'UTC'), RangeError);
    assert.throws(() => zonedInstant('2026-02-01', '24:00', 'UTC'), RangeError);
  });

  test('addDays crosses months and years', () => {
    assert.equal(addDays('2026-12-31', 1), '2027-01-01');
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
    assert.equal(addDays('2028-02-28', 1), '2028-02-29');
  });
});

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
  'Asia/Beirut',
  'America/Havana',
  'Pacific/Apia',
];

const TRANSITION_DATES = [
  '2026-03-08',
  '2026-11-01',
  '2026-03-29',
  '2026-10-25',
  '2026-04-04',
  '2026-04-05',
  '2026-10-04',
  '2026-09-27',
  '2026-09-06',
  '2026-09-05',
  '2026-10-24',
  '2011-12-29',
  '2011-12-30',
  '2011-12-31',
];

describe('zonedInstant properties', () => {
  test('matches the wall clock, first occurrence, or the end of a gap', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.oneof(
          fc.integer({
            min: Date.UTC(2020, 0, 1) / 86_400_000,
            max: Date.UTC(2030, 11, 31) / 86_400_000,
          }),
          // Transition days of the zones above, so gaps and overlaps are hit often.
          fc
            .constantFrom(...TRANSITION_DATES)
            .map((d) => Date.parse(`${d}T00:00:00Z`) / 86_400_000),
        ),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (tz, dayNumber, hour, minute) => {
          const date = new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
          const time = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
          const t = zonedInstant(date, time, tz).getTime();
          const local = DateTime.fromMillis(t, { zone: tz });
          const wanted = DateTime.fromISO(`${date}T${time}`, { zone: 'UTC' }).toMillis();
          const shown = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
          if (shown === wanted) {
            // First occurrence: no earlier instant within two hours shows the same wall time.
            for (let back = 15; back <= 120; back += 15) {
              const e = DateTime.fromMillis(t - back * 60_000, { zone: tz });
              const eShown = Date.UTC(e.year, e.month - 1, e.day, e.hour, e.minute);
              assert.notEqual(eShown, wanted);
            }
          } else {
            // In a gap: t is a transition instant and the wanted time was skipped.
            const before = DateTime.fromMillis(t - 1, { zone: tz });
            assert.notEqual(before.offset, local.offset);
            const beforeShown = Date.UTC(
              before.year,
              before.month - 1,
              before.day,
              before.hour,
              before.minute,
            );
            assert.ok(beforeShown < wanted && wanted < shown);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
