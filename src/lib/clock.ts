/** The one source of time: tests inject a fake clock and never sleep. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
  private ms: number;
  constructor(start: Date | string | number = '2026-01-05T12:00:00.000Z') {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  set(at: Date | string | number): void {
    this.ms = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** UTC calendar day, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** UTC calendar month, `YYYY-MM`. */
export function utcMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** Whole seconds from `at` to the next UTC midnight (at least 1). */
export function secondsToUtcMidnight(at: Date): number {
  const next = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - at.getTime()) / 1000));
}
