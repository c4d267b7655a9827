// The push_subscriptions table: one row per device, keyed by its push service endpoint.
import type { DbOrTx, PushSubscriptionsTable } from '../../db/types.ts';

/** Writes the subscription, or moves its endpoint to this owner with the new keys. */
export async function upsertSubscription(db: DbOrTx, row: PushSubscriptionsTable): Promise<void> {
  await db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({
        audience: row.audience,
        owner_id: row.owner_id,
        company_id: row.company_id,
        p256dh: row.p256dh,
        auth: row.auth,
        expiration_time: row.expiration_time,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function findByEndpoint(
  db: DbOrTx,
  endpoint: string,
): Promise<PushSubscriptionsTable | undefined> {
  return db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
}

export async function findSubscription(
  db: DbOrTx,
  id: string,
): Promise<PushSubscriptionsTable | undefined> {
  return db.selectFrom('push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Removes the owner's subscription of `endpoint`; false when the owner had none. */
export async function deleteOwned(
  db: DbOrTx,
  audience: 'worker' | 'user',
  ownerId: string,
  endpoint: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('audience', '=', audience)
    .where('owner_id', '=', ownerId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteSubscription(db: DbOrTx, id: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

/** The subscriptions of these owners, oldest first. */
export async function listOfOwners(
  db: DbOrTx,
  audience: 'worker' | 'user',
  ownerIds: readonly string[],
): Promise<PushSubscriptionsTable[]> {
  if (ownerIds.length === 0) return [];
  return db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('audience', '=', audience)
    .where('owner_id', 'in', [...ownerIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
