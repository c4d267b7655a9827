import { sql, type Kysely, type Migration } from 'kysely';

// Media work that must happen later is a row first (GUIDE, "Rules of direction"): a carousel's
// render or an upload's thumbnail is written in the transaction of the post or upload it
// serves and claimed with a lease by any process's media loop (dispatch/media-loop.ts).
// One job per subject and kind, so writing one twice is harmless.
//
// Work that was in memory when this migration runs (carousels still rendering, ready uploads
// without a thumbnail or its failure) becomes a job here, so nothing started before the
// upgrade stays waiting for ever.
export const mediaJobs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('media_jobs')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('due_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_error', 'text')
      .addPrimaryKeyConstraint('media_jobs_pk', ['kind', 'subject_id'])
      .execute();
    // The claim's order: the earliest due job of a kind first.
    await db.schema
      .createIndex('media_jobs_due')
      .on('media_jobs')
      .columns(['kind', 'due_at', 'subject_id'])
      .execute();
    await sql`
      insert into media_jobs (kind, subject_id, company_id, created_at, due_at, attempts)
      select 'render', id, company_id, created_at, created_at, 0
      from posts where media_state = 'processing'
    `.execute(db);
    await sql`
      insert into media_jobs (kind, subject_id, company_id, created_at, due_at, attempts)
      select 'thumbnail', id, company_id, updated_at, updated_at, 0
      from uploads
      where status = 'ready' and thumbnail_key is null and thumbnail_error is null
    `.execute(db);
  },
};
