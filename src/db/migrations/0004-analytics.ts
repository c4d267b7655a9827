import type { Kysely, Migration } from 'kysely';

// Analytics snapshots and account statistics (SPEC 2.7, 2.8), written by the release engine
// from worker reports (DECISIONS 6); the API only reads them. Counters are bigint: views of a
// popular video or account can pass 2^31. PostgreSQL returns bigint as text, so readers convert.
export const analytics: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('post_analytics')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id'))
      .addColumn('queue_item_id', 'text', (c) => c.notNull().references('queue_items.id'))
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('post_url', 'text')
      .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('likes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('comments', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('shares', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('saves', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('collected_at', 'text', (c) => c.notNull())
      .execute();
    // History pages (newest first) and the latest snapshot per item both read this range.
    await db.schema
      .createIndex('post_analytics_post')
      .on('post_analytics')
      .columns(['company_id', 'post_id', 'collected_at', 'id'])
      .execute();

    await db.schema
      .createTable('account_stats')
      .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id'))
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('followers', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('posts', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('engagement', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('likes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('comments', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('scanned_posts', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    // SPEC 2.5 postsToday counts an account's releases in its local day; account lists read
    // them for a page of accounts at once. Led by the company and account columns so it wins
    // over queue_items_company_account for that range, even without planner statistics.
    await db.schema
      .createIndex('queue_items_account_released')
      .on('queue_items')
      .columns(['company_id', 'account_id', 'released_at'])
      .execute();
  },
};
