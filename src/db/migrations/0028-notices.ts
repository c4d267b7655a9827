import type { Kysely, Migration } from 'kysely';

// Reminders that know what they already said, and people who said "not this".
// - notice_marks: one row per thing told about (a waiting item, a task) per kind and per
//   occasion (the window it would miss), written before its messages in one transaction,
//   so that each reminder goes out once however many dispatchers run.
// - notify_opt_outs: a person's "stop these": a kind of message on a channel, turned off
//   from an unsubscribe link (RFC 8058) or a notifications page. Nothing listed: all on.
// - companies.approval_lead_minutes: how long before a waiting item's window its approvers
//   are reminded (2 hours unless the company chose otherwise).
export const notices: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notice_marks')
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      // The occasion: the window start a reminder is about.
      .addColumn('occasion', 'text', (c) => c.notNull())
      .addColumn('company_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('notice_marks_pk', ['subject_id', 'kind', 'occasion'])
      .execute();
    await db.schema
      .createIndex('notice_marks_created')
      .on('notice_marks')
      .columns(['created_at'])
      .execute();
    await db.schema
      .createTable('notify_opt_outs')
      // `user`, `operator` or `worker`, and that person's id.
      .addColumn('audience', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('notify_opt_outs_pk', ['audience', 'owner_id', 'kind', 'channel'])
      .execute();
    await db.schema
      .alterTable('companies')
      .addColumn('approval_lead_minutes', 'integer', (c) => c.notNull().defaultTo(120))
      .execute();
  },
};
