import type { Kysely, Migration } from 'kysely';

// Why a queue item was rejected in review, who rejected it and when: kept with the item,
// shown on the post in the dashboard and sent in the `post.item.rejected` event. Items
// rejected before have none (the reason was not asked for then).
export const rejectReason: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('queue_items').addColumn('reject_reason', 'text').execute();
    await db.schema.alterTable('queue_items').addColumn('rejected_by', 'text').execute();
    await db.schema.alterTable('queue_items').addColumn('rejected_at', 'text').execute();
  },
};
