// Approval of queue items (SPEC 1, 3 rule 1; DECISIONS 2) and their priority. Status
// changes themselves live in items.state.ts and the reads other code may make in
// item-reads.service.ts; nothing outside this module touches queue_items but through
// the module's face.
import type { AppContext } from '../../context.ts';
import { OperatorError } from '../../lib/operator-error.ts';
import { OPERATOR, recordActivity, type Actor } from '../activity/index.ts';
import * as posts from './post-status.repository.ts';
import * as repo from './items.repository.ts';
import { decideItems } from './items.state.ts';

export class ApprovalError extends OperatorError {}

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
  return ctx.db.transaction().execute(async (tx) => {
    const post = await posts.lockPost(tx, target.postId, target.companyId);
    if (!post) throw new ApprovalError(`post ${target.postId} does not exist`);
    let pending = await repo.pendingItems(tx, post.company_id, post.id, target.accountId);
    if (target.accountIds) {
      const wanted = new Set(target.accountIds);
      pending = pending.filter((p) => wanted.has(p.account_id));
    }
    if (pending.length === 0) {
      throw new ApprovalError(
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
      actor.id,
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
          detail: `accounts ${changed.join(', ')}`,
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
  ctx: AppContext,
  companyId: string,
  itemId: string,
  priority: number,
  actor: Actor,
): Promise<'changed' | 'not_found' | 'released'> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (tx) => {
    const item = await repo.findItem(tx, companyId, itemId);
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
