import type { Kysely, Migration } from 'kysely';

export const releases: Migration = {
  async up(db: Kysely<unknown>) {
    // One row per release. The primary key is the account's slot of a local day, so two
    // dispatchers can never release twice in one window (DECISIONS 5; reliability 8.F4);
    // the unique item id keeps an item from going out twice.
    await db.schema
      .createTable('releases')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('local_date', 'text', (c) => c.notNull())
      .addColumn('slot_label', 'text', (c) => c.notNull())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('queue_item_id', 'text', (c) => c.notNull().unique())
      .addColumn('slot_kind', 'text', (c) => c.notNull())
      .addColumn('ready_at', 'text', (c) => c.notNull())
      .addColumn('released_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('releases_pk', ['account_id', 'local_date', 'slot_label'])
      .execute();
    await db.schema
      .createIndex('releases_account_time')
      .on('releases')
      .columns(['account_id', 'released_at'])
      .execute();
    await db.schema
      .createIndex('queue_items_status')
      .on('queue_items')
      .columns(['status', 'account_id'])
      .execute();
  },
};
