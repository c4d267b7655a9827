import type { Kysely, Migration } from 'kysely';

// Notification preferences beyond "stop these" (notify_opt_outs, which unsubscribe links and
// the notifications pages write for kinds that are on unless turned off):
// - notify_opt_ins: a person's "send me these" for kinds that are off unless turned on (the
//   daily summary). Nothing listed: the kind stays off.
// - notify_quiet_hours: a person's quiet hours, local times of day (HH:MM; an end before the
//   start runs over midnight). Messages that can wait are held until the end; urgent ones
//   go through. No row: no quiet hours. `timezone` is the zone they are read in for people
//   without a timezone of their own (operators; company users who follow their browser's).
export const notifyPreferences: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notify_opt_ins')
      .addColumn('audience', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('notify_opt_ins_pk', ['audience', 'owner_id', 'kind', 'channel'])
      .execute();
    await db.schema
      .createTable('notify_quiet_hours')
      .addColumn('audience', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('quiet_start', 'text', (c) => c.notNull())
      .addColumn('quiet_end', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('notify_quiet_hours_pk', ['audience', 'owner_id'])
      .execute();
  },
};
