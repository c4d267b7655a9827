// Media work as rows (GUIDE, "Rules of direction"): a carousel's render or an upload's
// thumbnail is written with the post or upload it serves, in the same transaction, and
// done by whichever process's media loop claims it first (dispatch/media-loop.ts). A claim
// is a lease: the loop renews it while the work runs, and a process that dies leaves it to
// run out, after which any loop takes the job again. Each claim counts as an attempt, so
// work that keeps killing its process, or keeps failing, ends after MAX_ATTEMPTS.
import { raise, onSignal } from '../../db/signals.ts';
import type { DbOrTx, MediaJobsTable } from '../../db/types.ts';
import * as repo from './media-jobs.repository.ts';

export const MEDIA_JOB_KINDS = ['render', 'thumbnail'] as const;
export type MediaJobKind = (typeof MEDIA_JOB_KINDS)[number];

/** Claims of one job before it fails for good. */
export const MAX_ATTEMPTS = 3;
/** Wait before the second attempt; each later one waits four times longer. */
const FIRST_RETRY_MS = 5_000;

export interface MediaJob {
  kind: MediaJobKind;
  subjectId: string;
  companyId: string;
  createdAt: string;
  /** This claim's attempt, from 1. */
  attempt: number;
  lastError: string | null;
}

/**
 * What a job's work ends with when it did not throw: done, or failed for good on content
 * that cannot work (recorded by the work itself). A throw is a failure worth trying again.
 */
export type MediaOutcome = { ok: true } | { ok: false; reason: string };

const SIGNAL = 'media-jobs';

function jobOf(row: MediaJobsTable): MediaJob {
  return {
    kind: row.kind as MediaJobKind,
    subjectId: row.subject_id,
    companyId: row.company_id,
    createdAt: row.created_at,
    attempt: row.attempts,
    lastError: row.last_error,
  };
}

/**
 * Writes the job of `kind` for `subjectId` in the caller's transaction (nothing when one is
 * already waiting) and wakes this process's media loop once the commit has had its chance.
 */
export async function addMediaJob(
  tx: DbOrTx,
  job: { kind: MediaJobKind; subjectId: string; companyId: string; at: string },
): Promise<void> {
  await repo.insertJob(tx, {
    kind: job.kind,
    subject_id: job.subjectId,
    company_id: job.companyId,
    created_at: job.at,
    due_at: job.at,
    attempts: 0,
    lease_owner: null,
    lease_until: null,
    last_error: null,
  });
  raise(tx, SIGNAL);
}

/** Wakes this process's media loop: jobs were committed through `db`. */
export function mediaJobsWritten(db: DbOrTx): void {
  raise(db, SIGNAL);
}

/** Calls `listener` shortly after each job written through this database handle. */
export function onMediaJobsAdded(db: DbOrTx, listener: () => void): () => void {
  return onSignal(db, SIGNAL, listener);
}

function later(now: Date, ms: number): string {
  return new Date(now.getTime() + ms).toISOString();
}

/** Up to `limit` due jobs of `kind`, leased to `owner` for `leaseMs` from `now`. */
export async function claimMediaJobs(
  db: DbOrTx,
  kind: MediaJobKind,
  limit: number,
  lease: { owner: string; ms: number },
  now: Date,
): Promise<MediaJob[]> {
  if (limit <= 0) return [];
  const rows = await repo.claim(
    db,
    kind,
    limit,
    lease.owner,
    now.toISOString(),
    later(now, lease.ms),
  );
  return rows.map(jobOf);
}

/** Extends the leases `owner` holds; returns the jobs it still holds. */
export async function renewMediaJobs(
  db: DbOrTx,
  kind: MediaJobKind,
  subjectIds: readonly string[],
  lease: { owner: string; ms: number },
  now: Date,
): Promise<Set<string>> {
  return new Set(await repo.renew(db, kind, subjectIds, lease.owner, later(now, lease.ms)));
}

/** The job is over, done or failed for good; false when `owner` had lost it to another. */
export function finishMediaJob(db: DbOrTx, job: MediaJob, owner: string): Promise<boolean> {
  return repo.remove(db, job.kind, job.subjectId, owner);
}

/** When the next attempt after a failed `attempt` may start. */
export function retryDelayMs(attempt: number): number {
  return FIRST_RETRY_MS * 4 ** Math.max(0, attempt - 1);
}

/** The attempt failed and may be tried again: due after its backoff, with the reason kept. */
export function retryMediaJob(
  db: DbOrTx,
  job: MediaJob,
  owner: string,
  error: string,
  now: Date,
): Promise<boolean> {
  return repo.release(db, job.kind, job.subjectId, owner, {
    dueAt: later(now, retryDelayMs(job.attempt)),
    error,
  });
}

/** The work was stopped before it ended (the process is shutting down): due again now. */
export function releaseMediaJob(
  db: DbOrTx,
  job: MediaJob,
  owner: string,
  now: Date,
): Promise<boolean> {
  return repo.release(db, job.kind, job.subjectId, owner, {
    dueAt: now.toISOString(),
    refund: true,
  });
}

export interface MediaBacklog {
  /** Jobs waiting (not under a live lease) per kind. */
  waiting: Record<MediaJobKind, number>;
  /** Jobs under a live lease per kind. */
  running: Record<MediaJobKind, number>;
  /** Seconds since the oldest waiting job of each kind was written; 0 when none waits. */
  oldestWaitingSeconds: Record<MediaJobKind, number>;
}

/** What media work waits and runs across every process, and how long the oldest has waited. */
export async function mediaBacklog(db: DbOrTx, now: Date): Promise<MediaBacklog> {
  const zero = () => ({ render: 0, thumbnail: 0 });
  const out: MediaBacklog = { waiting: zero(), running: zero(), oldestWaitingSeconds: zero() };
  for (const row of await repo.backlog(db, now.toISOString())) {
    const kind = row.kind as MediaJobKind;
    if (!(kind in out.waiting)) continue;
    out.waiting[kind] = row.waiting;
    out.running[kind] = row.running;
    out.oldestWaitingSeconds[kind] = row.oldestWaiting
      ? Math.max(0, Math.round((now.getTime() - Date.parse(row.oldestWaiting)) / 1000))
      : 0;
  }
  return out;
}
