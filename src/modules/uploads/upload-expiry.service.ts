// How long an upload may stay `pending`, and the sweep that fails those past it. A pending
// upload is finished by a request (the remote form's own, or `complete`); when that
// request never comes, or its process was killed, nothing else would ever move it. Runs
// with each dispatcher pass (dispatch/deadlines.ts).
import type { AppContext } from '../../context.ts';
import { FETCH_DEFAULTS } from '../../media/remote-fetch.ts';
import * as repo from './uploads.repository.ts';
import { markUploadFailed } from './uploads.state.ts';

/**
 * A remote upload's `expires_at`, from its creation. The request that creates it fetches
 * the source within the fetch's own time limit (FETCH_DEFAULTS.timeoutMs, 120 s, every
 * hop until the body has arrived), then stores the last bytes and validates them (a few
 * ranged reads of at most 200 MiB, from object storage too). 15 minutes in all leaves 13
 * past the fetch limit for those and for replicas whose clocks differ: a remote upload
 * still pending then belongs to a request that is gone (its process killed), and no
 * request still running is failed under it.
 */
export const REMOTE_PENDING_MS = FETCH_DEFAULTS.timeoutMs + 13 * 60 * 1000;

/**
 * A signed upload's `expires_at` is its URL's expiry (an hour). A PUT begun just before
 * may still be arriving then (up to 200 MiB), and `complete` may follow it; a further
 * hour covers both before the upload is failed.
 */
export const SIGNED_GRACE_MS = 60 * 60 * 1000;

export const REMOTE_EXPIRED = 'The remote fetch did not finish in time; create the upload again';
export const SIGNED_EXPIRED =
  'The upload URL expired before the bytes were sent and the upload completed; create the upload again';

/** Uploads read per query. */
const CHUNK = 200;

/**
 * Fails every pending upload past its deadline at `now`, each with the reason and its
 * `upload.failed` event (uploads.state.ts); the number failed. One that a request moves
 * on meanwhile keeps that request's outcome.
 */
export async function failExpiredUploads(ctx: AppContext, now: Date): Promise<number> {
  const at = now.toISOString();
  const signedBefore = new Date(now.getTime() - SIGNED_GRACE_MS).toISOString();
  let failed = 0;
  for (;;) {
    const due = await repo.expiredPending(ctx.db, at, signedBefore, CHUNK);
    for (const row of due) {
      const error = row.source === 'remote' ? REMOTE_EXPIRED : SIGNED_EXPIRED;
      if (await markUploadFailed(ctx.db, row.id, error, at)) {
        ctx.metrics.uploadCompleted(row.kind, 'failed');
        failed += 1;
      }
    }
    // Each row read is no longer pending, so the next read starts past them.
    if (due.length < CHUNK) return failed;
  }
}
