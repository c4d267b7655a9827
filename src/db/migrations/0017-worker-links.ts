import type { Kysely, Migration } from 'kysely';

// One-time sign-in links of the workers' app: the operator console shows one (and its QR
// code) for a person to open on a phone; opening it signs the phone in with a session of
// its own, and the worker's token stays what automations use. Stored as the digest of the
// link's token, tied to the worker's token of the moment, so rotating or revoking the
// worker's sign-in voids the links made before.
export const workerLinks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('worker_sign_in_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('worker_id', 'text', (c) => c.notNull())
      .addColumn('token_prefix', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema
      .createIndex('worker_sign_in_links_worker')
      .on('worker_sign_in_links')
      .column('worker_id')
      .execute();
  },
};
