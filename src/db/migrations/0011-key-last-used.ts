import type { Kysely, Migration } from 'kysely';

// When each API key was last used, for the dashboard's key list. Written in batches by the
// service (keys/key-use.jobs.ts), never on the request path.
export const keyLastUsed: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
  },
};
