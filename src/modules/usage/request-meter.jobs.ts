// The daily API request cap without a database write per request: each process
// takes a lease of several requests from the shared counter with one exact,
// conditional increment, spends it in memory and gives back what it did not use
// every second. The shared counter therefore never passes the cap, even with
// several processes on one database; it may read a few leased-but-unused
// requests high for up to a second; a usage read first settles this process's lease.
import type { MeterReading } from '../../access.ts';
import type { RequestCounts } from '../../context.ts';
import { startPeriodic, type Periodic } from '../../lib/periodic.ts';
import { utcDay } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import * as repo from './usage.repository.ts';

const METRIC = 'api_requests';
const DAY_MS = 24 * 60 * 60 * 1000;

interface Lease {
  day: string;
  remaining: number;
  /** The shared counter right after the last lease, unused units included. */
  counted: number;
}

export class RequestMeter implements RequestCounts {
  private readonly leases = new Map<string, Lease>();
  private timer: Periodic | null = null;

  constructor(
    private readonly db: Db,
    private readonly leaseSize = 50,
    private readonly flushMs = 1000,
    /** Receives a refund that failed: its units stay counted until the day ends. */
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  start(): void {
    if (this.timer || this.flushMs <= 0) return;
    this.timer = startPeriodic(() => this.flush(), this.flushMs, { onError: this.onError });
  }

  async stop(): Promise<void> {
    await this.timer?.stop();
    this.timer = null;
    await this.flush();
  }

  // The UTC day of the last request and where it ends, so requests within it
  // neither format a date nor compute the next midnight.
  private dayStart = 0;
  private dayEnd = 0;
  private dayText = '';

  private dayOf(now: Date): { day: string; resetSeconds: number } {
    const t = now.getTime();
    if (t < this.dayStart || t >= this.dayEnd) {
      this.dayText = utcDay(now);
      this.dayStart = t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
      this.dayEnd = this.dayStart + DAY_MS;
    }
    // secondsToUtcMidnight, from the day's end.
    return { day: this.dayText, resetSeconds: Math.max(1, Math.ceil((this.dayEnd - t) / 1000)) };
  }

  /**
   * Counts one request, or fails with `rate_limited` when the day's cap is
   * reached. Counted from this process's current lease, the reading comes back
   * at once; otherwise a lease is taken first.
   */
  take(companyId: string, limit: number, now: Date): MeterReading | Promise<MeterReading> {
    return this.takeHeld(companyId, limit, now) ?? this.takeLeased(companyId, limit, now);
  }

  /** Counts one request from this process's current lease; null when there is none. */
  private takeHeld(companyId: string, limit: number, now: Date): MeterReading | null {
    const held = this.leases.get(companyId);
    if (!held || held.remaining <= 0) return null;
    const { day, resetSeconds } = this.dayOf(now);
    if (held.day !== day) return null;
    held.remaining -= 1;
    return { count: held.counted - held.remaining, limit, resetSeconds };
  }

  private async takeLeased(companyId: string, limit: number, now: Date): Promise<MeterReading> {
    const { day, resetSeconds } = this.dayOf(now);
    for (;;) {
      const held = this.leases.get(companyId);
      if (held && held.day === day && held.remaining > 0) {
        held.remaining -= 1;
        return { count: held.counted - held.remaining, limit, resetSeconds };
      }
      // One lease request per company at a time; concurrent requests wait for it.
      const pending = this.pending.get(companyId);
      if (pending) {
        await pending;
        continue;
      }
      const request = this.lease(companyId, day, limit).finally(() =>
        this.pending.delete(companyId),
      );
      this.pending.set(
        companyId,
        request.then(() => undefined),
      );
      if (await request) continue;
      throw new ApiError(
        'rate_limited',
        `Daily cap of ${limit} API requests per UTC day is reached`,
        {
          headers: {
            'retry-after': String(resetSeconds),
            'x-ratelimit-limit': String(limit),
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(resetSeconds),
          },
        },
      );
    }
  }

  /**
   * Gives this process's unused units of one company back and waits for every
   * refund in flight, so a usage read right after sees the exact count.
   */
  async settle(companyId: string): Promise<void> {
    this.giveBack(companyId);
    await this.inflight.get(companyId);
  }

  /** Gives every unused unit back to the shared counters. */
  async flush(): Promise<void> {
    for (const companyId of [...this.leases.keys()]) this.giveBack(companyId);
    await Promise.all(this.inflight.values());
  }

  private readonly inflight = new Map<string, Promise<void>>();
  private readonly pending = new Map<string, Promise<void>>();

  private giveBack(companyId: string): void {
    const lease = this.leases.get(companyId);
    if (!lease) return;
    this.leases.delete(companyId);
    if (lease.remaining === 0) return;
    const previous = this.inflight.get(companyId) ?? Promise.resolve();
    const done: Promise<void> = previous
      .then(() => repo.refund(this.db, companyId, METRIC, lease.day, lease.remaining))
      // Reported, and the chain goes on: the next refund of the company must not wait on it.
      .catch(this.onError)
      .finally(() => {
        if (this.inflight.get(companyId) === done) this.inflight.delete(companyId);
      });
    this.inflight.set(companyId, done);
  }

  private async lease(companyId: string, day: string, limit: number): Promise<Lease | null> {
    // A refund of the last lease may still be in flight (timer flush); leasing before it
    // lands counts those units twice and can refuse requests under the cap.
    await this.inflight.get(companyId);
    // Near the cap, ask for what is left rather than a whole lease.
    let want = Math.min(this.leaseSize, limit);
    for (let attempt = 0; attempt < 4 && want > 0; attempt++) {
      const counted = await repo.consume(this.db, companyId, METRIC, day, want, limit);
      if (counted !== null) {
        const current = this.leases.get(companyId);
        if (current) this.giveBack(companyId);
        const fresh = { day, remaining: want, counted };
        this.leases.set(companyId, fresh);
        return fresh;
      }
      const used = (
        await repo.readCounters(this.db, companyId, [{ metric: METRIC, period: day }])
      ).get(`${METRIC}@${day}`);
      want = Math.min(want, limit - (used ?? 0));
    }
    return null;
  }
}
