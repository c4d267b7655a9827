import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

// Operators: the service's own staff, bound to no company, who sign in to the operator
// console with a password and a TOTP code (or a single-use recovery code). They are
// created by the admin CLI with a one-time sign-in link, through which they set their
// password and enrol their authenticator. Their sessions, links and recovery codes live in
// tables of their own, apart from company users', so no lookup can take one for the other.
// Every operator action is kept in `operator_log`. Company users get one-time links too
// (`user_links`), which operators hand to a company's first admin. A company can be
// suspended: its keys and users are refused until it is resumed, and nothing is deleted.
export const operators: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operators')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // Stored lower-cased; unique whatever its case (the index below).
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      // argon2id, as users'; null until set through a sign-in link.
      .addColumn('password_hash', 'text')
      // The TOTP secret (base32), sealed with the server secret (lib/seal.ts); set when
      // enrolment starts, in use once `totp_enabled_at` is set.
      .addColumn('totp_secret', 'text')
      .addColumn('totp_enabled_at', 'text')
      // The time step of the last code accepted: a code of that step or an earlier one is
      // refused, so no code works twice.
      .addColumn('totp_last_step', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('disabled_at', 'text')
      .addColumn('last_sign_in_at', 'text')
      .execute();
    await sql`create unique index operators_email on operators (lower(email))`.execute(db);

    await db.schema
      .createTable('operator_recovery_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
      // SHA-256 of the code (80 random bits): a stolen table gives no code away.
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema
      .createIndex('operator_recovery_codes_operator')
      .on('operator_recovery_codes')
      .columns(['operator_id', 'code_hash'])
      .execute();

    await db.schema
      .createTable('operator_sessions')
      // SHA-256 of the cookie's secret: a stolen table opens no session.
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
      // How far the sign-in got: `password` (a code is still to come), `enrol` (the
      // welcome link's password is set, the authenticator is still to be confirmed) or
      // `full` (the second factor passed). Only `full` opens the console's pages.
      .addColumn('step', 'text', (c) => c.notNull())
      // The synchronizer token every state-changing request must echo (CSRF).
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('operator_sessions_operator')
      .on('operator_sessions')
      .column('operator_id')
      .execute();

    // One-time sign-in links: the digest of the link's token, valid 24 hours, used once.
    await db.schema
      .createTable('operator_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema
      .createIndex('operator_links_operator')
      .on('operator_links')
      .column('operator_id')
      .execute();

    await db.schema
      .createTable('user_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('user_links_user').on('user_links').column('user_id').execute();

    await db.schema
      .createTable('operator_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // The operator who acted; null for the admin CLI.
      .addColumn('operator_id', 'text')
      // Who it was as a reader recognises them at the time (name and email).
      .addColumn('actor_label', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('company_id', 'text')
      .addColumn('target', 'text', (c) => c.notNull())
      // JSON object: what changed (from and to), names as they were.
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('operator_log_created')
      .on('operator_log')
      .columns(['created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('operator_log_company')
      .on('operator_log')
      .columns(['company_id', 'created_at', 'id'])
      .execute();

    await db.schema.alterTable('companies').addColumn('suspended_at', 'text').execute();

    // PostgreSQL: a suspension or a resumption changes what every key of the company may
    // do, so it notifies `slotline_auth` like a plan change (migration 0012).
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`
        create trigger companies_suspension_changed
        after update of suspended_at on companies
        for each statement execute function slotline_auth_changed()`.execute(db);
    }
  },
};
