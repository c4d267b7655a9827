import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

// PostgreSQL: a change to what authenticates a request (a key's secret, scopes, company or
// revocation; a company's plan; a deletion) notifies `slotline_auth` when it commits, from
// the service, the CLI or a hand-written statement alike, so every process drops the keys it
// verified before (db/auth-changes.ts). A key's last use is not among them: it changes all
// the time and grants nothing. SQLite needs none: its data version covers every write.
export const authNotify: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`
      create function slotline_auth_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('slotline_auth', '');
        return null;
      end $$`.execute(db);
    await sql`
      create trigger api_keys_auth_changed
      after update of prefix, key_hash, scopes, company_id, revoked_at or delete on api_keys
      for each statement execute function slotline_auth_changed()`.execute(db);
    await sql`
      create trigger companies_auth_changed
      after update of plan or delete on companies
      for each statement execute function slotline_auth_changed()`.execute(db);
  },
};
