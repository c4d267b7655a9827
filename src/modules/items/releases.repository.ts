// The releases table (DECISIONS 5): one row per account, local date and slot, naming the
// item released in it. Its primary key and unique item id make a slot or an item go out
// once, whatever number of dispatchers race for it.
import type { DbOrTx, ReleasesTable } from '../../db/types.ts';

/** Writes the rows; returns the item ids of those this transaction took. */
export async function insertReleases(
  tx: DbOrTx,
  rows: readonly ReleasesTable[],
): Promise<string[]> {
  const taken = await tx
    .insertInto('releases')
    .values([...rows])
    .onConflict((oc) => oc.doNothing())
    .returning('queue_item_id')
    .execute();
  return taken.map((r) => r.queue_item_id);
}

/** Gives back the slots taken for these items. */
export async function deleteReleasesOf(tx: DbOrTx, itemIds: readonly string[]): Promise<void> {
  if (itemIds.length === 0) return;
  await tx
    .deleteFrom('releases')
    .where('queue_item_id', 'in', [...itemIds])
    .execute();
}

/** The release of an item: when, and the start of the slot it went into (if recorded). */
export async function releaseOf(
  db: DbOrTx,
  itemId: string,
): Promise<{ released_at: string | null; slot_start: string | null } | undefined> {
  return db
    .selectFrom('queue_items')
    .leftJoin('releases', 'releases.queue_item_id', 'queue_items.id')
    .select(['queue_items.released_at', 'releases.slot_start'])
    .where('queue_items.id', '=', itemId)
    .executeTakeFirst();
}
