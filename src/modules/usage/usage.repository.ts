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
