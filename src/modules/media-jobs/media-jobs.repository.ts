// The media_jobs table: waiting and running media work, one row per kind and subject.
// Claims follow the webhook deliveries' pattern: due rows are read with
// `FOR UPDATE SKIP LOCKED` (left out on SQLite, whose one writer at a time needs no lock)
// and leased in the same transaction, so each claim goes to one process.
import type { DbOrTx, MediaJobsTable } from '../../db/types.ts';

export async function insertJob(db: DbOrTx, row: MediaJobsTable): Promise<void> {
  // A job of this kind for this subject is already waiting: it will do the work.
  await db
    .insertInto('media_jobs')
    .values(row)
    .onConflict((oc) => oc.columns(['kind', 'subject_id']).doNothing())
    .execute();
}

/**
 * Up to `limit` jobs of `kind` due at `now` and not under a live lease, the earliest due
 * first, leased to `owner` until `leaseUntil` with their attempt counted.
 */
export async function claim(
  db: DbOrTx,
  kind: string,
  limit: number,
  owner: string,
  now: string,
  leaseUntil: string,
): Promise<MediaJobsTable[]> {
  return db.transaction().execute(async (tx) => {
    const due = await tx
      .selectFrom('media_jobs')
      .select('subject_id')
      .where('kind', '=', kind)
      .where('due_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('due_at')
      .orderBy('subject_id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    return tx
      .updateTable('media_jobs')
      .set((eb) => ({
        lease_owner: owner,
        lease_until: leaseUntil,
        attempts: eb('attempts', '+', 1),
      }))
      .where('kind', '=', kind)
      .where(
        'subject_id',
        'in',
        due.map((d) => d.subject_id),
      )
      .returningAll()
      .execute();
  });
}

/** Moves the leases `owner` still holds to `leaseUntil`; returns the subjects it holds. */
export async function renew(
  db: DbOrTx,
  kind: string,
  subjectIds: readonly string[],
  owner: string,
  leaseUntil: string,
): Promise<string[]> {
  if (subjectIds.length === 0) return [];
  const rows = await db
    .updateTable('media_jobs')
    .set({ lease_until: leaseUntil })
    .where('kind', '=', kind)
    .where('subject_id', 'in', [...subjectIds])
    .where('lease_owner', '=', owner)
    .returning('subject_id')
    .execute();
  return rows.map((r) => r.subject_id);
}

/** The job is over (done, or failed for good): gone, if `owner` still held it. */
export async function remove(
  db: DbOrTx,
  kind: string,
  subjectId: string,
  owner: string,
): Promise<boolean> {
  const r = await db
    .deleteFrom('media_jobs')
    .where('kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Hands the job back, if `owner` still held it: due at `dueAt`, with `error` recorded;
 * `refund` takes back the attempt its claim counted (the work was stopped, not failed).
 */
export async function release(
  db: DbOrTx,
  kind: string,
  subjectId: string,
  owner: string,
  change: { dueAt: string; error?: string; refund?: boolean },
): Promise<boolean> {
  const r = await db
    .updateTable('media_jobs')
    .set((eb) => ({
      lease_owner: null,
      lease_until: null,
      due_at: change.dueAt,
      ...(change.error !== undefined ? { last_error: change.error } : {}),
      ...(change.refund ? { attempts: eb('attempts', '-', 1) } : {}),
    }))
    .where('kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export interface KindBacklog {
  kind: string;
  /** Jobs not under a live lease (due now or later). */
  waiting: number;
  /** Jobs under a live lease. */
  running: number;
  /** `created_at` of the oldest waiting job; null when none waits. */
  oldestWaiting: string | null;
}

/** Waiting and running jobs per kind at `now`. */
export async function backlog(db: DbOrTx, now: string): Promise<KindBacklog[]> {
  const rows = await db
    .selectFrom('media_jobs')
    .select((eb) => [
      'kind',
      eb.fn.countAll<number | string>().as('total'),
      eb.fn
        .count<number | string>(
          eb.case().when('lease_until', '>', now).then(1).else(eb.val(null)).end(),
        )
        .as('running'),
      eb.fn
        .min<string | null>(
          eb
            .case()
            .when('lease_until', '>', now)
            .then(eb.val(null))
            .else(eb.ref('created_at'))
            .end(),
        )
        .as('oldest_waiting'),
    ])
    .groupBy('kind')
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    waiting: Number(r.total) - Number(r.running),
    running: Number(r.running),
    oldestWaiting: r.oldest_waiting,
  }));
}
