import { sql } from 'kysely';
import type { DbOrTx } from '../../db/types.ts';
import { param, prepared } from '../../db/prepared.ts';

const consumeQuery = prepared((db) =>
  db
    .insertInto('usage_counters')
    .values({
      company_id: param('company'),
      metric: param('metric'),
      period: param('period'),
      count: sql<number>`${param('n')}`,
    })
    .onConflict((oc) =>
      oc
        .columns(['company_id', 'metric', 'period'])
        .doUpdateSet({ count: sql<number>`usage_counters.count + ${param('n')}` })
        .where(sql<boolean>`usage_counters.count + ${param('n')} <= ${param('cap')}`),
    )
    .returning('count'),
);

/**
 * Adds `n` to a counter unless that would pass `cap`; returns the new count,
 * or null when the cap holds it back. A single conditional upsert, so it is
 * exact under concurrency on both databases.
 */
export async function consume(
  db: DbOrTx,
  companyId: string,
  metric: string,
  period: string,
  n: number,
  cap: number,
): Promise<number | null> {
  if (n > cap) return null;
  const [row] = await consumeQuery(db, { company: companyId, metric, period, n, cap });
  return row ? Number(row.count) : null;
}

export interface Consumption {
  metric: string;
  period: string;
  n: number;
  cap: number;
}

// Two counters in one conditional upsert: each row is updated only while its
// own cap holds, and only the rows counted come back.
const consumeTwoQuery = prepared((db) =>
  db
    .insertInto('usage_counters')
    .values(
      [0, 1].map((i) => ({
        company_id: param('company'),
        metric: param(`metric${i}`),
        period: param(`period${i}`),
        count: sql<number>`${param(`n${i}`)}`,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['company_id', 'metric', 'period'])
        .doUpdateSet({ count: sql<number>`usage_counters.count + excluded.count` })
        .where(
          sql<boolean>`(excluded.metric = ${param('metric0')} and usage_counters.count + excluded.count <= ${param('cap0')}) or (excluded.metric = ${param('metric1')} and usage_counters.count + excluded.count <= ${param('cap1')})`,
        ),
    )
    .returning(['metric', 'count']),
);

/**
 * `consume` for two counters of different metrics at once; returns each new
 * count, or null where that cap holds the count back. The other counter may
 * have been counted even so: callers run this in a transaction they abandon
 * when either is null.
 */
export async function consumeTwo(
  db: DbOrTx,
  companyId: string,
  a: Consumption,
  b: Consumption,
): Promise<[number | null, number | null]> {
  if (a.n > a.cap || b.n > b.cap) {
    // Held back without asking the database; counted one by one as `consume` does.
    return [
      await consume(db, companyId, a.metric, a.period, a.n, a.cap),
      await consume(db, companyId, b.metric, b.period, b.n, b.cap),
    ];
  }
  const rows = await consumeTwoQuery(db, {
    company: companyId,
    metric0: a.metric,
    period0: a.period,
    n0: a.n,
    cap0: a.cap,
    metric1: b.metric,
    period1: b.period,
    n1: b.n,
    cap1: b.cap,
  });
  const count = (metric: string) => {
    const row = rows.find((r) => r.metric === metric);
    return row ? Number(row.count) : null;
  };
  return [count(a.metric), count(b.metric)];
}

/** Gives back units consumed by an operation that did not go through. */
export async function refund(
  db: DbOrTx,
  companyId: string,
  metric: string,
  period: string,
  n: number,
): Promise<void> {
  await db
    .updateTable('usage_counters')
    .set({ count: sql<number>`case when count >= ${n} then count - ${n} else 0 end` })
    .where('company_id', '=', companyId)
    .where('metric', '=', metric)
    .where('period', '=', period)
    .execute();
}

export async function readCounters(
  db: DbOrTx,
  companyId: string,
  keys: { metric: string; period: string }[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (keys.length === 0) return out;
  const rows = await db
    .selectFrom('usage_counters')
    .select(['metric', 'period', 'count'])
    .where('company_id', '=', companyId)
    .where((eb) =>
      eb.or(keys.map((k) => eb.and([eb('metric', '=', k.metric), eb('period', '=', k.period)]))),
    )
    .execute();
  for (const r of rows) out.set(`${r.metric}@${r.period}`, Number(r.count));
  return out;
}

/** One counter (metric and period) of each of these companies that has it. */
export async function readCounterOf(
  db: DbOrTx,
  companyIds: readonly string[],
  metric: string,
  period: string,
): Promise<Map<string, number>> {
  if (companyIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('usage_counters')
    .select(['company_id', 'count'])
    .where('company_id', 'in', companyIds)
    .where('metric', '=', metric)
    .where('period', '=', period)
    .execute();
  return new Map(rows.map((r) => [r.company_id, Number(r.count)]));
}
