import type { Kysely, Migration } from 'kysely';

// An upload's content is the file of the one PUT attempt (or remote fetch) that won it,
// identified by its SHA-256; a thumbnail that could not be made says why, on the upload.
export const uploadContent: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('uploads').addColumn('sha256', 'text').execute();
    await db.schema.alterTable('uploads').addColumn('thumbnail_error', 'text').execute();
  },
};
