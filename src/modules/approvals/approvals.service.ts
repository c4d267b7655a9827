// Approval (SPEC 1, 3 rule 1; DECISIONS 2): items waiting in `pending_approval`
// become `queued` with `approvedAt`, or are rejected (`cancelled`). Used by the
// operator CLI now and by the dashboard later; each call is one transaction,
// conditional on the items' current status, followed by the post's status refresh.
import type { AppContext } from '../../context.ts';
import { decideItems } from '../posts/posts.state.ts';
import { OperatorError } from '../../lib/operator-error.ts';

export class ApprovalError extends OperatorError {}

export interface ApprovalTarget {
  postId: string;
  /** Limit to one account of the post; all pending items otherwise. */
  accountId?: string;
  /** When given, the post must belong to this company. */
  companyId?: string;
}

export interface ApprovalResult {
  postId: string;
  /** Account ids whose items moved. */
  changed: string[];
  postStatus: string;
}

async function decide(
  ctx: AppContext,
  target: ApprovalTarget,
  outcome: 'approve' | 'reject',
): Promise<ApprovalResult> {
  const at = ctx.clock.now().toISOString();
  return ctx.db.transaction().execute(async (tx) => {
    let q = tx.selectFrom('posts').select(['id', 'company_id']).where('id', '=', target.postId);
    if (target.companyId) q = q.where('company_id', '=', target.companyId);
    if (ctx.dialect === 'postgres') q = q.forUpdate();
    const post = await q.executeTakeFirst();
    if (!post) throw new ApprovalError(`post ${target.postId} does not exist`);
    let items = tx
      .selectFrom('queue_items')
      .select(['id', 'account_id'])
      .where('post_id', '=', post.id)
      .where('company_id', '=', post.company_id)
      .where('status', '=', 'pending_approval');
    if (target.accountId) items = items.where('account_id', '=', target.accountId);
    const pending = await items.execute();
    if (pending.length === 0) {
      throw new ApprovalError(
        `post ${target.postId} has no item waiting for approval${target.accountId ? ` for account ${target.accountId}` : ''}`,
      );
    }
    const { moved, status: postStatus } = await decideItems(
      tx,
      post.id,
      pending.map((p) => p.id),
      outcome,
      at,
    );
    const movedIds = new Set(moved);
    return {
      postId: post.id,
      changed: pending.filter((p) => movedIds.has(p.id)).map((p) => p.account_id),
      postStatus,
    };
  });
}

export function approve(ctx: AppContext, target: ApprovalTarget): Promise<ApprovalResult> {
  return decide(ctx, target, 'approve');
}

export function reject(ctx: AppContext, target: ApprovalTarget): Promise<ApprovalResult> {
  return decide(ctx, target, 'reject');
}
