// The delivery counters (delivery_days): moved in the transaction of each outcome, read in
// sums over a range of days. One row per subject (company, account or worker), company and
// UTC day of release.
import { sql } from 'kysely';
import type { DbOrTx, DeliveryDaysTable } from '../../db/types.ts';
import {
  LATENCY_BUCKETS,
  emptyCounts,
  type DeliveryFigureCounts,
} from './delivery-figures.rules.ts';

export type DeliveryFigureScope = 'company' | 'account' | 'worker';

/** What one change adds to one subject's day. */
export interface DeliveryFigureBump {
  scope: DeliveryFigureScope;
  scopeId: string;
  companyId: string;
  day: string;
  counts: DeliveryFigureCounts;
}

const BUCKET_COLUMNS = Array.from({ length: LATENCY_BUCKETS }, (_, i) => `lat_${i}` as const);
const CLAIM_BUCKET_COLUMNS = Array.from(
  { length: LATENCY_BUCKETS },
  (_, i) => `claim_lat_${i}` as const,
);
const COUNT_COLUMNS = ['posted', 'on_time', 'failed', 'unconfirmed', 'missed'] as const;

function rowOf(b: DeliveryFigureBump): DeliveryDaysTable {
  const row: DeliveryDaysTable = {
    scope: b.scope,
    scope_id: b.scopeId,
    day: b.day,
    company_id: b.companyId,
    posted: b.counts.posted,
    on_time: b.counts.onTime,
    failed: b.counts.failed,
    unconfirmed: b.counts.unconfirmed,
    missed: b.counts.missed,
  };
  BUCKET_COLUMNS.forEach((c, i) => (row[c] = b.counts.latency[i] ?? 0));
  CLAIM_BUCKET_COLUMNS.forEach((c, i) => (row[c] = b.counts.claimLatency[i] ?? 0));
  return row;
}

/**
 * Adds the bumps to their rows, creating those missing, in one statement. The caller passes
 * at most one bump per row, sorted by key, so that concurrent transactions take the rows in
 * one order.
 */
export async function addToDays(tx: DbOrTx, bumps: readonly DeliveryFigureBump[]): Promise<void> {
  if (bumps.length === 0) return;
  await tx
    .insertInto('delivery_days')
    .values(bumps.map(rowOf))
    .onConflict((oc) =>
      oc
        .columns(['scope', 'scope_id', 'day', 'company_id'])
        .doUpdateSet(
          Object.fromEntries(
            [...COUNT_COLUMNS, ...BUCKET_COLUMNS, ...CLAIM_BUCKET_COLUMNS].map((c) => [
              c,
              sql<number>`${sql.ref(`delivery_days.${c}`)} + ${sql.ref(`excluded.${c}`)}`,
            ]),
          ),
        ),
    )
    .execute();
}

/**
 * The counters of each subject of `scope` since `fromDay` (inclusive), summed over days
 * (and over companies, unless `companyId` restricts them): of the given subjects, or of
 * every subject with a row when `scopeIds` is null.
 */
export async function sumDays(
  db: DbOrTx,
  scope: DeliveryFigureScope,
  scopeIds: readonly string[] | null,
  fromDay: string,
  companyId?: string,
): Promise<Map<string, DeliveryFigureCounts>> {
  if (scopeIds !== null && scopeIds.length === 0) return new Map();
  let q = db
    .selectFrom('delivery_days')
    .select('scope_id')
    .select((eb) =>
      [...COUNT_COLUMNS, ...BUCKET_COLUMNS, ...CLAIM_BUCKET_COLUMNS].map((c) =>
        eb.fn.sum<number | string>(sql.ref(c)).as(c),
      ),
    )
    .where('scope', '=', scope)
    .where('day', '>=', fromDay)
    .groupBy('scope_id');
  if (scopeIds !== null) q = q.where('scope_id', 'in', [...scopeIds]);
  if (companyId !== undefined) q = q.where('company_id', '=', companyId);
  const rows = (await q.execute()) as unknown as Record<string, string | number>[];
  const out = new Map<string, DeliveryFigureCounts>();
  for (const r of rows) {
    const c = emptyCounts();
    c.posted = Number(r.posted);
    c.onTime = Number(r.on_time);
    c.failed = Number(r.failed);
    c.unconfirmed = Number(r.unconfirmed);
    c.missed = Number(r.missed);
    c.latency = BUCKET_COLUMNS.map((col) => Number(r[col] ?? 0));
    c.claimLatency = CLAIM_BUCKET_COLUMNS.map((col) => Number(r[col] ?? 0));
    out.set(String(r.scope_id), c);
  }
  return out;
}
