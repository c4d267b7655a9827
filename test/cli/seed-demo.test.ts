// The demo's first window: a zone in working hours and a window a minute or two away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoTimezone, soonWindows } from '../../src/cli/seed.ts';
import { nextWindowStart } from '../../src/schedule/windows.ts';

const local = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' });

test('every hour of the day, the demo starts within 3 minutes of the seed', () => {
  for (let minute = 0; minute < 24 * 60; minute += 7) {
    const now = new Date(Date.UTC(2026, 10, 27, 0, minute, 13, 500));
    const tz = demoTimezone(now);
    const hour = Number(local(now.toISOString(), tz).slice(0, 2));
    assert.ok(hour >= 7 && hour <= 14, `${now.toISOString()}: ${tz} is at ${hour}h`);
    const windows = soonWindows(tz, now);
    assert.ok(windows, `${now.toISOString()} in ${tz}`);
    const first = nextWindowStart(windows, tz, now).getTime();
    assert.ok(first - now.getTime() >= 60_000, `${windows[0]} leaves the seed a minute`);
    assert.ok(first - now.getTime() <= 3 * 60_000, `${windows[0]} in ${tz} within 3 minutes`);
  }
});

test('soon windows: 3 hours apart, 08:00 to 17:00, at most four', () => {
  // 08:10:30 in Berlin (UTC+1 in November).
  assert.deepEqual(soonWindows('Europe/Berlin', new Date('2026-11-27T07:10:30Z')), [
    '08:12',
    '11:12',
    '14:12',
  ]);
  assert.deepEqual(soonWindows('Europe/Berlin', new Date('2026-11-27T06:58:00Z')), [
    '08:00',
    '11:00',
    '14:00',
    '17:00',
  ]);
  assert.deepEqual(soonWindows('Europe/Berlin', new Date('2026-11-27T15:58:59Z')), ['17:00']);
  // Outside the window hours: none (the account keeps its staggered windows).
  assert.equal(soonWindows('Europe/Berlin', new Date('2026-11-27T15:59:00Z')), null);
  assert.equal(soonWindows('Europe/Berlin', new Date('2026-11-27T05:00:00Z')), null);
});
