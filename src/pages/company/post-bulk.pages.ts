// Bulk actions on the posts list: an editor selects posts (one by one, or all on the page)
// and approves their items waiting for approval, or cancels them. The page first asks to
// confirm, saying what would happen to each post, then does it post by post through the
// items and posts services (each recorded in the activity log) and shows what happened to
// each: what moved, and what was left alone and why.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import { approve, isCancellable } from '../../modules/items/index.ts';
import { cancelPost, readPost, type PostOut } from '../../modules/posts/index.ts';
import { Repeated, valuesOf } from './forms.ts';
import { page } from './layout.ts';
import { mediaKind } from './media-label.ts';
import { accountRef, postRef, type Ref } from './names.ts';
import { SKIP_WORDS, skipReasonOf } from './post-actions.pages.ts';
import { BASE, actorOf, userOf } from './session.ts';

/** Posts one bulk action takes at most (the list shows 25 a page). */
const MAX_POSTS = 100;

const BulkBody = Type.Object({
  post: Type.Optional(Repeated),
  action: Type.Optional(Type.String()),
  /** `yes` once the person confirmed; without it the page asks. */
  confirm: Type.Optional(Type.String()),
  /** The list (with its filters) to go back to. */
  back: Type.Optional(Type.String()),
});

/** One post of a bulk action: what would happen or what did. */
interface BulkLine {
  post: Ref;
  /** Accounts that move (approved, cancelled) or would. */
  moved: Ref[];
  /** Accounts left alone, each with why. */
  left: { ref: Ref; why: string }[];
  /** A sentence when nothing moved. */
  note: string | null;
}

function kindOf(post: PostOut): string {
  return mediaKind(post.media);
}

/** A list page address to return to, or the list itself. */
function backOf(value: string | undefined): string {
  return value && /^\/dashboard\/posts(\?[^#\s]*)?$/.test(value) ? value : `${BASE}/posts`;
}

const STATUS_WORDS: Record<string, string> = {
  queued: 'it is already approved',
  posting: 'it is being posted right now',
  posted: 'it was already posted',
  failed: 'it had failed',
  cancelled: 'it was cancelled or rejected',
  processing: 'its media is still being prepared; it waits for approval once ready',
};

/** What approving or cancelling would do to the post as it is now. */
function preview(post: PostOut, action: 'approve' | 'cancel'): BulkLine {
  const moves = (status: string) =>
    action === 'approve' ? status === 'pending_approval' : isCancellable(status);
  const moved = post.accounts.filter((a) => moves(a.status)).map((a) => accountRef(a));
  const left = post.accounts
    .filter((a) => !moves(a.status))
    .map((a) => ({
      ref: accountRef(a),
      why:
        action === 'cancel'
          ? SKIP_WORDS[skipReasonOf(a.status)]
          : (STATUS_WORDS[a.status] ?? a.status),
    }));
  const note =
    moved.length > 0
      ? null
      : post.accounts.length === 0
        ? 'It is a draft: it is not queued to any account.'
        : action === 'approve'
          ? 'Nothing of it waits for approval.'
          : 'Nothing of it can be cancelled.';
  return { post: postRef(post.postId, post.caption, kindOf(post)), moved, left, note };
}

export function postBulkPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/posts/bulk',
      { config: { role: 'editor' }, schema: { body: BulkBody } },
      async (req, reply) => {
        const user = userOf(req);
        const action =
          req.body.action === 'approve'
            ? 'approve'
            : req.body.action === 'cancel'
              ? 'cancel'
              : null;
        if (!action)
          throw new ActionRefused('invalid', 'Choose to approve or to cancel the selected posts.');
        const ids = [...new Set(valuesOf(req.body.post))];
        if (ids.length === 0) throw new ActionRefused('invalid', 'Select at least one post.');
        if (ids.length > MAX_POSTS) {
          throw new ActionRefused('invalid', `Select at most ${MAX_POSTS} posts at once.`);
        }
        // Every post must be the company's: another company's reads as unknown (404).
        const posts: PostOut[] = [];
        for (const postId of ids) {
          try {
            posts.push(await readPost(ctx, user.companyId, postId));
          } catch (err) {
            if (err instanceof ApiError && err.code === 'post_not_found') {
              throw new ActionRefused('not_found', 'Not found.');
            }
            throw err;
          }
        }
        const back = backOf(req.body.back);
        const verb = action === 'approve' ? 'Approve' : 'Cancel';
        if (req.body.confirm !== 'yes') {
          return page(req, reply, 'posts-bulk.eta', `${verb} ${posts.length} posts?`, {
            action,
            done: false,
            lines: posts.map((p) => preview(p, action)),
            ids,
            back,
          });
        }
        const lines: BulkLine[] = [];
        for (const post of posts) {
          const ref = postRef(post.postId, post.caption, kindOf(post));
          const names = new Map(post.accounts.map((a) => [a.accountId, accountRef(a)]));
          const named = (id: string): Ref =>
            names.get(id) ?? { kind: 'account', id, label: 'an account', href: null };
          try {
            if (action === 'approve') {
              const result = await approve(ctx, {
                postId: post.postId,
                companyId: user.companyId,
                actor: actorOf(user),
              });
              lines.push({ post: ref, moved: result.changed.map(named), left: [], note: null });
            } else {
              const result = await cancelPost(
                ctx,
                user.companyId,
                post.postId,
                undefined,
                actorOf(user),
              );
              lines.push({
                post: ref,
                moved: result.cancellation.cancelled.map(named),
                left: result.cancellation.skipped.map((s) => ({
                  ref: named(s.accountId),
                  why: SKIP_WORDS[s.reason as keyof typeof SKIP_WORDS] ?? s.reason,
                })),
                note: null,
              });
            }
          } catch (err) {
            const refused =
              err instanceof ActionRefused ||
              (err instanceof ApiError && err.code === 'post_not_cancellable');
            if (!refused) throw err;
            // Decided or moved on meanwhile: say what it is now.
            const now = preview(await readPost(ctx, user.companyId, post.postId), action);
            const none =
              action === 'approve'
                ? 'Nothing of it waits for approval any more.'
                : 'Nothing of it can be cancelled any more.';
            lines.push({ ...now, moved: [], note: now.note ?? none });
          }
        }
        const count = lines.filter((l) => l.moved.length > 0).length;
        return page(req, reply, 'posts-bulk.eta', `${verb}: what happened`, {
          action,
          done: true,
          lines,
          count,
          back,
        });
      },
    );
  };
}
