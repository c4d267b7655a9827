import type { Kysely, Migration } from 'kysely';

// The operator console reads accounts by status across companies: those waiting to be set
// up, oldest first, and those disconnected, longest first. An index per order, so neither
// read scans every account.
export const accountStatusIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('accounts_status_created')
      .on('accounts')
      .columns(['status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('accounts_status_since')
      .on('accounts')
      .columns(['status', 'status_since', 'id'])
      .execute();
  },
};
