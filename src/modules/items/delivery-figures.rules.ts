// Punctuality of delivery, pure: whether a post went out on time, the buckets its
// release-to-posted and release-to-claim times are counted in, and the figures read back
// from those counters.
//
// An item is on time when it was reported posted within the grace (60 minutes by default,
// DELIVERY_GRACE_MINUTES) after the start of the slot it was released into. The time from
// release to posting is kept as a histogram rather than one row per item, so a percentile
// over 30 days of a large company reads 30 rows: it is exact to the bucket, and buckets are
// one minute wide up to 6 minutes, then widen (upper bounds below, in minutes). The time from
// release to a worker's claim (the hand-off) is kept the same way, in the same buckets,
// counted once per task when it is claimed.

/** Upper bounds (minutes, inclusive) of the latency buckets; one more past them. */
export const LATENCY_BOUNDS_MINUTES = [
  1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 90, 120, 150, 180, 240, 360, 480,
  720, 1440,
] as const;

/** Number of buckets: one per bound, and the last for a day or more. */
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MINUTES.length + 1;

/**
 * The bucket of a release-to-posted or release-to-claim time; a report (or claim) dated before
 * its release counts as 0.
 */
export function latencyBucket(ms: number): number {
  const minutes = Math.max(0, ms) / 60_000;
  for (let i = 0; i < LATENCY_BOUNDS_MINUTES.length; i++) {
    if (minutes <= (LATENCY_BOUNDS_MINUTES[i] as number)) return i;
  }
  return LATENCY_BOUNDS_MINUTES.length;
}

/** Whether a post reported at `postedAt` met its slot starting at `slotStart`. */
export function isOnTime(postedAt: string, slotStart: string, graceMs: number): boolean {
  return Date.parse(postedAt) <= Date.parse(slotStart) + graceMs;
}

/** The counters of a subject over a range of days (sums of delivery_days rows). */
export interface DeliveryFigureCounts {
  posted: number;
  onTime: number;
  failed: number;
  unconfirmed: number;
  missed: number;
  /** Posted items per release-to-posted bucket. */
  latency: number[];
  /** Claimed tasks per release-to-claim bucket. */
  claimLatency: number[];
}

export function emptyCounts(): DeliveryFigureCounts {
  return {
    posted: 0,
    onTime: 0,
    failed: 0,
    unconfirmed: 0,
    missed: 0,
    latency: Array.from({ length: LATENCY_BUCKETS }, () => 0),
    claimLatency: Array.from({ length: LATENCY_BUCKETS }, () => 0),
  };
}

/** Adds `b` into `a`. */
export function addCounts(a: DeliveryFigureCounts, b: DeliveryFigureCounts): DeliveryFigureCounts {
  a.posted += b.posted;
  a.onTime += b.onTime;
  a.failed += b.failed;
  a.unconfirmed += b.unconfirmed;
  a.missed += b.missed;
  b.latency.forEach((n, i) => (a.latency[i] = (a.latency[i] ?? 0) + n));
  b.claimLatency.forEach((n, i) => (a.claimLatency[i] = (a.claimLatency[i] ?? 0) + n));
  return a;
}

/**
 * The nearest-rank percentile `p` (0-1] of the histogram, as the upper bound of its bucket in
 * minutes; the last bucket reads as 1440 (a day or more). Null with nothing counted.
 */
export function latencyPercentile(latency: readonly number[], p: number): number | null {
  const total = latency.reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (let i = 0; i < latency.length; i++) {
    seen += latency[i] ?? 0;
    if (seen >= rank)
      return LATENCY_BOUNDS_MINUTES[Math.min(i, LATENCY_BOUNDS_MINUTES.length - 1)] as number;
  }
  return LATENCY_BOUNDS_MINUTES[LATENCY_BOUNDS_MINUTES.length - 1] as number;
}

/** Delivery figures of a subject over a period, as the API, pages and metrics show them. */
export interface DeliveryFigures {
  /** Released items with an outcome: posted, failed or unconfirmed. */
  delivered: number;
  posted: number;
  /** Shares of `delivered`, 0-1 rounded to four decimals; null when nothing was delivered. */
  onTimeRatio: number | null;
  failedRatio: number | null;
  unconfirmedRatio: number | null;
  /** Release to reported posting, minutes (bucket upper bounds); null with nothing posted. */
  releaseToPostedP50Minutes: number | null;
  releaseToPostedP95Minutes: number | null;
  /** Release to a worker's claim, minutes (bucket upper bounds); null with nothing claimed. */
  releaseToClaimP50Minutes: number | null;
  releaseToClaimP95Minutes: number | null;
  /** Windows that released nothing although an item was due (made up in a later slot). */
  windowsMissed: number;
}

const ratio = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10_000) / 10_000);

export function figuresOf(c: DeliveryFigureCounts): DeliveryFigures {
  const delivered = c.posted + c.failed + c.unconfirmed;
  return {
    delivered,
    posted: c.posted,
    onTimeRatio: ratio(c.onTime, delivered),
    failedRatio: ratio(c.failed, delivered),
    unconfirmedRatio: ratio(c.unconfirmed, delivered),
    releaseToPostedP50Minutes: latencyPercentile(c.latency, 0.5),
    releaseToPostedP95Minutes: latencyPercentile(c.latency, 0.95),
    releaseToClaimP50Minutes: latencyPercentile(c.claimLatency, 0.5),
    releaseToClaimP95Minutes: latencyPercentile(c.claimLatency, 0.95),
    windowsMissed: c.missed,
  };
}

/** The first UTC day (YYYY-MM-DD) of the last `days` days ending with `now`'s day. */
export function firstDayOf(now: Date, days: number): string {
  return new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}
