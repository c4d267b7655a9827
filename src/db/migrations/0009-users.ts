import type { Kysely, Migration } from 'kysely';

// The dashboard's people: users of a company with a role, their sessions (kept in the
// database so every replica sees them and a disabled user is out at the next request),
// the sign-in attempts that limit password guessing, and the activity log of what people
// and keys did. Queue items remember who approved them.
export const users: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      // Lower-cased; unique across companies, since signing in names no company.
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('disabled_at', 'text')
      .addColumn('last_sign_in_at', 'text')
      .execute();
    await db.schema
      .createIndex('users_company')
      .on('users')
      .columns(['company_id', 'email'])
      .execute();

    await db.schema
      .createTable('sessions')
      // SHA-256 of the cookie's secret: a stolen table opens no session.
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('company_id', 'text', (c) => c.notNull())
      // The synchronizer token every state-changing request must echo (CSRF).
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('sign_in_attempts')
      // `email:<address>` or `ip:<address>`: failures counted per account and per address.
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('window_start', 'text', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('activity_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      // `user:<id>`, `key:<id>` or `operator` (the admin CLI).
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('actor_label', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('activity_log_company')
      .on('activity_log')
      .columns(['company_id', 'at', 'id'])
      .execute();

    await db.schema.alterTable('queue_items').addColumn('approved_by', 'text').execute();
  },
};
