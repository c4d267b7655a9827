// Approval of queue items (SPEC 1, 3 rule 1; DECISIONS 2) and their priority. Status
// changes themselves live in items.state.ts and the reads other code may make in
// item-reads.service.ts; nothing outside this module touches queue_items but through
// the module's face.
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import { OPERATOR, recordActivity, type Actor } from '../activity/index.ts';
import * as posts from './post-status.repository.ts';
import * as reads from './item-reads.repository.ts';
import * as repo from './items.repository.ts';
import { decideItems } from './items.state.ts';

export interface ApprovalTarget {
  postId: string;
  /** Limit to one account of the post; all pending items otherwise. */
  accountId?: string;
  /** When given, the post must belong to this company. */
  companyId?: string;
  /** Limit to these accounts of the post (a selection); all pending items otherwise. */
  accountIds?: readonly string[];
  /** Who decides; the operator at the admin CLI when absent. */
  actor?: Actor;
  /**
   * Why the items are rejected (1-500 characters once trimmed), kept with each item and
   * sent in its `post.item.rejected` event; ignored when approving.
   */
  reason?: string;
}

/** Longest reason a rejection keeps, in characters. */
export const MAX_REJECT_REASON = 500;

/** A rejection's reason as kept: trimmed, 1-500 characters; null when none was given. */
function reasonOf(reason: string | undefined): string | null {
  if (reason === undefined) return null;
  const trimmed = reason.trim();
  const length = [...trimmed].length;
  if (length === 0)
    throw new ActionRefused('invalid', 'the reason for rejecting must not be empty');
  if (length > MAX_REJECT_REASON) {
    throw new ActionRefused(
      'invalid',
      `the reason for rejecting must be at most ${MAX_REJECT_REASON} characters (got ${length})`,
    );
  }
  return trimmed;
}

export interface ApprovalResult {
  postId: string;
  /** Account ids whose items moved. */
  changed: string[];
  postStatus: string;
}

/**
 * Approves or rejects the post's items waiting for approval, in one transaction that holds
 * the post, conditional on the items' current status, followed by the post's refresh.
 */
async function decide(
  ctx: AppContext,
  target: ApprovalTarget,
  outcome: 'approve' | 'reject',
): Promise<ApprovalResult> {
  const at = ctx.clock.now().toISOString();
  const reason = outcome === 'reject' ? reasonOf(target.reason) : null;
  return ctx.db.transaction().execute(async (tx) => {
    const post = await posts.lockPost(tx, target.postId, target.companyId);
    if (!post) throw new ActionRefused('not_found', `post ${target.postId} does not exist`);
    let pending = await repo.pendingItems(tx, post.company_id, post.id, target.accountId);
    if (target.accountIds) {
      const wanted = new Set(target.accountIds);
      pending = pending.filter((p) => wanted.has(p.account_id));
    }
    if (pending.length === 0) {
      throw new ActionRefused(
        'conflict',
        `post ${target.postId} has no item waiting for approval${target.accountId ? ` for account ${target.accountId}` : ''}`,
      );
    }
    const actor = target.actor ?? OPERATOR;
    const { moved, status: postStatus } = await decideItems(
      tx,
      post.id,
      pending.map((p) => p.id),
      outcome,
      at,
      { id: actor.id, email: actor.id.startsWith('user:') ? actor.label : null },
      reason,
    );
    const movedIds = new Set(moved);
    const changed = pending.filter((p) => movedIds.has(p.id)).map((p) => p.account_id);
    if (changed.length > 0) {
      await recordActivity(
        tx,
        post.company_id,
        actor,
        {
          action: outcome === 'approve' ? 'post.approved' : 'post.rejected',
          target: post.id,
          detail: `accounts ${changed.join(', ')}${reason ? `; reason: ${reason}` : ''}`,
        },
        new Date(at),
      );
    }
    return { postId: post.id, changed, postStatus };
  });
}

export function approve(ctx: AppContext, target: ApprovalTarget): Promise<ApprovalResult> {
  return decide(ctx, target, 'approve');
}

