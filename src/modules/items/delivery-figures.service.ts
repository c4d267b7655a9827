// Delivery figures, the proof and punctuality of delivery: the counters the item state
// machine moves in the transaction of each outcome and of each claim (items.state.ts,
// released-items.state.ts), and the figures read from them per company, account and worker.
import type { DbOrTx } from '../../db/types.ts';
import {
  addCounts,
  emptyCounts,
  figuresOf,
  firstDayOf,
  latencyBucket,
  type DeliveryFigureCounts,
  type DeliveryFigures,
} from './delivery-figures.rules.ts';
import * as days from './delivery-figures.repository.ts';
import type { DeliveryFigureBump, DeliveryFigureScope } from './delivery-figures.repository.ts';

export type { DeliveryFigures, DeliveryFigureScope };

/** One outcome (or the claim) of a released item, as the counters see it. */
export type DeliveryFigureOutcome = {
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
  // A worker claimed the released item: counts its release-to-claim time only.
  | { kind: 'claimed'; latencyMs: number }
);

function countsOf(o: DeliveryFigureOutcome): DeliveryFigureCounts {
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
    case 'claimed':
      c.claimLatency[latencyBucket(o.latencyMs)] = 1;
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
  outcomes: readonly DeliveryFigureOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const bumps = new Map<string, DeliveryFigureBump>();
  const add = (scope: DeliveryFigureScope, scopeId: string, o: DeliveryFigureOutcome) => {
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
export const DELIVERY_FIGURE_PERIODS = [7, 30] as const;
export type DeliveryFigurePeriod = (typeof DELIVERY_FIGURE_PERIODS)[number];

/**
 * Delivery figures of the subjects over the last `days` UTC days (today included): of the
 * given ids, or of every subject with deliveries when `ids` is null. Restricted to one
 * company's items with `companyId` (always, for a company's own reads).
 */
export async function deliveryFigures(
  db: DbOrTx,
  scope: DeliveryFigureScope,
  ids: readonly string[] | null,
  now: Date,
  period: DeliveryFigurePeriod,
  companyId?: string,
): Promise<Map<string, DeliveryFigures>> {
  const sums = await days.sumDays(db, scope, ids, firstDayOf(now, period), companyId);
  const out = new Map<string, DeliveryFigures>();
  for (const id of ids ?? sums.keys()) out.set(id, figuresOf(sums.get(id) ?? emptyCounts()));
  return out;
}

/** Figures of a whole scope together (every company, say), for the metrics scrape. */
export async function deliveryFigureTotals(
  db: DbOrTx,
  scope: DeliveryFigureScope,
  now: Date,
  period: DeliveryFigurePeriod,
): Promise<DeliveryFigures> {
  const sums = await days.sumDays(db, scope, null, firstDayOf(now, period));
  const total = emptyCounts();
  for (const c of sums.values()) addCounts(total, c);
  return figuresOf(total);
}
