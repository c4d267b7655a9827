// Quiet hours and the kind catalogue, pure: when a message that can wait goes out (now, or
// the end of the owner's quiet hours in their own timezone), over midnight and on the days
// the clocks change; and what each audience's notifications page lists.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clockMinutes,
  kindOf,
  kindsOf,
  sendTimeFor,
  supports,
} from '../../../src/modules/notify/notify-kinds.rules.ts';

const at = (iso: string) => new Date(iso);
const when = (quiet: { start: string; end: string } | null, tz: string, now: string) =>
  sendTimeFor(quiet, tz, at(now)).toISOString();

describe('sendTimeFor', () => {
  const night = { start: '22:00', end: '07:00' };

  test('no quiet hours, or equal ends: now', () => {
    assert.equal(when(null, 'UTC', '2026-03-02T23:00:00.000Z'), '2026-03-02T23:00:00.000Z');
    assert.equal(
      when({ start: '09:00', end: '09:00' }, 'UTC', '2026-03-02T09:30:00.000Z'),
      '2026-03-02T09:30:00.000Z',
    );
  });

  test('an overnight range: the evening waits for tomorrow morning, the morning for today', () => {
    // Berlin is UTC+1 in March before the change.
    assert.equal(
      when(night, 'Europe/Berlin', '2026-03-02T21:30:00.000Z'), // 22:30 local
      '2026-03-03T06:00:00.000Z',
    );
    assert.equal(
      when(night, 'Europe/Berlin', '2026-03-02T03:00:00.000Z'), // 04:00 local
      '2026-03-02T06:00:00.000Z',
    );
    // Just outside: 21:59 and 07:00 local go now.
    assert.equal(
      when(night, 'Europe/Berlin', '2026-03-02T20:59:00.000Z'),
      '2026-03-02T20:59:00.000Z',
    );
    assert.equal(
      when(night, 'Europe/Berlin', '2026-03-02T06:00:00.000Z'),
      '2026-03-02T06:00:00.000Z',
    );
    // The start itself is quiet.
    assert.equal(
      when(night, 'Europe/Berlin', '2026-03-02T21:00:00.000Z'),
      '2026-03-03T06:00:00.000Z',
    );
  });

  test('a daytime range', () => {
    const lunch = { start: '12:00', end: '13:30' };
    assert.equal(
      when(lunch, 'Asia/Tokyo', '2026-03-02T03:15:00.000Z'), // 12:15 local
      '2026-03-02T04:30:00.000Z',
    );
    assert.equal(
      when(lunch, 'Asia/Tokyo', '2026-03-02T05:00:00.000Z'), // 14:00 local
      '2026-03-02T05:00:00.000Z',
    );
  });

  test('the same UTC instant is quiet for one owner and not for another', () => {
    const now = '2026-03-02T23:00:00.000Z';
    assert.equal(when(night, 'UTC', now), '2026-03-03T07:00:00.000Z');
    assert.equal(when(night, 'America/New_York', now), now); // 18:00 local
  });

  test('spring forward: the night is an hour shorter, the end keeps its local time', () => {
    // Europe/Berlin, 2026-03-29: 02:00 CET jumps to 03:00 CEST (01:00Z).
    assert.equal(
      when(night, 'Europe/Berlin', '2026-03-28T22:00:00.000Z'), // 23:00 CET
      '2026-03-29T05:00:00.000Z', // 07:00 CEST
    );
  });

  test('spring forward: an end inside the gap is the moment the clocks jump', () => {
    const quiet = { start: '23:00', end: '02:30' };
    // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT (07:00Z).
    assert.equal(
      when(quiet, 'America/New_York', '2026-03-09T04:30:00.000Z'), // 00:30 EDT on the 9th
      '2026-03-09T06:30:00.000Z',
    );
    assert.equal(
      when(quiet, 'America/New_York', '2026-03-08T05:00:00.000Z'), // 00:00 EST on the 8th
      '2026-03-08T07:00:00.000Z',
    );
  });

  test('fall back: the night is an hour longer; an end that comes twice is the first', () => {
    // Europe/Berlin, 2026-10-25: 03:00 CEST falls back to 02:00 CET (01:00Z).
    assert.equal(
      when(night, 'Europe/Berlin', '2026-10-24T21:00:00.000Z'), // 23:00 CEST
      '2026-10-25T06:00:00.000Z', // 07:00 CET
    );
    const early = { start: '00:00', end: '02:30' };
    assert.equal(
      when(early, 'Europe/Berlin', '2026-10-24T22:30:00.000Z'), // 00:30 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST, the first of two
    );
    // In the repeated hour after its first 02:30, the second 02:30 (CET) is not quiet any
    // more: the range ended at the first, so it goes now.
    assert.equal(
      when(early, 'Europe/Berlin', '2026-10-25T01:15:00.000Z'), // 02:15 CET, second pass
      '2026-10-25T01:15:00.000Z',
    );
  });

  test('an unknown timezone counts as UTC', () => {
    assert.equal(
      when(night, 'Mars/Olympus', '2026-03-02T23:00:00.000Z'),
      '2026-03-03T07:00:00.000Z',
    );
  });
});

describe('the kind catalogue', () => {
  test('each audience’s kinds, defaults and urgency', () => {
    assert.deepEqual(
      kindsOf('user').map((k) => k.kind),
      [
        'approval_due',
        'approval_missed',
        'task_failed',
        'task_unconfirmed',
        'account_disconnected',
        'daily_summary',
      ],
    );
    assert.equal(kindOf('user', 'daily_summary')?.defaultOn, false);
    assert.deepEqual(kindOf('user', 'daily_summary')?.channels, ['email']);
    assert.equal(kindOf('user', 'approval_missed')?.urgent, true);
    assert.equal(kindOf('user', 'approval_due')?.urgent, false);
    assert.deepEqual(
      kindsOf('operator').map((k) => [k.kind, k.channels.join(), k.defaultOn]),
      [
        ['handoff_unclaimed', 'email', true],
        ['task_failed', 'email', true],
        ['account_disconnected', 'email', true],
      ],
    );
    assert.deepEqual(
      kindsOf('worker').map((k) => [k.kind, k.channels.join(), k.urgent]),
      [
        ['task_released', 'push', false],
        ['report_due', 'push', true],
        ['handoff_unclaimed', 'push', false],
      ],
    );
    assert.equal(supports('worker', 'task_released', 'email'), false);
    assert.equal(supports('user', 'approval_due', 'push'), true);
    assert.equal(kindOf('worker', 'push_test'), undefined);
  });

  test('clockMinutes reads HH:MM only', () => {
    assert.equal(clockMinutes('07:30'), 450);
    assert.equal(clockMinutes('23:59'), 1439);
    assert.equal(clockMinutes('24:00'), null);
    assert.equal(clockMinutes('7:30'), null);
  });
});
