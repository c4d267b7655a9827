// What an editor does to one post from its page, each through the posts and items services
// under the API's own rules (SPEC 2.2, 3 rules 2-4, 4.2; DECISIONS 2) and recorded in the
// activity log by them: edit its metadata and tags, cancel it for one account or all (with
// a confirmation, then what was cancelled and what was skipped and why), queue it to more
// accounts, and change the priority of what is not released yet. A refusal answers with
// the post's page, saying what went wrong in plain words.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { listCompanyAccounts } from '../../modules/accounts/index.ts';
import { changePostPriority, isCancellable, itemsOfPost } from '../../modules/items/index.ts';
import {
  cancelPost,
  queuePostAs,
  updatePost,
  QueuePostBody,
  type PostOut,
  type SkipReason,
} from '../../modules/posts/index.ts';
import { fieldError, formCheck, Repeated, valuesOf, type FieldError } from './forms.ts';
import { setFlash } from './flash.ts';
import { page } from './layout.ts';
import { mediaKind } from './media-label.ts';
import { accountRef, postTitle, type Ref } from './names.ts';
import { notEditableReason, postOr404, renderPost } from './post-detail.ts';
import { EDIT_REFUSALS, EditBody, changesOf, checkEdit, typedEdit } from './post-edit-form.ts';
import { BASE, actorOf, redirect, userOf } from './session.ts';
import { clockface, displayTimezone } from './time.ts';
import { floorsOf, whenOf, windowRows } from './window-choice.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

const PostParams = Type.Object({ postId: Type.String() });

const CancelBody = Type.Object({
  account: Type.Optional(Type.String()),
  /** `yes` once the person confirmed; without it the page asks. */
  confirm: Type.Optional(Type.String()),
});

const QueueBody = Type.Object({
  account: Type.Optional(Repeated),
  skipApproval: Type.Optional(Type.String()),
  priority: Type.Optional(Type.String()),
  // When the items go out (window-choice.ts); per account `at.<accountId>`, which whenOf bounds.
  when: Type.Optional(Type.String({ maxLength: 10 })),
  whenDay: Type.Optional(Type.String({ maxLength: 10 })),
  notBefore: Type.Optional(Type.String({ maxLength: 16 })),
});

const PriorityBody = Type.Object({ priority: Type.Optional(Type.String()) });

/** The highest priority the API takes (posts.schemas.ts `priority`). */
const MAX_PRIORITY = 1_000_000;

// The queue form against POST /v2/posts/{postId}/queue's body.
const checkQueue = formCheck(QueuePostBody, {
  accountIds: {
    label: 'Accounts',
    field: 'account',
    id: 'queue-accounts',
    item: 'account',
    messages: { minItems: 'choose at least one account' },
  },
  priority: { label: 'Priority', id: 'queue-priority' },
  skipApproval: { label: 'Skip approval', id: 'queue-skip' },
});

/** Why a queue was refused, in plain words; null for a refusal the page does not expect. */
function queueProblem(err: ApiError, which: string): { status: number; message: string } | null {
  if (err.code === 'duplicate_queue_item') {
    return {
      status: 409,
      message: `Nothing was queued: the post is already waiting or queued for one of ${which}. Untick it and try again.`,
    };
  }
  if (err.code === 'post_already_published') {
    return {
      status: 409,
      message:
        'Nothing was queued: this post is already published on at least one account, so it cannot be queued again.',
    };
  }
  if (err.code === 'media_not_ready') {
    return {
      status: 409,
      message: `Nothing was queued: the post’s media is not ready (${err.message.replace(/^Post \S+ /, '')}).`,
    };
  }
  if (err.code === 'quota_exceeded' || err.code === 'rate_limited') {
    return {
      status: 429,
      message: `Nothing was queued: the company reached a limit of its plan. ${err.message}`,
    };
  }
  return null;
}

/** Words for why an item was left alone by a cancel (post-cancel.service.ts). */
export const SKIP_WORDS: Record<SkipReason, string> = {
  currently_posting: 'it is being posted right now: its worker has it',
  already_posted: 'it was already posted, and a posted item stays',
  already_cancelled: 'it was already cancelled or rejected',
  already_failed: 'it had already failed',
};

/** Why a cancel leaves an item of this status alone. */
export function skipReasonOf(status: string): SkipReason {
  if (status === 'posted') return 'already_posted';
  if (status === 'cancelled') return 'already_cancelled';
  if (status === 'failed') return 'already_failed';
  return 'currently_posting';
}

/** The post's accounts named, by id. */
function refsOf(post: PostOut): Map<string, Ref> {
  return new Map(post.accounts.map((a) => [a.accountId, accountRef(a)]));
}

