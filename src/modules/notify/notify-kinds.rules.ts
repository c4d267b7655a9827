// What each audience can be told about, and how: the kinds of message a person (a company
// user, an operator) or a worker receives, each with the label their notifications page
// shows, the personal channels it can go by (mail, push; chat alerts are a team's, set on
// the alerts pages), whether it is on until turned off, and whether it is urgent: urgent
// kinds (a window about to be missed, a report about to be late) go out during quiet hours,
// since waiting would make them useless. Pure: a catalogue and the quiet hours rules.
import {
  DAY_MS,
  MINUTE_MS,
  offsetMs,
  wallDayNumber,
  wallToInstant,
  zoneOf,
} from '../../schedule/local-time.ts';

export type Audience = 'user' | 'operator' | 'worker';
export type PersonalChannel = 'email' | 'push';

export const AUDIENCES: readonly Audience[] = ['user', 'operator', 'worker'];
export const PERSONAL_CHANNELS: readonly PersonalChannel[] = ['email', 'push'];

export interface NotifyKind {
  kind: string;
  label: string;
  /** What it is about, in a sentence, under the label. */
  about: string;
  channels: readonly PersonalChannel[];
  /** On until the person turns it off (else off until they turn it on). */
  defaultOn: boolean;
  /** Goes out during quiet hours. */
  urgent: boolean;
}

const BOTH: readonly PersonalChannel[] = ['email', 'push'];

const KINDS: Record<Audience, readonly NotifyKind[]> = {
  user: [
    {
      kind: 'approval_due',
      label: 'Approvals due',
      about: 'Posts waiting for your approval whose window opens soon.',
      channels: BOTH,
      defaultOn: true,
      urgent: false,
    },
    {
      kind: 'approval_missed',
      label: 'Windows about to be missed',
      about: 'Posts still waiting for approval half an hour before their window (admins).',
      channels: BOTH,
      defaultOn: true,
      urgent: true,
    },
    {
      kind: 'task_failed',
      label: 'Posts that failed',
      about: 'A post could not be published.',
      channels: BOTH,
      defaultOn: true,
      urgent: false,
    },
    {
      kind: 'task_unconfirmed',
      label: 'Posts not confirmed',
      about: 'A post was released but its worker never reported it.',
      channels: BOTH,
      defaultOn: true,
      urgent: false,
    },
    {
      kind: 'account_disconnected',
      label: 'Accounts disconnected',
      about: 'An account stopped taking posts.',
      channels: BOTH,
      defaultOn: true,
      urgent: false,
    },
    {
      kind: 'daily_summary',
      label: 'Daily summary',
      about: 'One mail a day with what was posted and what waits.',
      channels: ['email'],
      defaultOn: false,
      urgent: false,
    },
  ],
  operator: [
    {
      kind: 'handoff_unclaimed',
      label: 'Hand-offs not taken',
      about: 'A released task no worker took in time.',
      channels: ['email'],
      defaultOn: true,
      urgent: false,
    },
    {
      kind: 'task_failed',
      label: 'Posts that failed',
      about: 'A worker reported a post as failed.',
      channels: ['email'],
      defaultOn: true,
      urgent: false,
    },
    {
      kind: 'account_disconnected',
      label: 'Accounts disconnected',
      about: 'An account of any company stopped taking posts.',
      channels: ['email'],
      defaultOn: true,
      urgent: false,
    },
  ],
  worker: [
    {
      kind: 'task_released',
      label: 'New tasks',
      about: 'A task was released to you.',
      channels: ['push'],
      defaultOn: true,
      urgent: false,
    },
    {
      kind: 'report_due',
      label: 'Reports due',
      about: 'A task’s report is about to be late.',
      channels: ['push'],
      defaultOn: true,
      urgent: true,
    },
    {
      kind: 'handoff_unclaimed',
      label: 'Tasks waiting for a taker',
      about: 'A released task nobody took yet.',
      channels: ['push'],
      defaultOn: true,
      urgent: false,
    },
  ],
};

/** The kinds an audience's notifications page lists, in its order. */
export function kindsOf(audience: Audience): readonly NotifyKind[] {
  return KINDS[audience];
}

/** The kind as the catalogue has it; undefined for a kind no page lists (a test push). */
export function kindOf(audience: Audience, kind: string): NotifyKind | undefined {
  return KINDS[audience].find((k) => k.kind === kind);
}

/** Whether `kind` can go by `channel` to the audience at all. */
export function supports(audience: Audience, kind: string, channel: PersonalChannel): boolean {
  return kindOf(audience, kind)?.channels.includes(channel) ?? false;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of "HH:MM", or null when it is not a time of day. */
export function clockMinutes(value: string): number | null {
  const m = HHMM.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Quiet hours: local times of day, the end the next day when it comes before the start. */
export interface QuietHours {
  start: string;
  end: string;
}

/**
 * When a message that is not urgent may go out: `now`, or the end of the owner's quiet
 * hours when `now` falls inside them, in the owner's timezone. A range ending before it
 * starts runs over midnight (22:00-07:00); equal ends mean no quiet hours. An end that the
 * clocks skip that day (a spring-forward gap) is the moment they jump; an end that comes
 * twice (fall-back) is its first occurrence.
 */
export function sendTimeFor(quiet: QuietHours | null, timezone: string, now: Date): Date {
  if (!quiet) return now;
  const start = clockMinutes(quiet.start);
  const end = clockMinutes(quiet.end);
  if (start === null || end === null || start === end) return now;
  let zone;
  try {
    zone = zoneOf(timezone);
  } catch {
    zone = zoneOf('UTC');
  }
  const ts = now.getTime();
  const day = wallDayNumber(zone, ts);
  const minute = Math.floor((ts + offsetMs(zone, ts) - day * DAY_MS) / MINUTE_MS);
  const overnight = end < start;
  const inside = overnight ? minute >= start || minute < end : minute >= start && minute < end;
  if (!inside) return now;
  // Overnight, the evening part ends tomorrow; otherwise the end is today.
  const endDay = overnight && minute >= start ? day + 1 : day;
  const at = wallToInstant(zone, endDay * DAY_MS + end * MINUTE_MS);
  return at > ts ? new Date(at) : now;
}
