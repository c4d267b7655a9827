// When the demo's releases go out: the zone of the demo worker, one where it is working
// hours at the seed, and the first account's windows a minute after the seed, so that the
// first release goes out right away (see seed.ts).
import { DAY_MS, MINUTE_MS, offsetMs, zoneOf } from '../schedule/local-time.ts';

/**
 * One city per UTC offset, roughly. Without --timezone the demo worker lives where it is
 * working hours now (demoTimezone), so the first release goes out within minutes and
 * another every hour after it until 17:00 local, whenever the demo is seeded.
 */
const DEMO_TIMEZONES = [
  'Pacific/Pago_Pago',
  'Pacific/Honolulu',
  'America/Anchorage',
  'America/Los_Angeles',
  'America/Denver',
  'America/Chicago',
  'America/New_York',
  'America/Halifax',
  'America/Sao_Paulo',
  'Atlantic/South_Georgia',
  'Atlantic/Azores',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Athens',
  'Europe/Istanbul',
  'Asia/Dubai',
  'Asia/Karachi',
  'Asia/Dhaka',
  'Asia/Bangkok',
  'Asia/Singapore',
  'Asia/Tokyo',
  'Australia/Brisbane',
  'Pacific/Noumea',
  'Pacific/Auckland',
];

/** Posts are queued before the first window starts, with room for a slow seed. */
const LEAD_MS = 5 * MINUTE_MS;
/** The first demo window opens this long after the posts are queued. */
const FIRST_WINDOW_LEAD_MS = MINUTE_MS;
/** Windows lie between 08:00 and 17:00 local (SPEC 4.5 rule 1). */
const FIRST_WINDOW_MINUTE = 8 * 60;
const LAST_WINDOW_MINUTE = 17 * 60;

function localMinutes(timezone: string, at: number): number {
  const wall = at + offsetMs(zoneOf(timezone), at);
  return Math.floor(wall / MINUTE_MS) % (24 * 60);
}

/**
 * The demo worker's zone: one where it is working hours now (08:00 to 14:00 local, so most
 * of the day's windows are still ahead), the earliest such hour first; the first demo
 * account then gets a window a minute after the seed and the first release goes out right
 * away. Otherwise (never with every offset listed) the zone where 08:00 comes soonest.
 */
export function demoTimezone(now: Date): string {
  let best = DEMO_TIMEZONES[0] as string;
  let bestWait = Infinity;
  let working: { tz: string; first: string } | null = null;
  for (const tz of DEMO_TIMEZONES) {
    const first = soonWindows(tz, now)?.[0];
    if (first && first <= '14:00' && (!working || first < working.first)) working = { tz, first };
    const untilEight = (8 * 60 - localMinutes(tz, now.getTime())) * MINUTE_MS - LEAD_MS;
    const wait = ((untilEight % DAY_MS) + DAY_MS) % DAY_MS;
    if (wait < bestWait) {
      best = tz;
      bestWait = wait;
    }
  }
  return working?.tz ?? best;
}

/**
 * Windows starting a minute after `at` (local "HH:mm" in `timezone`) and every 3 hours
 * after it until 17:00, when that first one falls within the day's window hours; null
 * otherwise (the account keeps its staggered windows).
 */
export function soonWindows(timezone: string, at: Date): string[] | null {
  // The start of the local minute after the lead: between one and two minutes away.
  const first = localMinutes(timezone, at.getTime() + FIRST_WINDOW_LEAD_MS) + 1;
  if (first < FIRST_WINDOW_MINUTE || first > LAST_WINDOW_MINUTE) return null;
  const windows: string[] = [];
  for (let m = first; m <= LAST_WINDOW_MINUTE && windows.length < 4; m += 180) {
    windows.push(
      `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`,
    );
  }
  return windows;
}
