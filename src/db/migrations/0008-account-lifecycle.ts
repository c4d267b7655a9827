import { sql, type Kysely, type Migration } from 'kysely';

// The account lifecycle (DECISIONS 7). What the account's worker last reported and the
// company's pause are kept apart, so a resume returns to the worker's status and a report
// made while paused is kept without unpausing. `status` stays the effective status the API
// shows and the dispatcher filters on: `paused` while paused_at is set, else worker_status.
// Every change is also a row of account_status_events, written in the same transaction.
export const accountLifecycle: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('accounts')
      .addColumn('worker_status', 'text', (c) => c.notNull().defaultTo('pending_setup'))
      .execute();
    await db.schema.alterTable('accounts').addColumn('worker_reason', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('reported_at', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('paused_at', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('status_since', 'text').execute();

    // Existing accounts keep what the data says: a status a worker set through its stats
    // report stays the worker's, `paused` becomes a pause; when it began is not known, so
    // the last update stands in (the creation for accounts never changed).
    await sql`
      update accounts set
        worker_status = case when status in ('warming_up', 'active', 'disconnected')
          then status else 'pending_setup' end,
        paused_at = case when status = 'paused' then updated_at else null end,
        status_since = case when status = 'pending_setup' then created_at else updated_at end
    `.execute(db);
    await sql`
      update accounts set status = 'pending_setup' where status not in
        ('pending_setup', 'warming_up', 'active', 'paused', 'disconnected')
    `.execute(db);

    await db.schema
      .createTable('account_status_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      // 1, 2, ... per account in the order of the changes, which may share an instant.
      .addColumn('seq', 'integer', (c) => c.notNull())
      // The effective status after the change, and the worker's status it rests on.
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reported_status', 'text', (c) => c.notNull())
      // `worker`, `company` or `system` (creation, this migration).
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    // History pages, newest first, per account; also keeps seq unique per account.
    await db.schema
      .createIndex('account_status_events_account')
      .on('account_status_events')
      .columns(['account_id', 'seq'])
      .unique()
      .execute();

    // The history of an existing account starts with the status it has now.
    await sql`
      insert into account_status_events
        (id, company_id, account_id, seq, status, reported_status, source, reason, at)
      select 'ase_' || id, company_id, id, 1, status, worker_status, 'system', null, status_since
      from accounts
    `.execute(db);
  },
};
