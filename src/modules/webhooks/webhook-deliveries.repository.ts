// webhook_deliveries (one per endpoint and event, with its retry state) and
// webhook_attempts (the delivery log).
import { keysetPage } from '../../db/keyset.ts';
import type { DbOrTx, WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/types.ts';

const ROWS_PER_INSERT = 500;

/** New deliveries; one already there for the endpoint and event is left as it is. */
export async function insertWebhookDeliveries(
  db: DbOrTx,
  rows: readonly WebhookDeliveriesTable[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
      .execute();
  }
}

/**
 * Starts a new round for the endpoint's deliveries of these events (a replay): pending, due
 * now, attempt count back to zero. Deliveries that do not exist yet are created.
 */
export async function replay(
  db: DbOrTx,
  rows: readonly WebhookDeliveriesTable[],
  at: string,
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflict((oc) =>
        oc.columns(['endpoint_id', 'event_id']).doUpdateSet({
          status: 'pending',
          trigger: 'replay',
          attempts: 0,
          next_attempt_at: at,
          updated_at: at,
        }),
      )
      .execute();
  }
}

/**
 * Up to `limit` pending deliveries due at `now`, oldest due first. On PostgreSQL rows
 * another transaction holds are skipped; the caller moves `next_attempt_at` past a lease
 * in the same transaction, so each attempt is claimed by one sender.
 */
export async function dueWebhookDeliveries(
  tx: DbOrTx,
  now: string,
  limit: number,
): Promise<WebhookDeliveriesTable[]> {
  const q = tx
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return q.execute();
}

/** Claims the deliveries until `leaseUntil` and counts the attempt about to be made. */
export async function lease(
  tx: DbOrTx,
  ids: readonly string[],
  leaseUntil: string,
  at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      next_attempt_at: leaseUntil,
      attempts: eb('attempts', '+', 1),
      updated_at: at,
    }))
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * Records attempts' outcome, conditional on each delivery still being the claimed attempt
 * (pending, with the same attempt count): a sender whose lease ran out and whose delivery
 * was claimed again writes nothing.
 */
export async function settle(
  db: DbOrTx,
  ids: readonly string[],
  claimedAttempts: number,
  set: Pick<WebhookDeliveriesTable, 'status' | 'next_attempt_at' | 'last_response_status'> & {
    at: string;
  },
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: set.status,
      next_attempt_at: set.next_attempt_at,
      last_response_status: set.last_response_status,
      last_attempt_at: set.at,
      updated_at: set.at,
    })
    .where('id', 'in', [...ids])
    .where('status', '=', 'pending')
    .where('attempts', '=', claimedAttempts)
    .execute();
}

export async function insertAttempts(
  db: DbOrTx,
  rows: readonly WebhookAttemptsTable[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT / 2) {
    await db
      .insertInto('webhook_attempts')
      .values(rows.slice(i, i + ROWS_PER_INSERT / 2))
      .execute();
  }
}

/** Pending deliveries of an endpoint go no further (it was disabled): they fail. */
export async function failPendingOf(db: DbOrTx, endpointId: string, at: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, updated_at: at })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** The endpoint's attempts, newest first, before (started_at, id). */
export async function pageAttempts(
  db: DbOrTx,
  companyId: string,
  endpointId: string,
  opts: { before: [string, string] | null; limit: number; eventId?: string; outcome?: string },
): Promise<WebhookAttemptsTable[]> {
  let q = db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', endpointId);
  if (opts.eventId !== undefined) q = q.where('event_id', '=', opts.eventId);
  if (opts.outcome !== undefined) q = q.where('outcome', '=', opts.outcome);
  const page = { after: opts.before, limit: opts.limit };
  return keysetPage(q, page, { time: 'started_at', desc: true }).execute();
}

/** The endpoint's deliveries, newest first, before (created_at, id). */
export async function pageWebhookDeliveries(
  db: DbOrTx,
  companyId: string,
  endpointId: string,
  opts: { before: [string, string] | null; limit: number; status?: string; eventId?: string },
): Promise<WebhookDeliveriesTable[]> {
  let q = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', endpointId);
  if (opts.status !== undefined) q = q.where('status', '=', opts.status);
  if (opts.eventId !== undefined) q = q.where('event_id', '=', opts.eventId);
  return keysetPage(q, { after: opts.before, limit: opts.limit }, { desc: true }).execute();
}

/** When the endpoint's deliveries of one event type created since `since` were created. */
export async function webhookDeliveryTimesSince(
  db: DbOrTx,
  companyId: string,
  endpointId: string,
  eventType: string,
  since: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('created_at')
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', endpointId)
    .where('event_type', '=', eventType)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.created_at);
}
