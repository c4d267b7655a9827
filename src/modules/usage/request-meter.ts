// The daily API request cap without a database write per request: each process
// takes a lease of several requests from the shared counter with one exact,
// conditional increment, spends it in memory and gives back what it did not use
// every second. The shared counter therefore never passes the cap, even with
// several processes on one database; it may read a few leased-but-unused
// requests high for up to a second, which usage reads of this process correct.
import { secondsToUtcMidnight, utcDay } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import { ApiError } from '../../http/errors.ts';
import * as repo from './usage.repository.ts';

const METRIC = 'api_requests';

interface Lease {
  day: string;
  remaining: number;
  /** The shared counter right after the last lease, unused units included. */
  counted: number;
}

export interface MeterReading {
  count: number;
  limit: number;
  resetSeconds: number;
}

export class RequestMeter {
  private readonly leases = new Map<string, Lease>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly leaseSize = 50,
    private readonly flushMs = 1000,
  ) {}

  start(): void {
    if (this.timer || this.flushMs <= 0) return;
    this.timer = setInterval(() => void this.flush().catch(() => {}), this.flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Counts one request, or throws `rate_limited` when the day's cap is reached. */
  async take(companyId: string, limit: number, now: Date): Promise<MeterReading> {
    const day = utcDay(now);
    const resetSeconds = secondsToUtcMidnight(now);
    let lease: Lease | null | undefined = this.leases.get(companyId);
    if (!lease || lease.day !== day || lease.remaining === 0) {
      lease = await this.lease(companyId, day, limit);
      if (!lease) {
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
    lease.remaining -= 1;
    return { count: lease.counted - lease.remaining, limit, resetSeconds };
  }

  /** Leased units not yet spent: subtracted from the shared counter when reporting usage. */
  unused(companyId: string, day: string): number {
    const lease = this.leases.get(companyId);
    return lease && lease.day === day ? lease.remaining : 0;
  }

  /** Gives every unused unit back to the shared counters. */
  async flush(): Promise<void> {
    const entries = [...this.leases.entries()];
    this.leases.clear();
    for (const [companyId, lease] of entries) {
      if (lease.remaining > 0)
        await repo.refund(this.db, companyId, METRIC, lease.day, lease.remaining);
    }
  }

  private async lease(companyId: string, day: string, limit: number): Promise<Lease | null> {
    // Near the cap, ask for what is left rather than a whole lease.
    let want = Math.min(this.leaseSize, limit);
    for (let attempt = 0; attempt < 4 && want > 0; attempt++) {
      const counted = await repo.consume(this.db, companyId, METRIC, day, want, limit);
      if (counted !== null) {
        // Requests of this process that raced for a lease pool their units.
        const current = this.leases.get(companyId);
        if (current && current.day === day && current.remaining > 0) {
          current.remaining += want;
          current.counted = Math.max(current.counted, counted);
          return current;
        }
        const fresh = { day, remaining: want, counted };
        if (current && current.day !== day && current.remaining > 0) {
          await repo.refund(this.db, companyId, METRIC, current.day, current.remaining);
        }
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
