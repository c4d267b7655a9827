// Test events (POST /v2/webhooks/{webhookId}/test): one `webhook.test` event for the endpoint
// asked for only, whatever event types it chose. The event is written already fanned out,
// with its single delivery, so the fan-out never sends it to another endpoint; from there
// it is claimed, signed, retried and logged like any other delivery.
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { WebhookEventsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import { newWebhookDelivery } from './webhook-deliveries.service.ts';
import { TEST_EVENT_TYPE, type WebhookEventData } from './event-catalog.rules.ts';
import * as deliveries from './webhook-deliveries.repository.ts';
import * as events from './webhook-events.repository.ts';
import { wakeSenders } from './webhook-events.service.ts';
import { findWebhookOrThrow } from './webhooks.service.ts';

/** Test events one endpoint may be sent in a rolling minute. */
export const TEST_EVENTS_PER_MINUTE = 5;
const WINDOW_MS = 60_000;

export const TEST_EVENT_MESSAGE =
  'This is a test event from Slotline. Nothing changed; answer 2xx to mark it delivered.';

export interface SentTestEvent {
  eventId: string;
  deliveryId: string;
}

/**
 * Queues a test event for the company's endpoint. Refused for a disabled endpoint (its
 * deliveries would fail at once) and past TEST_EVENTS_PER_MINUTE (`rate_limited`, with
 * the seconds until the oldest of the minute's tests leaves the window).
 */
export async function sendTestEvent(
  db: Db,
  clock: Clock,
  companyId: string,
  webhookId: string,
  actor?: Actor,
): Promise<SentTestEvent> {
  const now = clock.now();
  const at = now.toISOString();
  return db.transaction().execute(async (tx) => {
    const endpoint = await findWebhookOrThrow(tx, companyId, webhookId);
    if (endpoint.disabled_at) {
      throw new ApiError('invalid_request', `webhook ${webhookId} is disabled`, {
        hint: 'Enable it with POST /v2/webhooks/{webhookId}/enable, then send the test again.',
      });
    }
    const recent = await deliveries.webhookDeliveryTimesSince(
      tx,
      companyId,
      webhookId,
      TEST_EVENT_TYPE,
      new Date(now.getTime() - WINDOW_MS).toISOString(),
    );
    const oldest = recent[0];
    if (recent.length >= TEST_EVENTS_PER_MINUTE && oldest !== undefined) {
      const wait = Math.max(1, Math.ceil((Date.parse(oldest) + WINDOW_MS - now.getTime()) / 1000));
      throw new ApiError(
        'rate_limited',
        `at most ${TEST_EVENTS_PER_MINUTE} test events a minute may be sent to one endpoint`,
        {
          hint: `Retry after ${wait} seconds; the tests already sent are in the endpoint's log.`,
          headers: { 'Retry-After': String(wait) },
        },
      );
    }
    const data: WebhookEventData<typeof TEST_EVENT_TYPE> = {
      webhookId,
      message: TEST_EVENT_MESSAGE,
    };
    const event: WebhookEventsTable = {
      id: newId('msg', now.getTime()),
      company_id: companyId,
      type: TEST_EVENT_TYPE,
      data: JSON.stringify(data),
      created_at: at,
      available_at: at,
      // Fanned out as written: its one delivery is below.
      fanned_out_at: at,
      coalesce_key: null,
    };
    const delivery = newWebhookDelivery(webhookId, event, at);
    await events.insertEvent(tx, event);
    await deliveries.insertWebhookDeliveries(tx, [delivery]);
    if (actor) {
      await recordActivity(
        tx,
        companyId,
        actor,
        { action: 'webhook.test_sent', target: webhookId, detail: endpoint.url },
        now,
      );
    }
    wakeSenders(tx);
    return { eventId: event.id, deliveryId: delivery.id };
  });
}
