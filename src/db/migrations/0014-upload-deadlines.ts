import { sql, type Kysely, type Migration } from 'kysely';

// Pending uploads have a deadline (modules/uploads/upload-expiry.service.ts): past it, the
// dispatcher's pass fails them. Signed uploads always had one (`expires_at`, their URL's
// expiry); remote ones get one now, and those made before, which may have been left
// pending by a crash, get the one they would have had.
export const uploadDeadlines: Migration = {
  async up(db: Kysely<unknown>) {
    // 15 minutes from creation, the remote deadline of this release; written out since a
    // migration must not change when the service's value does. Few rows: only uploads
    // whose request is under way, or was killed.
    const REMOTE_PENDING_MS = 15 * 60 * 1000;
    const stuck = await sql<{ id: string; created_at: string }>`
      select id, created_at from uploads
      where status = 'pending' and source = 'remote' and expires_at is null
    `.execute(db);
    for (const row of stuck.rows) {
      const deadline = new Date(Date.parse(row.created_at) + REMOTE_PENDING_MS).toISOString();
      await sql`update uploads set expires_at = ${deadline} where id = ${row.id}`.execute(db);
    }
    // The sweep reads pending uploads by deadline on every dispatcher pass.
    await db.schema
      .createIndex('uploads_status_expires')
      .on('uploads')
      .columns(['status', 'expires_at'])
      .execute();
  },
};
