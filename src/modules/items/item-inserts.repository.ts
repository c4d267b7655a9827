// The inserts of queue_items: a post's new items, as many as its accounts, in one prepared
// statement per row count.
import { param, perLength, prepared, slot } from '../../db/prepared.ts';
import type { Db, DbOrTx, QueueItemsTable } from '../../db/types.ts';

const ITEM_COLUMNS = [
  'id',
  'company_id',
  'post_id',
  'account_id',
  'status',
  'skip_approval',
  'priority',
  'queued_at',
  'approved_at',
  'scheduled_after',
  'released_at',
  'posted_at',
  'post_url',
  'failure_reason',
  'updated_at',
] as const satisfies readonly (keyof QueueItemsTable)[];

const insertItemsQuery = perLength((n) =>
  prepared((db: Db) =>
    db.insertInto('queue_items').values(
      Array.from({ length: n }, (_, i) => ({
        ...(Object.fromEntries(
          ITEM_COLUMNS.map((c) => [c, param(`${c}${i}`)]),
        ) as unknown as QueueItemsTable),
        skip_approval: slot<number>(`skip_approval${i}`),
        priority: slot<number>(`priority${i}`),
      })),
    ),
  ),
);

/** Parameter names of row `i` of the items insert, made once. */
const itemKeys: string[][] = [];
function itemKeysOf(i: number): string[] {
  return (itemKeys[i] ??= ITEM_COLUMNS.map((c) => `${c}${i}`));
}

function itemValues(rows: readonly QueueItemsTable[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    const keys = itemKeysOf(i);
    ITEM_COLUMNS.forEach((c, j) => (values[keys[j] as string] = row[c]));
  });
  return values;
}

export async function insertItems(db: DbOrTx, rows: readonly QueueItemsTable[]): Promise<void> {
  if (rows.length) await insertItemsQuery(rows.length)(db, itemValues(rows));
}
