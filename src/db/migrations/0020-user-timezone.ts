import type { Kysely, Migration } from 'kysely';

// Each dashboard user's display timezone (an IANA name): the dashboard shows times in it.
// Null until the user picks one: pages then follow the browser's timezone, else UTC.
export const userTimezone: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('timezone', 'text').execute();
  },
};
