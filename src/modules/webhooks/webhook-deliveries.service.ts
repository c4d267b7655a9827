// Webhook delivery: events leave the outbox to the endpoints subscribed when they are
// fanned out, each delivery is claimed by one sender at a time (a lease in the row, taken
// with FOR UPDATE SKIP LOCKED on PostgreSQL), sent signed (Standard Webhooks), and settled:
// 2xx succeeds, anything else is retried on the schedule below, then fails. Every attempt
// is logged. A 410 answer, or 5 days of nothing but failures, disables the endpoint.
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import type {
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookEventsTable,
} from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import * as deliveries from './webhook-deliveries.repository.ts';
import * as endpoints from './webhook-endpoints.repository.ts';
import * as events from './webhook-events.repository.ts';

/** Standard Webhooks' schedule: the wait after each failed attempt; then it fails. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
] as const;
/** An endpoint failing for this long with no success is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;
/**
 * A claim lasts twice the attempt's timeout (the attempt, then its settle); a sender that
 * died leaves the delivery due again after that.
 */
const LEASE_FACTOR = 2;
const FAN_OUT_BATCH = 500;
/** Kept of an answer's body in the log. */
export const RESPONSE_KEPT_BYTES = 1024;

/** The wait before attempt `attempts + 1`, ±10 % so retries of many events spread out. */
export function retryDelay(attempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/**
 * Fans out up to FAN_OUT_BATCH due events: one delivery per enabled endpoint of the event's
 * company subscribed to its type. Returns how many events went.
 */
export async function fanOut(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  return db.transaction().execute(async (tx) => {
    const due = await events.claimUnsent(tx, at, FAN_OUT_BATCH);
    if (due.length === 0) return 0;
    const targets = await endpoints.enabledEndpointsOf(tx, [
      ...new Set(due.map((e) => e.company_id)),
    ]);
    const rows: WebhookDeliveriesTable[] = [];
    for (const event of due) {
      for (const endpoint of targets) {
        if (endpoint.company_id !== event.company_id) continue;
        if (!(JSON.parse(endpoint.event_types) as string[]).includes(event.type)) continue;
        rows.push(newWebhookDelivery(endpoint.id, event, at));
      }
    }
    await deliveries.insertWebhookDeliveries(tx, rows);
    await events.markFannedOut(
      tx,
      due.map((e) => e.id),
      at,
    );
    return due.length;
  });
}

export function newWebhookDelivery(
  endpointId: string,
  event: WebhookEventsTable,
  at: string,
): WebhookDeliveriesTable {
  return {
    id: newId('dlv', Date.parse(at)),
    company_id: event.company_id,
    endpoint_id: endpointId,
    event_id: event.id,
    event_type: event.type,
    status: 'pending',
    trigger: 'scheduled',
    attempts: 0,
    next_attempt_at: at,
    last_attempt_at: null,
    last_response_status: null,
    created_at: at,
    updated_at: at,
  };
}

/** One claimed attempt, with everything needed to send it. */
export interface Claimed {
  delivery: WebhookDeliveriesTable;
  endpoint: WebhookEndpointsTable;
  event: WebhookEventsTable;
  /** The delivery's attempt count including this attempt. */
  attempt: number;
}

/**
 * Claims up to `limit` due deliveries, none of the endpoints in `skip` (those at their
 * concurrency in this process). Deliveries of endpoints disabled meanwhile fail here.
 */
export async function claimDue(
  ctx: AppContext,
  now: Date,
  limit: number,
  skip: ReadonlySet<string>,
  perEndpoint: (endpointId: string) => number,
): Promise<Claimed[]> {
  if (limit <= 0) return [];
  const at = now.toISOString();
  const leaseUntil = new Date(
    now.getTime() + ctx.config.webhookTimeoutMs * LEASE_FACTOR,
  ).toISOString();
  return ctx.db.transaction().execute(async (tx) => {
    const due = (await deliveries.dueWebhookDeliveries(tx, at, limit * 4)).filter(
      (d) => !skip.has(d.endpoint_id),
    );
    if (due.length === 0) return [];
    const byId = new Map(
      (await endpoints.endpointsByIds(tx, [...new Set(due.map((d) => d.endpoint_id))])).map((e) => [
        e.id,
        e,
      ]),
    );
    const taken: WebhookDeliveriesTable[] = [];
    const room = new Map<string, number>();
    const disabled = new Set<string>();
    for (const d of due) {
      const endpoint = byId.get(d.endpoint_id);
      if (!endpoint || endpoint.disabled_at) {
        disabled.add(d.endpoint_id);
        continue;
      }
      const left = room.get(d.endpoint_id) ?? perEndpoint(d.endpoint_id);
      if (left <= 0 || taken.length >= limit) continue;
      room.set(d.endpoint_id, left - 1);
      taken.push(d);
    }
    for (const id of disabled) await deliveries.failPendingOf(tx, id, at);
    await deliveries.lease(
      tx,
      taken.map((d) => d.id),
      leaseUntil,
      at,
    );
    const eventRows = new Map(
      (await events.eventsByIds(tx, [...new Set(taken.map((d) => d.event_id))])).map((e) => [
        e.id,
        e,
      ]),
    );
    return taken.flatMap((d) => {
      const event = eventRows.get(d.event_id);
      const endpoint = byId.get(d.endpoint_id);
      return event && endpoint ? [{ delivery: d, endpoint, event, attempt: d.attempts + 1 }] : [];
    });
  });
}

/** The JSON body of an event: `{type, timestamp, data}`, with the stored data as written. */
export function payloadOf(event: WebhookEventsTable): string {
  return `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(event.created_at)},"data":${event.data}}`;
}

/** What one attempt came to. */
export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  status: number | null;
  body: string | null;
  error: string | null;
}

