import { sql, type Kysely, type Migration } from 'kysely';

// Webhooks. `webhook_events` is an outbox: each state change writes its event in its own
// transaction, so an event exists exactly when its change committed. The delivery loop
// fans events out to the endpoints subscribed at that moment (`webhook_deliveries`, one
// per endpoint and event, carrying the retry state) and logs every attempt.
export const webhooks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      // JSON array of event types.
      .addColumn('event_types', 'text', (c) => c.notNull())
      // Sealed with the server secret (lib/seal.ts); the previous one is kept while a
      // rotation's overlap lasts.
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_expires_at', 'text')
      .addColumn('disabled_at', 'text')
      .addColumn('disabled_reason', 'text')
      // Set by the first failed attempt after a success, cleared by the next success.
      .addColumn('failing_since', 'text')
      .addColumn('last_success_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_endpoints_company')
      .on('webhook_endpoints')
      .columns(['company_id', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('webhook_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      // The payload's `data`, JSON.
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      // Not fanned out before this instant (coalesced events wait for their interval).
      .addColumn('available_at', 'text', (c) => c.notNull())
      .addColumn('fanned_out_at', 'text')
      // At most one unsent event per key (analytics.updated per post and interval).
      .addColumn('coalesce_key', 'text', (c) => c.unique())
      .execute();
    await sql`create index webhook_events_unsent on webhook_events (available_at, id)
      where fanned_out_at is null`.execute(db);
    await db.schema
      .createIndex('webhook_events_company')
      .on('webhook_events')
      .columns(['company_id', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('endpoint_id', 'text', (c) =>
        c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
      )
      .addColumn('event_id', 'text', (c) =>
        c.notNull().references('webhook_events.id').onDelete('cascade'),
      )
      .addColumn('event_type', 'text', (c) => c.notNull())
      // `pending`, `succeeded` or `failed`.
      .addColumn('status', 'text', (c) => c.notNull())
      // What started the current round: `scheduled` (the event) or `replay`.
      .addColumn('trigger', 'text', (c) => c.notNull())
      // Attempts in the current round (a replay starts a new round).
      .addColumn('attempts', 'integer', (c) => c.notNull())
      // While pending: when the next attempt is due; a claim moves it past its lease, so
      // a sender that dies leaves the delivery due again once the lease has run out.
      .addColumn('next_attempt_at', 'text')
      .addColumn('last_attempt_at', 'text')
      .addColumn('last_response_status', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_event')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'event_id'])
      .unique()
      .execute();
    await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at)
      where status = 'pending'`.execute(db);
    await db.schema
      .createIndex('webhook_deliveries_endpoint')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('endpoint_id', 'text', (c) =>
        c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
      )
      .addColumn('delivery_id', 'text', (c) =>
        c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
      )
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      // `scheduled` or `replay`.
      .addColumn('trigger', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      // `succeeded` or `failed`.
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema
      .createIndex('webhook_attempts_endpoint')
      .on('webhook_attempts')
      .columns(['endpoint_id', 'started_at', 'id'])
      .execute();
    await db.schema
      .createIndex('webhook_attempts_delivery')
      .on('webhook_attempts')
      .column('delivery_id')
      .execute();
  },
};
