// Proof and punctuality of delivery: the counters the item state machine moves in the
// transaction of each outcome (items.state.ts), the figures read from them per company,
// account and worker, and the delivery record of each item of a post.
import type { DbOrTx } from '../../db/types.ts';
import {
  addCounts,
  emptyCounts,
  figuresOf,
  firstDayOf,
  latencyBucket,
  type DeliveryCounts,
  type DeliveryFigures,
} from './delivery.rules.ts';
import * as days from './delivery-days.repository.ts';
import type { DeliveryBump, DeliveryScope } from './delivery-days.repository.ts';

export type { DeliveryFigures, DeliveryScope };

/** One outcome of a released item, as the counters see it. */
export type DeliveryOutcome = {
  companyId: string;
  accountId: string;
  /** The worker answerable for it: the claimer, else the account's worker. */
  workerId: string | null;
  releasedAt: string;
} & (
  | { kind: 'posted'; onTime: boolean; latencyMs: number; fromUnconfirmed: boolean }
  | { kind: 'failed' }
  | { kind: 'unconfirmed' }
  | { kind: 'missed' }
);

function countsOf(o: DeliveryOutcome): DeliveryCounts {
  const c = emptyCounts();
  switch (o.kind) {
    case 'posted':
      c.posted = 1;
      c.onTime = o.onTime ? 1 : 0;
      c.latency[latencyBucket(o.latencyMs)] = 1;
      // A late confirmation turns an unconfirmed item into a posted one.
      if (o.fromUnconfirmed) c.unconfirmed = -1;
      break;
    case 'failed':
      c.failed = 1;
      break;
    case 'unconfirmed':
      c.unconfirmed = 1;
      break;
    case 'missed':
      c.missed = 1;
      break;
  }
  return c;
}

/**
 * Adds the outcomes to the counters of their company, account and worker, for the UTC day
 * of their release, in the caller's transaction: one statement, rows in key order.
 */
export async function countOutcomes(
  tx: DbOrTx,
  outcomes: readonly DeliveryOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const bumps = new Map<string, DeliveryBump>();
  const add = (scope: DeliveryScope, scopeId: string, o: DeliveryOutcome) => {
    const day = o.releasedAt.slice(0, 10);
    const key = `${scope}\u0000${scopeId}\u0000${day}\u0000${o.companyId}`;
    const bump = bumps.get(key);
    if (bump) addCounts(bump.counts, countsOf(o));
    else bumps.set(key, { scope, scopeId, companyId: o.companyId, day, counts: countsOf(o) });
  };
  for (const o of outcomes) {
    add('company', o.companyId, o);
    add('account', o.accountId, o);
    if (o.workerId) add('worker', o.workerId, o);
  }
  const sorted = [...bumps].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, b]) => b);
  await days.addToDays(tx, sorted);
}

/** Periods the figures are kept for, in days. */
export const DELIVERY_PERIODS = [7, 30] as const;
export type DeliveryPeriod = (typeof DELIVERY_PERIODS)[number];

/**
 * Delivery figures of the subjects over the last `days` UTC days (today included): of the
 * given ids, or of every subject with deliveries when `ids` is null. Restricted to one
 * company's items with `companyId` (always, for a company's own reads).
 */
export async function deliveryFigures(
  db: DbOrTx,
  scope: DeliveryScope,
  ids: readonly string[] | null,
  now: Date,
  period: DeliveryPeriod,
  companyId?: string,
): Promise<Map<string, DeliveryFigures>> {
  const sums = await days.sumDays(db, scope, ids, firstDayOf(now, period), companyId);
  const out = new Map<string, DeliveryFigures>();
  for (const id of ids ?? sums.keys()) out.set(id, figuresOf(sums.get(id) ?? emptyCounts()));
  return out;
}

/** Figures of a whole scope together (every company, say), for the metrics scrape. */
export async function deliveryTotals(
  db: DbOrTx,
  scope: DeliveryScope,
  now: Date,
  period: DeliveryPeriod,
): Promise<DeliveryFigures> {
  const sums = await days.sumDays(db, scope, null, firstDayOf(now, period));
  const total = emptyCounts();
  for (const c of sums.values()) addCounts(total, c);
  return figuresOf(total);
}
