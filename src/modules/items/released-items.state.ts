// The state machine of queue items after their release (DECISIONS 2): a worker claims its
// tasks and reports each one posted or failed, tasks nobody reported in time fail, and a
// proof screenshot is attached. Like items.state.ts, every change runs inside the caller's
// transaction, is conditional on the status at write time, refreshes the derived status
// of the posts it touched and records the items' lifecycle events.
import type { DbOrTx } from '../../db/types.ts';

import { recordEvents, type NewEvent } from '../webhooks/index.ts';
import { itemChanged, itemPosted } from './item-events.view.ts';

import * as repo from './items.repository.ts';
import { refreshMany, refreshOne } from './post-status.state.ts';
import * as releases from './releases.repository.ts';
import * as figures from './delivery-figures.service.ts';
import * as reads from './item-reads.repository.ts';
import { isOnTime } from './delivery-figures.rules.ts';

/** Why an unreported task failed (DECISIONS 6): nothing is retried on its own after release. */
export const UNCLAIMED_REASON =
  'No worker claimed this task before the report deadline, so nothing was posted. Queue the post for this account again to retry.';
export const UNCONFIRMED_REASON =
  'The worker claimed this task but never reported an outcome, so it is unconfirmed whether it was posted. Check the account, then queue the post again only if it did not go out.';

/**
 * A worker takes up to `limit` released items (tasks) of the accounts it operates, oldest
 * release first. Each task is claimed once: the update is conditional on it being unclaimed,
 * and on PostgreSQL concurrent claimers skip rows another claim holds. Claiming changes no
 * status (the item stays `posting`), so no post status is refreshed; the release-to-claim
 * counters move in the same transaction.
 *
 * Two statements, not `update ... where id in (select ... limit n for update skip locked)`:
 * PostgreSQL may plan that subquery as the inner side of a nested loop and rescan it for
 * every row of the update; each rescan passes over the rows the statement already updated
 * and yields the next ones, so one claim with `limit` 1 took every released task.
 */
export async function claimItems(
  tx: DbOrTx,
  worker: { id: string; accountId?: string },
  limit: number,
  at: string,
): Promise<string[]> {
  const ids = await repo.claimCandidates(tx, worker, limit);
  if (ids.length === 0) return [];
  const claimed = await repo.claim(tx, ids, worker.id, at);
  await countClaims(tx, claimed, worker.id, at);
  return claimed.map((c) => c.id);
}

/**
 * Claims one released item for the worker, as when a person starts a task on the workers'
 * page; the caller has checked that the worker operates its account. Conditional on the item
 * being released and unclaimed, so it is claimed at most once; returns whether it was.
 */
export async function claimItem(
  tx: DbOrTx,
  itemId: string,
  workerId: string,
  at: string,
): Promise<boolean> {
  const claimed = await repo.claim(tx, [itemId], workerId, at);
  await countClaims(tx, claimed, workerId, at);
  return claimed.length === 1;
}

/**
 * Counts the release-to-claim time of items just claimed, in the claim's transaction. Only
 * the rows the conditional claim stamped come here, so a task counts once however often it
 * is claimed again (a retry, a second device), and never after it was reported.
 */
async function countClaims(
  tx: DbOrTx,
  claimed: readonly repo.ClaimedItem[],
  workerId: string,
  at: string,
): Promise<void> {
  const outcomes: figures.DeliveryFigureOutcome[] = [];
  for (const c of claimed) {
    if (c.released_at === null) continue;
    outcomes.push({
      kind: 'claimed',
      companyId: c.company_id,
      accountId: c.account_id,
      workerId,
      releasedAt: c.released_at,
      latencyMs: Date.parse(at) - Date.parse(c.released_at),
    });
  }
  await figures.countOutcomes(tx, outcomes);
}

/**
 * Records a worker's report on a released item: `posting` becomes `posted` (with its URL and
 * time) or `failed` (with the reason). Conditional on the item still being `posting`, so a
 * late report can never overwrite a final outcome; returns false when nothing moved. With
 * `fromUnconfirmed`, a `posted` report instead settles an item that failed only because its
 * claim went unreported (the worker did post it); an item nobody claimed was never posted.
 * A post is on time when reported within `graceMs` after the start of the slot it was
 * released into; the delivery counters move in the same transaction.
 */
