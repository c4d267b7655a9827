import type { Kysely, Migration } from 'kysely';

// The console's outbox lists every message newest first, and a status filter narrows it:
// each page is an index range seek, as the company's list is on (company_id, created_at, id).
export const outboxOrder: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('outbox_messages_created')
      .on('outbox_messages')
      .columns(['created_at', 'id'])
      .execute();
  },
};