export function reject(ctx: AppContext, target: ApprovalTarget): Promise<ApprovalResult> {
  return decide(ctx, target, 'reject');
}

/**
 * Changes the release priority of an item not yet released (DECISIONS 5: higher first).
 * Another company's item is unknown; a released or final item keeps its priority.
 */
export async function changePriority(
  db: Db,
  clock: Clock,
  companyId: string,
  itemId: string,
  priority: number,
  actor: Actor,
): Promise<'changed' | 'not_found' | 'released'> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const item = await reads.findItem(tx, companyId, itemId);
    if (!item) return 'not_found';
    if (!(await repo.setPriority(tx, companyId, itemId, priority, now.toISOString()))) {
      return 'released';
    }
    await recordActivity(
      tx,
      companyId,
      actor,
      {
        action: 'item.priority_changed',
        target: itemId,
        detail: `${item.priority} -> ${priority}`,
      },
      now,
    );
    return 'changed';
  });
}

/**
 * Moves an item not yet released to another window by setting its earliest-release floor
 * (SPEC 2.2 `scheduledAfter`) to the window's start, or clears the floor (`null`: the next
 * free window). The caller has checked that the window is free (the queue module's plan);
 * recorded in the activity log as `item.window_moved`. Another company's item is unknown.
 */
export async function setReleaseFloor(
  db: Db,
  clock: Clock,
  companyId: string,
  itemId: string,
  floor: Date | null,
  actor: Actor,
): Promise<'changed' | 'not_found' | 'released'> {
  const now = clock.now();
  const value = floor === null ? null : floor.toISOString();
  return db.transaction().execute(async (tx) => {
    const item = await reads.findItem(tx, companyId, itemId);
    if (!item) return 'not_found';
    if (!(await repo.setFloor(tx, companyId, itemId, value, now.toISOString()))) {
      return 'released';
    }
    await recordActivity(
      tx,
      companyId,
      actor,
      {
        action: 'item.window_moved',
        target: itemId,
        detail: `${item.scheduled_after ?? 'next free window'} -> ${value ?? 'next free window'}`,
      },
      now,
    );
    return 'changed';
  });
}

export type PostPriorityResult =
  | { outcome: 'changed'; accountIds: string[] }
  | { outcome: 'not_found' }
  | { outcome: 'unchanged' };

/**
 * Changes the release priority (DECISIONS 5: higher first) of every item of the post not
 * yet released, as the queue call's `priority` sets it for new items; recorded in the
 * activity log. Another company's post is unknown; items released or final keep theirs,
 * and `unchanged` says no item moved (none waiting, or all at that priority already).
 */
export async function changePostPriority(
  db: Db,
  clock: Clock,
  companyId: string,
  postId: string,
  priority: number,
  actor: Actor,
): Promise<PostPriorityResult> {
  const now = clock.now();
  const at = now.toISOString();
  return db.transaction().execute(async (tx) => {
    // The post is not locked: its status does not change, and the items' update is
    // conditional on their status, so a release under way keeps the item it holds.
    if (!(await posts.hasPost(tx, postId, companyId))) return { outcome: 'not_found' };
    const accountIds = await repo.setPostPriority(tx, companyId, postId, priority, at);
    if (accountIds.length === 0) return { outcome: 'unchanged' };
    await recordActivity(
      tx,
      companyId,
      actor,
      {
        action: 'post.priority_changed',
        target: postId,
        detail: `priority ${priority} for accounts ${accountIds.join(', ')}`,
      },
      now,
    );
    return { outcome: 'changed', accountIds };
  });
}

/** The post and account of each of the company's items among `itemIds` (others left out). */
export async function itemPlaces(
  db: Db,
  companyId: string,
  itemIds: readonly string[],
): Promise<Map<string, { postId: string; accountId: string }>> {
  const rows = await reads.itemRefs(db, companyId, [...new Set(itemIds)]);
  return new Map(rows.map((r) => [r.id, { postId: r.post_id, accountId: r.account_id }]));
}
