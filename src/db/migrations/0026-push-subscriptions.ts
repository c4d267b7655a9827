import type { Kysely, Migration } from 'kysely';

// Web Push subscriptions (RFC 8030): a browser's push service endpoint and the keys that
// encrypt what is sent to it (RFC 8291), one row per device of a worker or a company user.
// An endpoint belongs to one person at a time: registering it again moves it. Pushes are
// rows of the outbox (channel `push`, recipient the subscription's id).
export const pushSubscriptions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('push_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // `worker` or `user`; owner_id is the worker's or the user's id.
      .addColumn('audience', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      // The user's company; null for workers, who belong to the operator side.
      .addColumn('company_id', 'text')
      .addColumn('endpoint', 'text', (c) => c.notNull().unique())
      .addColumn('p256dh', 'text', (c) => c.notNull())
      .addColumn('auth', 'text', (c) => c.notNull())
      // When the push service ends the subscription (ms since the epoch), if it says.
      .addColumn('expiration_time', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('push_subscriptions_owner')
      .on('push_subscriptions')
      .columns(['audience', 'owner_id'])
      .execute();
  },
};
