// webhook_endpoints: every read and write takes the company's id.
import { keysetPage } from '../../db/keyset.ts';
import type { DbOrTx, WebhookEndpointsTable } from '../../db/types.ts';

export async function insertEndpoint(db: DbOrTx, row: WebhookEndpointsTable): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function findEndpoint(
  db: DbOrTx,
  companyId: string,
  id: string,
): Promise<WebhookEndpointsTable | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function countEndpoints(db: DbOrTx, companyId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of the company's endpoints, oldest first, after (created_at, id). */
export async function pageEndpoints(
  db: DbOrTx,
  companyId: string,
  after: [string, string] | null,
  limit: number,
): Promise<WebhookEndpointsTable[]> {
  const q = db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId);
  return keysetPage(q, { after, limit }).execute();
}

export async function updateEndpoint(
  db: DbOrTx,
  companyId: string,
  id: string,
  set: Partial<Omit<WebhookEndpointsTable, 'id' | 'company_id' | 'created_at'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set(set)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the endpoint with its deliveries and their attempts. */
export async function deleteEndpoint(db: DbOrTx, companyId: string, id: string): Promise<boolean> {
  await db
    .deleteFrom('webhook_attempts')
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', id)
    .execute();
  await db
    .deleteFrom('webhook_deliveries')
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', id)
    .execute();
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Enabled endpoints of the given companies: the fan-out's targets. */
export async function enabledEndpointsOf(
  db: DbOrTx,
  companyIds: readonly string[],
): Promise<WebhookEndpointsTable[]> {
  if (companyIds.length === 0) return [];
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('company_id', 'in', [...companyIds])
    .where('disabled_at', 'is', null)
    .execute();
}

export async function endpointsByIds(
  db: DbOrTx,
  ids: readonly string[],
): Promise<WebhookEndpointsTable[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * Locks the endpoint rows for settling attempts, in id order: taken first, so
 * settles of one endpoint queue up instead of deadlocking on its row and their deliveries'.
 */
export async function lockForSettle(
  tx: DbOrTx,
  ids: readonly string[],
): Promise<Pick<WebhookEndpointsTable, 'id' | 'failing_since'>[]> {
  if (ids.length === 0) return [];
  return tx
    .selectFrom('webhook_endpoints')
    .select(['id', 'failing_since'])
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/** After successful attempts: no longer failing. */
export async function markSucceeded(db: DbOrTx, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null, last_success_at: at })
    .where('id', 'in', [...ids])
    .execute();
}

/** After a failed attempt: failing since the first failure after the last success. */
export async function markFailing(db: DbOrTx, id: string, at: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: at })
    .where('id', '=', id)
    .where('failing_since', 'is', null)
    .execute();
}

/** Disables an enabled endpoint; returns whether it was enabled. */
export async function disable(
  db: DbOrTx,
  id: string,
  reason: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: at, disabled_reason: reason, updated_at: at })
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