/** The company's account among `ids`, or the page's 404 (another company's reads as unknown). */
async function companyAccounts(
  ctx: AppContext,
  companyId: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const known = new Set((await listCompanyAccounts(ctx.db, companyId)).map((a) => a.id));
  if (ids.some((id) => !known.has(id))) throw new ActionRefused('not_found', 'Not found.');
}

export function postActionPages(ctx: AppContext) {
  async function cancelPage(
    req: FastifyRequest,
    reply: FastifyReply,
    post: PostOut,
    data: Record<string, unknown>,
  ) {
    const title = postTitle(post.caption, mediaKind(post.media));
    return page(req, reply, 'post-cancel.eta', `Cancel ${title}`, {
      post,
      heading: title,
      ...data,
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const editor = { role: 'editor' as const };

    app.post(
      '/posts/:postId/edit',
      { config: editor, schema: { params: PostParams, body: EditBody } },
      async (req, reply) => {
        const user = userOf(req);
        const { postId } = req.params;
        const post = await postOr404(ctx, user.companyId, postId);
        const form = typedEdit(req.body, post);
        const tagsOnly = req.body.scope === 'tags';
        const input = changesOf(form, post, tagsOnly);
        const again = (status: number, extra: { errors?: FieldError[]; problem?: string }) =>
          renderPost(ctx, req, reply, postId, {
            status,
            edit: form,
            editErrors: extra.errors ?? [],
            ...(extra.problem ? { problem: extra.problem } : {}),
          });
        const checked = checkEdit(input);
        if (!checked.ok) return again(400, { errors: checked.errors });
        if (Object.keys(input).length === 0) {
          setFlash(ctx, req, reply, 'Nothing to save: the post already says this.');
          return redirect(req, reply, `${BASE}/posts/${postId}`);
        }
        try {
          await updatePost(ctx, user.companyId, postId, checked.value, actorOf(user));
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          if (err.code === 'post_not_found') throw new ActionRefused('not_found', 'Not found.');
          if (err.code === 'post_not_editable') {
            const items = await itemsOfPost(ctx.db, user.companyId, postId);
            const names = new Map(post.accounts.map((a) => [a.accountId, `@${a.username}`]));
            return again(409, {
              problem:
                notEditableReason(items, names) ??
                'This post can no longer be edited: one of its accounts is being posted.',
            });
          }
          const refused = EDIT_REFUSALS[err.code];
          if (!refused) throw err;
          return again(400, { errors: [fieldError(refused.field, refused.message, refused.id)] });
        }
        const what = tagsOnly || Object.keys(input).every((k) => k === 'contentGroupIds');
        setFlash(ctx, req, reply, what ? 'Tags saved.' : 'Post saved.');
        return redirect(req, reply, `${BASE}/posts/${postId}`);
      },
    );

    app.post(
      '/posts/:postId/cancel',
      { config: editor, schema: { params: PostParams, body: CancelBody } },
      async (req, reply) => {
        const user = userOf(req);
        const { postId } = req.params;
        const post = await postOr404(ctx, user.companyId, postId);
        const accountId = req.body.account || undefined;
        if (accountId) await companyAccounts(ctx, user.companyId, [accountId]);
        const refs = refsOf(post);
        const targets = post.accounts.filter((a) => !accountId || a.accountId === accountId);
        if (accountId && targets.length === 0) {
          throw new ActionRefused('invalid', 'This post was never queued to that account.');
        }
        if (req.body.confirm !== 'yes') {
          return cancelPage(req, reply, post, {
            accountId: accountId ?? null,
            willCancel: targets.filter((a) => isCancellable(a.status)).map((a) => accountRef(a)),
            willSkip: targets
              .filter((a) => !isCancellable(a.status))
              .map((a) => ({ ref: accountRef(a), why: SKIP_WORDS[skipReasonOf(a.status)] })),
            done: false,
          });
        }
        let cancelled: string[] = [];
        let skipped: { accountId: string; reason: SkipReason }[] = [];
        let nothing = false;
        try {
          const result = await cancelPost(ctx, user.companyId, postId, accountId, actorOf(user));
          cancelled = result.cancellation.cancelled;
          skipped = result.cancellation.skipped as typeof skipped;
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          if (err.code === 'post_not_found') throw new ActionRefused('not_found', 'Not found.');
          if (err.code !== 'post_not_cancellable') throw err;
          // Nothing could be cancelled: say why for each account, as it is now.
          nothing = true;
          const now = await postOr404(ctx, user.companyId, postId);
          skipped = now.accounts
            .filter((a) => !accountId || a.accountId === accountId)
            .map((a) => ({ accountId: a.accountId, reason: skipReasonOf(a.status) }));
        }
        if (nothing) reply.code(409);
        const named = (id: string): Ref =>
          refs.get(id) ?? { kind: 'account', id, label: 'an account', href: null };
        return cancelPage(req, reply, post, {
          accountId: accountId ?? null,
          done: true,
          nothing,
          cancelled: cancelled.map(named),
          skipped: skipped.map((s) => ({ ref: named(s.accountId), why: SKIP_WORDS[s.reason] })),
        });
      },
    );

    app.post(
      '/posts/:postId/queue',
      { config: editor, schema: { params: PostParams, body: QueueBody } },
      async (req, reply) => {
        const user = userOf(req);
        const { postId } = req.params;
        await postOr404(ctx, user.companyId, postId);
        const accountIds = [...new Set(valuesOf(req.body.account))];
        await companyAccounts(ctx, user.companyId, accountIds);
        const priorityText = (req.body.priority ?? '').trim();
        const skipApproval = req.body.skipApproval === 'on';
        const when = whenOf(req.body);
        const typed = { accounts: accountIds, skipApproval, priority: priorityText, when };
        const again = (status: number, extra: { errors?: FieldError[]; problem?: string }) =>
          renderPost(ctx, req, reply, postId, {
            status,
            queue: typed,
            queueErrors: extra.errors ?? [],
            ...(extra.problem ? { problem: extra.problem } : {}),
          });
        if (priorityText !== '' && !/^\d{1,7}$/.test(priorityText)) {
          return again(400, {
            errors: [
              fieldError(
                'priority',
                `Priority: a whole number from 0 to ${MAX_PRIORITY.toLocaleString('en-US')}`,
                'queue-priority',
              ),
            ],
          });
        }
        const input = {
          accountIds,
          ...(skipApproval ? { skipApproval: true } : {}),
          ...(priorityText !== '' ? { priority: Number(priorityText) } : {}),
        };
        const checked = checkQueue(input);
        if (!checked.ok) return again(400, { errors: checked.errors });
        const chosen = floorsOf(
          await windowRows(
            ctx,
            user.companyId,
            accountIds,
            when,
            clockface(displayTimezone(req)),
            checked.value.priority ?? 0,
          ),
        );
        if (chosen.errors.length > 0) return again(400, { errors: chosen.errors });
        let queued: PostOut;
        try {
          queued = await queuePostAs(
            ctx,
            user.companyId,
            postId,
            checked.value,
            actorOf(user),
            chosen.floors,
          );
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          const names = (await listCompanyAccounts(ctx.db, user.companyId)).filter((a) =>
            accountIds.includes(a.id),
          );
          const which = names.map((a) => `@${a.username}`).join(', ');
          if (err.code === 'post_not_found' || err.code === 'account_not_found') {
            throw new ActionRefused('not_found', 'Not found.');
          }
          const problem = queueProblem(err, which);
          if (!problem) throw err;
          return again(problem.status, { problem: problem.message });
        }
        const refs = refsOf(queued);
        const named = accountIds.map((id) => refs.get(id)?.label ?? 'an account').join(', ');
        const after = skipApproval
          ? 'approval skipped: they wait for their posting windows'
          : 'they wait for approval';
        setFlash(ctx, req, reply, `Queued to ${named}; ${after}.`);
        return redirect(req, reply, `${BASE}/posts/${postId}`);
      },
    );

    app.post(
      '/posts/:postId/priority',
      { config: editor, schema: { params: PostParams, body: PriorityBody } },
      async (req, reply) => {
        const user = userOf(req);
        const { postId } = req.params;
        const post = await postOr404(ctx, user.companyId, postId);
        const raw = (req.body.priority ?? '').trim();
        const priority = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
        if (!Number.isSafeInteger(priority) || priority > MAX_PRIORITY) {
          return renderPost(ctx, req, reply, postId, {
            status: 400,
            priority: raw,
            priorityError: `Priority: a whole number from 0 to ${MAX_PRIORITY.toLocaleString('en-US')}`,
          });
        }
        const result = await changePostPriority(
          ctx.db,
          ctx.clock,
          user.companyId,
          postId,
          priority,
          actorOf(user),
        );
        if (result.outcome === 'not_found') throw new ActionRefused('not_found', 'Not found.');
        const refs = refsOf(post);
        setFlash(
          ctx,
          req,
          reply,
          result.outcome === 'changed'
            ? `Priority set to ${priority} for ${result.accountIds.map((id) => refs.get(id)?.label ?? 'an account').join(', ')}.`
            : `Nothing changed: no account of this post waits at another priority.`,
        );
        return redirect(req, reply, `${BASE}/posts/${postId}`);
      },
    );
  };
}
