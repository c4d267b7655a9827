// An endpoint's delivery log and replays (GET .../attempts, GET .../deliveries,
// POST .../replay).
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { cursorScope } from '../../lib/cursor.ts';
import { newWebhookDelivery, payloadOf } from './webhook-deliveries.service.ts';
import * as deliveries from './webhook-deliveries.repository.ts';
import * as events from './webhook-events.repository.ts';
import { findWebhookOrThrow, keysetPage, type PageQuery } from './webhooks.service.ts';
import type { ReplayInput, WebhookAttemptOut, WebhookDeliveryOut } from './webhooks.schemas.ts';

/** Events at most one replay call sends again. */
export const REPLAY_LIMIT = 10_000;
/** Events older than this are gone (dispatch/webhook-loop.ts prunes them). */
const REPLAY_WINDOW_MS = 30 * 24 * 3_600_000;

function toAttempt(row: WebhookAttemptsTable): WebhookAttemptOut {
  return {
    attemptId: row.id,
    deliveryId: row.delivery_id,
    eventId: row.event_id,
    eventType: row.event_type,
    attempt: row.attempt,
    trigger: row.trigger as WebhookAttemptOut['trigger'],
    startedAt: row.started_at,
    durationMs: row.duration_ms,
    outcome: row.outcome as WebhookAttemptOut['outcome'],
    responseStatus: row.response_status,
    responseBody: row.response_body,
    error: row.error,
  };
}

function toDelivery(row: WebhookDeliveriesTable): WebhookDeliveryOut {
  return {
    deliveryId: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status as WebhookDeliveryOut['status'],
    attempts: row.attempts,
    // While an attempt is in flight the row holds its lease's end, not a due time.
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    lastAttemptAt: row.last_attempt_at,
    lastResponseStatus: row.last_response_status,
    createdAt: row.created_at,
  };
}

export async function listAttempts(
  ctx: AppContext,
  companyId: string,
  webhookId: string,
  query: PageQuery & { eventId?: string; outcome?: 'succeeded' | 'failed' },
) {
  await findWebhookOrThrow(ctx.db, companyId, webhookId);
  const scope = cursorScope(companyId, `webhook-attempts:${webhookId}`, {
    eventId: query.eventId,
    outcome: query.outcome,
  });
  return keysetPage(
    ctx,
    scope,
    query,
    (r: WebhookAttemptsTable) => r.started_at,
    (before, limit) =>
      deliveries.pageAttempts(ctx.db, companyId, webhookId, {
        before,
        limit,
        ...(query.eventId === undefined ? {} : { eventId: query.eventId }),
        ...(query.outcome === undefined ? {} : { outcome: query.outcome }),
      }),
    toAttempt,
  );
}

export async function listWebhookDeliveries(
  ctx: AppContext,
  companyId: string,
  webhookId: string,
  query: PageQuery & { status?: 'pending' | 'succeeded' | 'failed'; eventId?: string },
) {
  await findWebhookOrThrow(ctx.db, companyId, webhookId);
  const scope = cursorScope(companyId, `webhook-deliveries:${webhookId}`, {
    status: query.status,
    eventId: query.eventId,
  });
  return keysetPage(
    ctx,
    scope,
    query,
    (r: WebhookDeliveriesTable) => r.created_at,
    (before, limit) =>
      deliveries.pageWebhookDeliveries(ctx.db, companyId, webhookId, {
        before,
        limit,
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.eventId === undefined ? {} : { eventId: query.eventId }),
      }),
    toDelivery,
  );
}

/** Queues one event, or every subscribed event since a time, for the endpoint again. */
export async function replayEvents(
  db: Db,
  clock: Clock,
  companyId: string,
  webhookId: string,
  input: ReplayInput,
): Promise<{ replayed: number; truncated: boolean }> {
  if ((input.eventId === undefined) === (input.since === undefined)) {
    throw new ApiError('invalid_request', '/eventId or /since: give exactly one of them');
  }
  const now = clock.now();
  const at = now.toISOString();
  const endpoint = await findWebhookOrThrow(db, companyId, webhookId);
  if (endpoint.disabled_at) {
    throw new ApiError('invalid_request', `webhook ${webhookId} is disabled`, {
      hint: 'Enable it with POST /v2/webhooks/{webhookId}/enable, then replay.',
    });
  }
  let chosen;
  let truncated = false;
  if (input.eventId !== undefined) {
    const event = await events.findEvent(db, companyId, input.eventId);
    if (!event) {
      throw new ApiError('event_not_found', `/eventId ${input.eventId} was not found`, {
        inBody: true,
      });
    }
    chosen = [event];
  } else {
    const since = Date.parse(input.since as string);
    if (since < now.getTime() - REPLAY_WINDOW_MS || since > now.getTime()) {
      throw new ApiError('invalid_request', '/since must be within the last 30 days', {
        hint: 'Events are kept 30 days; give a time between then and now.',
      });
    }
    const types = JSON.parse(endpoint.event_types) as string[];
    const found = await events.eventsSince(
      db,
      companyId,
      types,
      new Date(since).toISOString(),
      at,
      REPLAY_LIMIT + 1,
    );
    truncated = found.length > REPLAY_LIMIT;
    chosen = found.slice(0, REPLAY_LIMIT);
  }
  const rows = chosen.map((event) => ({
    ...newWebhookDelivery(webhookId, event, at),
    trigger: 'replay',
  }));
  await db.transaction().execute((tx) => deliveries.replay(tx, rows, at));
  return { replayed: rows.length, truncated };
}

/**
 * The JSON body each of the company's events among `eventIds` was (or is) delivered with,
 * pretty-printed for reading; events already pruned are absent.
 */
export async function eventPayloads(
  db: Db,
  companyId: string,
  eventIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await events.companyEventsByIds(db, companyId, [...new Set(eventIds)]);
  return new Map(
    rows.map((e) => [e.id, JSON.stringify(JSON.parse(payloadOf(e)) as unknown, null, 2)]),
  );
}
