// Reads the webhook outbox of a company as tests assert it: type and data of each event in
// creation order, every data checked against the event catalog's schema.
import assert from 'node:assert/strict';
import Value from 'typebox/value';
import { seedCompany, type SeededCompany, type TestApp } from './app.ts';
import {
  createWebhook,
  isWebhookEventType,
  WEBHOOK_EVENTS,
  WEBHOOK_EVENT_TYPES,
} from '../../src/modules/webhooks/index.ts';

/**
 * A company with an endpoint subscribed to every event type: only changes some endpoint
 * listens to are written to the outbox.
 */
export async function seedListeningCompany(
  t: TestApp,
  options: Parameters<typeof seedCompany>[1] = {},
): Promise<SeededCompany> {
  const co = await seedCompany(t, options);
  await createWebhook(t.ctx, co.companyId, {
    url: 'https://hooks.example.com/in',
    events: [...WEBHOOK_EVENT_TYPES],
  });
  return co;
}

export interface OutboxEvent {
  type: string;
  data: Record<string, unknown>;
}

export async function outbox(t: TestApp, companyId: string): Promise<OutboxEvent[]> {
  const rows = await t.ctx.db
    .selectFrom('webhook_events')
    .select(['type', 'data'])
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    assert.ok(isWebhookEventType(r.type), `unknown event type ${r.type}`);
    const data = JSON.parse(r.data) as Record<string, unknown>;
    assert.ok(
      Value.Check(WEBHOOK_EVENTS[r.type].schema, data),
      `${r.type} data does not match the catalog: ${r.data}`,
    );
    return { type: r.type, data };
  });
}

/**
 * The events recorded since the previous call. Tests move the clock between changes, so
 * later events sort after earlier ones.
 */
export function eventsSince(t: TestApp, companyId: string): () => Promise<OutboxEvent[]> {
  let seen = 0;
  return async () => {
    const all = await outbox(t, companyId);
    const fresh = all.slice(seen);
    seen = all.length;
    return fresh;
  };
}

/** The queue item ids of a post by account. */
export async function itemIdsByAccount(t: TestApp, postId: string): Promise<Map<string, string>> {
  const rows = await t.ctx.db
    .selectFrom('queue_items')
    .select(['id', 'account_id'])
    .where('post_id', '=', postId)
    .execute();
  return new Map(rows.map((r) => [r.account_id, r.id]));
}

/** The data of a post.item.* event. */
export function item(
  postId: string,
  accountId: string,
  queueItemId: string,
  status: string,
  extra: { postUrl?: string; reason?: string; rejection?: unknown } = {},
): Record<string, unknown> {
  const { postUrl, reason, ...rest } = extra;
  return {
    postId,
    queueItemId,
    accountId,
    status,
    postUrl: postUrl ?? null,
    reason: reason ?? null,
    ...rest,
  };
}
