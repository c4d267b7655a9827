// The pure rules of punctuality: buckets, percentiles, on-time and the figures' shares.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LATENCY_BOUNDS_MINUTES,
  LATENCY_BUCKETS,
  addCounts,
  emptyCounts,
  figuresOf,
  firstDayOf,
  isOnTime,
  latencyBucket,
  latencyPercentile,
} from '../../../src/modules/items/delivery-figures.rules.ts';
import { LATENCY_BUCKET_COUNT } from '../../../src/db/migrations/0016-deliveries.ts';
import { CLAIM_LATENCY_BUCKET_COUNT } from '../../../src/db/migrations/0029-claim-latency.ts';

const MIN = 60_000;

test('the table has a column per bucket', () => {
  assert.equal(LATENCY_BUCKETS, LATENCY_BUCKET_COUNT);
  assert.equal(LATENCY_BUCKETS, CLAIM_LATENCY_BUCKET_COUNT);
});

test('a release-to-posted time falls in the bucket whose upper bound holds it', () => {
  assert.equal(latencyBucket(-5 * MIN), 0, 'a report dated before its release counts as 0');
  assert.equal(latencyBucket(0), 0);
  assert.equal(latencyBucket(MIN), 0);
  assert.equal(latencyBucket(MIN + 1), 1);
  assert.equal(latencyBucket(10 * MIN), LATENCY_BOUNDS_MINUTES.indexOf(10));
  assert.equal(latencyBucket(1440 * MIN), LATENCY_BOUNDS_MINUTES.length - 1);
  assert.equal(latencyBucket(1441 * MIN), LATENCY_BOUNDS_MINUTES.length);
});

test('percentiles are nearest-rank, read as bucket upper bounds', () => {
  const h = Array.from({ length: LATENCY_BUCKETS }, () => 0);
  assert.equal(latencyPercentile(h, 0.5), null);
  for (const m of [2, 40, 120]) h[latencyBucket(m * MIN)]! += 1;
  assert.equal(latencyPercentile(h, 0.5), 40);
  assert.equal(latencyPercentile(h, 0.95), 120);
  assert.equal(latencyPercentile(h, 0.01), 2);
  h[LATENCY_BUCKETS - 1] = 10;
  assert.equal(latencyPercentile(h, 0.95), 1440, 'a day or more reads as 1440');
});

test('on time means posted within the grace after the slot opened, bound included', () => {
  const slot = '2026-05-04T11:00:00.000Z';
  assert.equal(isOnTime('2026-05-04T12:00:00.000Z', slot, 60 * MIN), true);
  assert.equal(isOnTime('2026-05-04T12:00:00.001Z', slot, 60 * MIN), false);
  assert.equal(isOnTime('2026-05-04T10:59:00.000Z', slot, 60 * MIN), true);
});

test('shares are of delivered items, rounded to four decimals; none delivered reads null', () => {
  const c = emptyCounts();
  assert.deepEqual(figuresOf(c), {
    delivered: 0,
    posted: 0,
    onTimeRatio: null,
    failedRatio: null,
    unconfirmedRatio: null,
    releaseToPostedP50Minutes: null,
    releaseToPostedP95Minutes: null,
    releaseToClaimP50Minutes: null,
    releaseToClaimP95Minutes: null,
    windowsMissed: 0,
  });
  Object.assign(c, { posted: 2, onTime: 1, failed: 0, unconfirmed: 1, missed: 3 });
  const f = figuresOf(c);
  assert.equal(f.delivered, 3);
  assert.equal(f.onTimeRatio, 0.3333);
  assert.equal(f.unconfirmedRatio, 0.3333);
  assert.equal(f.windowsMissed, 3);
});

test('release-to-claim percentiles read their own histogram, apart from posting', () => {
  const c = emptyCounts();
  for (const m of [0.5, 3, 3, 14, 200]) c.claimLatency[latencyBucket(m * MIN)]! += 1;
  const f = figuresOf(c);
  assert.equal(f.releaseToClaimP50Minutes, 3);
  assert.equal(f.releaseToClaimP95Minutes, 240);
  assert.equal(f.releaseToPostedP50Minutes, null, 'claims alone post nothing');
  assert.equal(f.delivered, 0, 'a claim is not an outcome');
  const sum = addCounts(emptyCounts(), c);
  addCounts(sum, c);
  assert.equal(sum.claimLatency[latencyBucket(3 * MIN)], 4, 'sums add the claim buckets');
  assert.deepEqual(sum.latency, emptyCounts().latency);
});

test('the last N days start N-1 UTC days before today', () => {
  assert.equal(firstDayOf(new Date('2026-06-20T00:30:00Z'), 7), '2026-06-14');
  assert.equal(firstDayOf(new Date('2026-06-20T23:59:00Z'), 1), '2026-06-20');
});
