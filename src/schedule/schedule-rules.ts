// Pure rules for posting schedules (SPEC 4.5, DECISIONS 5).

/** Standard slots used by the global rules and for make-up releases. */
export const STANDARD_SLOTS: readonly string[] = ['08:00', '11:00', '14:00', '17:00'];
/** SPEC 4.5 rule 5 and DECISIONS 5: never more than 4 releases per account per local day. */
export const MAX_POSTS_PER_DAY = 4;
export const TIMEZONE_MODE = 'worker_local';

export type ScheduleSource = 'account' | 'company' | 'global';

export interface EffectiveSchedule {
  windows: string[];
  source: ScheduleSource;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after local midnight of an "HH:mm" string, or null when malformed. */
export function parseWindow(value: string): number | null {
  const m = HHMM.exec(value);
  if (!m) return null;
  return Number(m[1]) * 60 + Number(m[2]);
}

export interface ScheduleViolation {
  /** JSON pointer relative to the schedule object, e.g. `/windows/2`; `message` follows it. */
  pointer: string;
  message: string;
  hint: string;
}

/**
 * SPEC 4.5 rule 1: 1-4 entries, ascending, HH:mm, 08:00-17:00 inclusive,
 * consecutive entries at least 3 hours apart. Returns the first violation.
 */
export function checkWindows(windows: readonly string[]): ScheduleViolation | null {
  if (windows.length < 1 || windows.length > 4) {
    return {
      pointer: '/windows',
      message: `must have 1 to 4 entries (got ${windows.length})`,
      hint: 'Pick 1-4 times such as ["08:00", "11:00", "14:00", "17:00"].',
    };
  }
  let previous: number | null = null;
  for (const [i, w] of windows.entries()) {
    const minutes = parseWindow(w);
    if (minutes === null) {
      return {
        pointer: `/windows/${i}`,
        message: `must be a time in HH:mm format (got "${w}")`,
        hint: 'Use 24-hour HH:mm, e.g. "08:00" or "14:30".',
      };
    }
    if (minutes < 8 * 60 || minutes > 17 * 60) {
      return {
        pointer: `/windows/${i}`,
        message: `must be between 08:00 and 17:00 inclusive (got "${w}")`,
        hint: 'Windows are worker-local times from 08:00 to 17:00.',
      };
    }
    if (previous !== null) {
      if (minutes <= previous) {
        return {
          pointer: `/windows/${i}`,
          message: `must come after "${windows[i - 1]}": windows are sorted ascending without repeats (got "${w}")`,
          hint: 'List the windows in ascending order.',
        };
      }
      if (minutes - previous < 180) {
        return {
          pointer: `/windows/${i}`,
          message: `("${w}") must be at least 3 hours after "${windows[i - 1]}"`,
          hint: 'Keep consecutive windows 3 hours apart, e.g. 08:00, 11:00, 14:00, 17:00.',
        };
      }
    }
    previous = minutes;
  }
  return null;
}

/** DECISIONS 5: account override, then company default, then the global rules. */
export function effectiveSchedule(
  accountWindows: readonly string[] | null,
  companyWindows: readonly string[] | null,
): EffectiveSchedule {
  if (accountWindows) return { windows: [...accountWindows], source: 'account' };
  if (companyWindows) return { windows: [...companyWindows], source: 'company' };
  return { windows: [...STANDARD_SLOTS], source: 'global' };
}

/** A schedule as stored (JSON text of its windows, or null when cleared). */
export function parseStoredWindows(json: string | null): string[] | null {
  return json === null ? null : (JSON.parse(json) as string[]);
}
