import type { Kysely, Migration } from 'kysely';

// Sessions of the workers' page (dashboard page 10): a worker signs in with its token and
// gets a session of its own. A table apart from `sessions`, whose rows belong to a company
// user (user_id and company_id not null, read joined to users): a worker belongs to no
// company, and a separate table means a worker session can never be taken for a company
// user's, whatever a lookup gets wrong.
export const workerSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('worker_sessions')
      // SHA-256 of the cookie's secret: a stolen table opens no session.
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('worker_id', 'text', (c) => c.notNull())
      // The token the worker signed in with (its visible prefix): a rotated token ends the
      // sessions opened with the old one.
      .addColumn('token_prefix', 'text', (c) => c.notNull())
      // The synchronizer token every POST must echo (CSRF).
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('worker_sessions_worker')
      .on('worker_sessions')
      .column('worker_id')
      .execute();
  },
};
