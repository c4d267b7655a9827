import type { Kysely, Migration } from 'kysely';

// Messages to people are rows first (GUIDE, "Rules of direction"): a mail is written in the
// transaction of what caused it (an invitation, a reset link, a reminder) and sent by
// whichever process's outbox loop claims it, under a lease, with retries and a backoff.
// `dedupe_key` makes "at most once per item and window" a constraint, not a hope.
export const outbox: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('outbox_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // Null for the operator side's messages, which belong to no company.
      .addColumn('company_id', 'text')
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('dedupe_key', 'text', (c) => c.unique())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body_text', 'text', (c) => c.notNull())
      .addColumn('body_html', 'text')
      .addColumn('headers', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('due_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('sent_at', 'text')
      .addColumn('last_error', 'text')
      .execute();
    // The claim's order: the earliest due waiting message first.
    await db.schema
      .createIndex('outbox_messages_due')
      .on('outbox_messages')
      .columns(['status', 'due_at', 'id'])
      .execute();
    // The outbox pages: a company's messages (or all), newest first.
    await db.schema
      .createIndex('outbox_messages_company')
      .on('outbox_messages')
      .columns(['company_id', 'created_at', 'id'])
      .execute();
  },
};
