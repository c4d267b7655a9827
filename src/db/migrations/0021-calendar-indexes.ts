import type { Kysely, Migration } from 'kysely';

// The dashboard's calendar reads a company's items from indexes that hold every column it
// reads, so no read visits the table:
// - queued (and waiting) items by account, in id order: the planner's input, compared
//   account by account with what was planned before;
// - released items in release order (then id): the releases of a day counted per status,
//   its first few listed, and today's releases that the planner counts toward each
//   account's day;
// - the same of one account: queue_items_account_released (0004) again, with the columns
//   read after its own, so that it stays the index of an account's range of releases
//   rather than one scanning the whole company's range.
export const calendarIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('queue_items_calendar_queued')
      .on('queue_items')
      .columns([
        'company_id',
        'status',
        'account_id',
        'id',
        'priority',
        'queued_at',
        'approved_at',
        'scheduled_after',
      ])
      .execute();
    await db.schema
      .createIndex('queue_items_calendar_released')
      .on('queue_items')
      .columns([
        'company_id',
        'released_at',
        'id',
        'status',
        'account_id',
        'queued_at',
        'approved_at',
      ])
      .execute();
    await db.schema.dropIndex('queue_items_account_released').execute();
    await db.schema
      .createIndex('queue_items_account_released')
      .on('queue_items')
      .columns([
        'company_id',
        'account_id',
        'released_at',
        'id',
        'status',
        'queued_at',
        'approved_at',
      ])
      .execute();
  },
};
