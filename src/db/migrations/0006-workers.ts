import type { Kysely, Migration } from 'kysely';

// Workers (DECISIONS 6): the people or automations that operate accounts and post what the
// dispatcher releases. A worker authenticates with its own token (a digest is stored, like
// API keys); an account is operated by at most one worker and takes its timezone.
export const workers: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('workers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('token_prefix', 'text', (c) => c.notNull().unique())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      // 1 for the built-in simulator worker, which the service process drives itself.
      .addColumn('simulated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();

    await db.schema.alterTable('accounts').addColumn('worker_id', 'text').execute();
    await db.schema
      .createIndex('accounts_worker')
      .on('accounts')
      .columns(['worker_id', 'id'])
      .execute();

    // A released item is a task: claimed once by the account's worker, then reported.
    await db.schema.alterTable('queue_items').addColumn('claimed_at', 'text').execute();
    await db.schema.alterTable('queue_items').addColumn('claimed_by', 'text').execute();
    // Unreported tasks are found by the time they were released (the outcome timeout).
    await db.schema
      .createIndex('queue_items_posting')
      .on('queue_items')
      .columns(['status', 'released_at'])
      .execute();
  },
};