/** An attempt made, to be settled. */
export interface Attempted {
  claimed: Claimed;
  result: AttemptResult;
}

function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}

/**
 * Writes the attempts to the log and settles their deliveries and their endpoints' health,
 * in one transaction (senders batch what finished meanwhile). Each delivery is settled only
 * if it is still the claimed attempt: a sender whose lease ran out, its delivery claimed
 * again, changes nothing but the log.
 */
export async function settleAttempts(
  ctx: AppContext,
  batch: readonly Attempted[],
  now: Date,
): Promise<void> {
  if (batch.length === 0) return;
  const at = now.toISOString();
  await ctx.db.transaction().execute(async (tx) => {
    // Endpoints first, in id order: settles of one endpoint queue up, never deadlock.
    const ids = [...new Set(batch.map((b) => b.claimed.endpoint.id))].sort();
    const current = new Map((await endpoints.lockForSettle(tx, ids)).map((e) => [e.id, e]));
    // An endpoint deleted during its attempts took its deliveries and log with it.
    const live = batch.filter((b) => current.has(b.claimed.endpoint.id));
    await deliveries.insertAttempts(
      tx,
      live.map(({ claimed, result }) => ({
        id: newId('att', now.getTime()),
        company_id: claimed.delivery.company_id,
        endpoint_id: claimed.endpoint.id,
        delivery_id: claimed.delivery.id,
        event_id: claimed.delivery.event_id,
        event_type: claimed.delivery.event_type,
        attempt: claimed.attempt,
        trigger: claimed.delivery.trigger,
        started_at: result.startedAt.toISOString(),
        duration_ms: Math.max(0, Math.round(result.durationMs)),
        outcome: isSuccess(result.status) ? 'succeeded' : 'failed',
        response_status: result.status,
        response_body: result.body,
        error: result.error,
      })),
    );
    // Deliveries settled alike share one statement: (status, next attempt, answer, attempt).
    const groups = new Map<string, { ids: string[]; attempt: number; set: Settle }>();
    for (const { claimed, result } of live) {
      const ok = isSuccess(result.status);
      const wait = ok || result.status === 410 ? null : retryDelay(claimed.attempt);
      const set: Settle = {
        status: ok ? 'succeeded' : wait === null ? 'failed' : 'pending',
        next_attempt_at: wait === null ? null : new Date(now.getTime() + wait).toISOString(),
        last_response_status: result.status,
        at,
      };
      const key = JSON.stringify([
        set.status,
        set.next_attempt_at,
        set.last_response_status,
        claimed.attempt,
      ]);
      const group = groups.get(key);
      if (group) group.ids.push(claimed.delivery.id);
      else groups.set(key, { ids: [claimed.delivery.id], attempt: claimed.attempt, set });
    }
    for (const g of groups.values()) await deliveries.settle(tx, g.ids, g.attempt, g.set);

    const succeeded = new Set<string>();
    const gone = new Set<string>();
    const failed = new Set<string>();
    for (const { claimed, result } of live) {
      const id = claimed.endpoint.id;
      if (isSuccess(result.status)) succeeded.add(id);
      else if (result.status === 410) gone.add(id);
      else failed.add(id);
    }
    await endpoints.markSucceeded(tx, [...succeeded], at);
    for (const id of failed) {
      if (succeeded.has(id)) continue;
      await endpoints.markFailing(tx, id, at);
      const since = current.get(id)?.failing_since ?? at;
      if (now.getTime() - Date.parse(since) >= DISABLE_AFTER_MS) {
        gone.delete(id);
        if (await endpoints.disable(tx, id, `every attempt failed since ${since}`, at)) {
          await deliveries.failPendingOf(tx, id, at);
        }
      }
    }
    for (const id of gone) {
      if (await endpoints.disable(tx, id, 'the endpoint answered 410 Gone', at)) {
        await deliveries.failPendingOf(tx, id, at);
      }
    }
  });
  for (const { claimed, result } of batch) {
    const ok = isSuccess(result.status);
    ctx.metrics.webhookAttempt(
      ok ? 'succeeded' : 'failed',
      result.durationMs / 1000,
      ok ? (now.getTime() - Date.parse(claimed.event.created_at)) / 1000 : undefined,
    );
  }
}

type Settle = Pick<
  WebhookDeliveriesTable,
  'status' | 'next_attempt_at' | 'last_response_status'
> & { at: string };

/** Deletes events (with their deliveries and attempts) older than `before`, in batches. */
export async function prune(db: Db, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db
      .transaction()
      .execute((tx) => events.pruneEvents(tx, before.toISOString(), 1000));
    total += n;
    if (n < 1000) return total;
  }
}
