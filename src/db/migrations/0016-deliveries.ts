import type { Kysely, Migration } from 'kysely';

/** Buckets of the release-to-posted histogram (modules/items/delivery-figures.rules.ts). */
export const LATENCY_BUCKET_COUNT = 27;

// The delivery record of every released item and the figures kept from it.
// - releases.slot_start: the start of the window (or make-up slot) an item was released
//   into, the reference of "on time". Releases made before have none; their record shows
//   the release time instead.
// - queue_items: when the worker's report arrived, whether the post went out on time (set
//   once, when it is reported posted), and the screenshot it sent as proof.
// - delivery_days: counters per company, account and worker (a worker's per company it
//   serves) and per UTC day of release, moved in the transaction of each outcome, so a
//   figure over 30 days reads at most 30 rows per subject instead of scanning the history.
export const deliveries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('releases').addColumn('slot_start', 'text').execute();
    await db.schema.alterTable('queue_items').addColumn('reported_at', 'text').execute();
    await db.schema.alterTable('queue_items').addColumn('on_time', 'integer').execute();
    await db.schema.alterTable('queue_items').addColumn('proof_upload_id', 'text').execute();
    let table = db.schema
      .createTable('delivery_days')
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('scope_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('posted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('on_time', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('unconfirmed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('missed', 'integer', (c) => c.notNull().defaultTo(0));
    for (let i = 0; i < LATENCY_BUCKET_COUNT; i++) {
      table = table.addColumn(`lat_${i}`, 'integer', (c) => c.notNull().defaultTo(0));
    }
    await table
      .addPrimaryKeyConstraint('delivery_days_pk', ['scope', 'scope_id', 'day', 'company_id'])
      .execute();
    // The fulfilment board of one company reads its open and recently failed items.
    await db.schema
      .createIndex('queue_items_status_company_released')
      .on('queue_items')
      .columns(['status', 'company_id', 'released_at'])
      .execute();
    // The operator's lists read every subject of a scope over a range of days.
    await db.schema
      .createIndex('delivery_days_scope_day')
      .on('delivery_days')
      .columns(['scope', 'day'])
      .execute();
  },
};
