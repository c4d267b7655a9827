import type { Kysely, Migration } from 'kysely';

// The hand-off in the delivery figures: delivery_days gains a release-to-claim histogram
// beside the release-to-posted one (`claim_lat_<i>`, the same buckets as `lat_<i>`), moved in
// the transaction of each task's claim, once per task, for the UTC day of its release.
// Rows counted before have zeros: their tasks' claims were never timed.

/** Buckets of the release-to-claim histogram: as many as 0016-deliveries made for posting. */
export const CLAIM_LATENCY_BUCKET_COUNT = 27;

export const claimLatency: Migration = {
  async up(db: Kysely<unknown>) {
    for (let i = 0; i < CLAIM_LATENCY_BUCKET_COUNT; i++) {
      await db.schema
        .alterTable('delivery_days')
        .addColumn(`claim_lat_${i}`, 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    }
  },
};
