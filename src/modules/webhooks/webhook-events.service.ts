// Recording webhook events: called by the function that owns each state change, inside its
// transaction (GUIDE, rules of direction), so an event exists exactly when its change
// committed. Delivery happens later, from the outbox (webhook-deliveries.service.ts).
import type { DbOrTx } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import { onSignal, raise } from '../../db/signals.ts';
import type {
  PostItemEventData,
  PostItemEventType,
  WebhookEventData,
  WebhookEventType,
} from './event-catalog.rules.ts';
import * as repo from './webhook-events.repository.ts';

export type { PostItemEventData, PostItemEventType, WebhookEventType };

/** One event to record: the company it belongs to, its type and its data. */
export type NewEvent = {
  [T in WebhookEventType]: { companyId: string; type: T; data: WebhookEventData<T> };
}[WebhookEventType];

/** analytics.updated goes out at most once per post per interval, with the latest data. */
export const ANALYTICS_INTERVAL_MS = 60_000;

const EVENTS_RECORDED = 'webhook-events-recorded';

/**
 * Calls `listener` soon after events are recorded through `db` (or one of its
 * transactions), until the returned function runs: the delivery loop's wake-up.
 */
export function onEventsRecorded(db: DbOrTx, listener: () => void): () => void {
  return onSignal(db, EVENTS_RECORDED, listener);
}

/** Wakes this process's delivery loop (a delivery written outside the fan-out). */
export function wakeSenders(db: DbOrTx): void {
  raise(db, EVENTS_RECORDED);
}

/**
 * Writes the events in the caller's transaction, stamped `at` (an ISO time): those some
 * enabled endpoint of their company subscribes to at that moment (nothing else could ever
 * be delivered; an endpoint created later starts with the changes after it).
 */
export async function recordEvents(
  tx: DbOrTx,
  events: readonly NewEvent[],
  at: string,
): Promise<void> {
  if (events.length === 0) return;
  // Most changes happen in companies without endpoints: one look-up, nothing built.
  const listening = await repo.companiesListening(tx, [...new Set(events.map((e) => e.companyId))]);
  const wanted = events.filter((e) => listening.has(e.companyId));
  if (wanted.length === 0) return;
  const ms = Date.parse(at);
  const written = await repo.insertEvents(
    tx,
    wanted.map((e) => ({
      id: newId('msg', ms),
      company_id: e.companyId,
      type: e.type,
      data: JSON.stringify(e.data),
      created_at: at,
      available_at: at,
      fanned_out_at: null,
      coalesce_key: null,
    })),
  );
  if (written > 0) raise(tx, EVENTS_RECORDED);
}

/** Item events of one type, one per item. */
export function itemEvents(
  type: PostItemEventType,
  companyId: string,
  items: readonly PostItemEventData[],
): NewEvent[] {
  return items.map((data) => ({ companyId, type, data }));
}

/**
 * analytics.updated for a post, coalesced: the event waits until the end of the current
 * interval and a later report in the same interval replaces its data, so receivers get at
 * most one per post per interval, carrying the latest time.
 */
export async function recordAnalyticsUpdated(
  tx: DbOrTx,
  companyId: string,
  postId: string,
  at: string,
): Promise<void> {
  // Nobody listens: nothing to coalesce either.
  if (!(await repo.subscribed(tx, companyId, 'analytics.updated'))) return;
  const ms = Date.parse(at);
  let bucket = Math.floor(ms / ANALYTICS_INTERVAL_MS);
  // The interval's event may have gone out already (a report committing late): the next
  // interval's then carries this one.
  for (let tries = 0; tries < 3; tries++, bucket++) {
    const stored = await repo.upsertCoalesced(tx, {
      id: newId('msg', ms),
      company_id: companyId,
      type: 'analytics.updated',
      data: JSON.stringify({ postId, updatedAt: at }),
      created_at: at,
      available_at: new Date((bucket + 1) * ANALYTICS_INTERVAL_MS).toISOString(),
      fanned_out_at: null,
      coalesce_key: `analytics:${postId}:${bucket}`,
    });
    if (stored) return;
  }
}