export async function finishItem(
  tx: DbOrTx,
  item: { id: string; postId: string },
  result: repo.ItemOutcome,
  at: string,
  opts: { fromUnconfirmed?: boolean; graceMs: number },
): Promise<boolean> {
  const fromFailedReason = opts.fromUnconfirmed ? UNCONFIRMED_REASON : undefined;
  let onTime: boolean | undefined;
  let slotStart: string | null = null;
  if (result.outcome === 'posted') {
    const release = await releases.releaseOf(tx, item.id);
    slotStart = release?.slot_start ?? null;
    const reference = slotStart ?? release?.released_at ?? null;
    if (reference !== null) onTime = isOnTime(result.postedAt, reference, opts.graceMs);
  }
  const moved = await repo.finish(tx, item.id, result, at, { fromFailedReason, onTime });
  if (!moved) return false;
  const { events } = await refreshOne(tx, item.postId, at);
  const changed =
    result.outcome === 'posted'
      ? itemPosted(moved, slotStart)
      : itemChanged('post.item.failed', [moved]);
  await recordEvents(tx, [...changed, ...events], at);
  if (moved.released_at !== null) {
    const workerId =
      moved.claimed_by ??
      (await reads.workersOfAccounts(tx, [moved.account_id])).get(moved.account_id) ??
      null;
    const base = {
      companyId: moved.company_id,
      accountId: moved.account_id,
      workerId,
      releasedAt: moved.released_at,
    };
    await figures.countOutcomes(tx, [
      result.outcome === 'posted'
        ? {
            ...base,
            kind: 'posted',
            onTime: onTime ?? false,
            latencyMs: Date.parse(result.postedAt) - Date.parse(moved.released_at),
            fromUnconfirmed: opts.fromUnconfirmed === true,
          }
        : { ...base, kind: 'failed' },
    ]);
  }
  return true;
}

/** An item failed for want of a report, and whether it had been claimed (unconfirmed). */
export interface FailedUnreported {
  id: string;
  postId: string;
  companyId: string;
  releasedAt: string;
  claimed: boolean;
}

/**
 * Fails released items with no report by the deadline: unclaimed ones released at or before
 * `before`, claimed ones claimed at or before it (the deadline runs from the claim once there
 * is one). They are never put back in the queue: a worker may have posted without
 * reporting, and a second release could post twice. Returns the items failed.
 */
export async function failUnreported(
  tx: DbOrTx,
  before: string,
  at: string,
  limit: number,
): Promise<FailedUnreported[]> {
  const stale = await repo.unreported(tx, before, limit);
  const failed: FailedUnreported[] = [];
  const finished: repo.FinishedItem[] = [];
  const events: NewEvent[] = [];
  for (const claimed of [false, true]) {
    const ids = stale.filter((r) => (r.claimed_at !== null) === claimed).map((r) => r.id);
    if (ids.length === 0) continue;
    const reason = claimed ? UNCONFIRMED_REASON : UNCLAIMED_REASON;
    const moved = await repo.failReleased(tx, ids, claimed, reason, at);
    for (const r of moved) {
      failed.push({
        id: r.id,
        postId: r.post_id,
        companyId: r.company_id,
        releasedAt: r.released_at ?? at,
        claimed,
      });
    }
    finished.push(...moved);
    events.push(...itemChanged(claimed ? 'post.item.unconfirmed' : 'post.item.failed', moved));
  }
  // In one batch and in post id order like releases, so a deadline pass and a release
  // touching the same posts never wait on each other in a cycle.
  if (failed.length) {
    const refreshed = await refreshMany(
      tx,
      failed.map((f) => f.postId),
      at,
    );
    await recordEvents(tx, [...events, ...refreshed.events], at);
    const unclaimed = finished.filter((r) => r.claimed_by === null).map((r) => r.account_id);
    const workers = await reads.workersOfAccounts(tx, unclaimed);
    await figures.countOutcomes(
      tx,
      finished.map((r) => ({
        companyId: r.company_id,
        accountId: r.account_id,
        workerId: r.claimed_by ?? workers.get(r.account_id) ?? null,
        releasedAt: r.released_at ?? at,
        kind: r.claimed_by === null ? 'failed' : 'unconfirmed',
      })),
    );
  }
  return failed;
}

/**
 * Keeps the screenshot a worker sent as proof of an item's post (an image upload of the
 * item's company). The status does not change; a later screenshot replaces an earlier one.
 */
export function attachProof(
  tx: DbOrTx,
  itemId: string,
  uploadId: string,
  at: string,
): Promise<boolean> {
  return repo.setProof(tx, itemId, uploadId, at);
}
