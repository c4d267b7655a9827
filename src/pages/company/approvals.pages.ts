// The approvals inbox (dashboard page 1): posts with items waiting for approval, newest
// first; approve or reject one account of a post, a whole post, or a selection at once.
// Each decision goes through the items service, which records who decided. Rejecting asks
// first: a confirmation naming what would be rejected, with the reason (required, 1-500
// characters) that is kept with each item; the post's page sends its decisions here too.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import { listCompanyAccounts, nextWindowAt } from '../../modules/accounts/index.ts';
import { getCompanyRow } from '../../modules/companies/index.ts';
import { MAX_REJECT_REASON, approve, reject } from '../../modules/items/index.ts';
import {
  postMediaDetails,
  reviewMedia,
  listPosts,
  readPost,
  ListPostsQuery,
  type PostOut,
} from '../../modules/posts/index.ts';
import { Repeated, valuesOf } from './forms.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { mediaKind, mediaKindLabel, mediaLabel } from './media-label.ts';
import { accountRef, postRef } from './names.ts';
import { BASE, redirect, userOf, actorOf } from './session.ts';

/** Posts a page of the inbox shows (a page's first load stays small: issue 22). */
const PAGE_SIZE = 10;
/** Accounts one decision may name (a post targets at most 50). */
const MAX_SELECTED = 500;

const InboxQuery = Type.Object({ cursor: ListPostsQuery.properties.cursor });

/** What a decision names: whole posts (`post`) and single accounts (`item`, `post:account`). */
const Targets = { post: Type.Optional(Repeated), item: Type.Optional(Repeated) };
// A card's buttons name their target in the form's address; the selection form sends its
// ticked accounts in the body.
const DecideQuery = Type.Object(Targets);
const DecideForm = Type.Object({
  outcome: Type.Optional(Type.String()),
  /**
   * A card's button on the inbox: the outcome and its one target, "approve <post>" or
   * "reject <post>:<account>"; it names the whole decision (the accounts ticked on the page
   * are for the selection's buttons).
   */
  do: Type.Optional(Type.String({ maxLength: 500 })),
  /** Why, when rejecting: absent asks for it (the confirmation), present must be 1-500. */
  reason: Type.Optional(Type.String()),
  /** The page to return to: the inbox, or the post's page the decision was made on. */
  back: Type.Optional(Type.String()),
  ...Targets,
});

/** Where a decision returns: the inbox, or the post's page it came from. */
function backOf(value: string | undefined): string {
  return value && /^\/dashboard\/(approvals|posts\/[\w-]{1,200})$/.test(value)
    ? value
    : `${BASE}/approvals`;
}

/** The reason as kept: trimmed; or the words of what is wrong with it. */
function reasonOf(raw: string): { reason: string } | { error: string } {
  const reason = raw.replace(/\r\n?/g, '\n').trim();
  const length = [...reason].length;
  if (length === 0) return { error: 'Reason: required. Say why, so the author can fix it.' };
  if (length > MAX_REJECT_REASON) {
    return {
      error: `Reason: at most ${MAX_REJECT_REASON} characters (this has ${length.toLocaleString('en-US')})`,
    };
  }
  return { reason };
}

/** A card's `do`: its outcome and its one target (a post, or `post:account`). */
function buttonOf(value: string): { outcome: string; posts: string[]; items: string[] } {
  const match = /^(approve|reject) ([^\s:]+(?::[^\s:]+)?)$/.exec(value);
  if (!match) throw new ActionRefused('invalid', 'Choose approve or reject.');
  const [, outcome = '', target = ''] = match;
  return target.includes(':')
    ? { outcome, posts: [], items: [target] }
    : { outcome, posts: [target], items: [] };
}

/** The decision a form asks for: per post, all its pending items or the accounts selected. */
function targetsOf(posts: string[], items: string[]): Map<string, string[] | null> {
  const targets = new Map<string, string[] | null>();
  for (const postId of posts) targets.set(postId, null);
  if (items.length > MAX_SELECTED) {
    throw new ActionRefused('invalid', `Select at most ${MAX_SELECTED} accounts at once.`);
  }
  for (const value of items) {
    const [postId, accountId] = value.split(':');
    if (!postId || !accountId) throw new ActionRefused('invalid', 'The selection is not valid.');
    const current = targets.get(postId);
    if (current === null) continue;
    targets.set(postId, [...(current ?? []), accountId]);
  }
  if (targets.size === 0)
    throw new ActionRefused('invalid', 'Select at least one post or account.');
  return targets;
}

export function approvalPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/approvals', { schema: { querystring: InboxQuery } }, async (req, reply) => {
      const user = userOf(req);
      const { cursor } = req.query;
      let result;
      try {
        result = await listPosts(ctx, user.companyId, {
          status: 'pending_approval',
          limit: PAGE_SIZE,
          ...(cursor ? { cursor } : {}),
        });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'invalid_cursor') {
          return redirect(req, reply, `${BASE}/approvals`);
        }
        throw err;
      }
      // The page's media and account windows in a few batch reads, not reads per post.
      const ids = result.data.map((p) => p.postId);
      const [media, details, company, accounts] = await Promise.all([
        reviewMedia(ctx, user.companyId, ids),
        postMediaDetails(ctx, user.companyId, ids),
        getCompanyRow(ctx.db, user.companyId),
        listCompanyAccounts(ctx.db, user.companyId),
      ]);
      const now = ctx.clock.now();
      const byId = new Map(accounts.map((a) => [a.id, a]));
      const leadMs = (company?.approval_lead_minutes ?? 120) * 60_000;
      // Each waiting item's deadline, as its approvers' reminders count it: the account's
      // next window at or after the item's earliest-release floor.
      const deadlineOf = (accountId: string, scheduledAfter: string | undefined) => {
        const a = byId.get(accountId);
        if (!a) return null;
        const floor =
          scheduledAfter && Date.parse(scheduledAfter) > now.getTime()
            ? new Date(scheduledAfter)
            : now;
        const at = nextWindowAt(
          a.timezone,
          a.schedule_windows,
          company?.schedule_windows ?? null,
          floor,
        ).at;
        return { at, soon: Date.parse(at) - now.getTime() <= leadMs };
      };
      const posts = result.data.map((p) => ({
        ...p,
        ref: postRef(p.postId, p.caption, mediaKind(p.media)),
        mediaLabel: mediaLabel({
          ...p.media,
          durationSeconds: details.get(p.postId)?.durationSeconds ?? null,
        }),
        mediaKindLabel: mediaKindLabel(p.media),
        items: media.get(p.postId) ?? [],
        pending: p.accounts
          .filter((a) => a.status === 'pending_approval')
          .map((a) => ({
            ...a,
            ref: accountRef(a),
            deadline: deadlineOf(a.accountId, a.scheduledAfter),
          })),
      }));
      return page(req, reply, 'approvals.eta', 'Approvals', {
        posts,
        next: result.nextCursor
          ? `${BASE}/approvals?cursor=${encodeURIComponent(result.nextCursor)}`
          : null,
        first: cursor ? `${BASE}/approvals` : null,
        done: takeFlash(ctx, req, reply),
        canDecide: user.role !== 'viewer',
      });
    });

    /**
     * The confirmation of a rejection: each post with the accounts that would be rejected,
     * and the reason to give (with its error when one was refused).
     */
    async function confirmReject(
      req: FastifyRequest,
      reply: FastifyReply,
      targets: Map<string, string[] | null>,
      form: { reason: string; error: string | null; back: string },
    ) {
      const user = userOf(req);
      const lines = [];
      for (const [postId, accountIds] of targets) {
        let post: PostOut;
        try {
          post = await readPost(ctx, user.companyId, postId);
        } catch (err) {
          // Another company's post reads as unknown.
          if (err instanceof ApiError && err.code === 'post_not_found') {
            throw new ActionRefused('not_found', 'Not found.');
          }
          throw err;
        }
        const pending = post.accounts.filter(
          (a) =>
            a.status === 'pending_approval' && (!accountIds || accountIds.includes(a.accountId)),
        );
        if (pending.length === 0) continue;
        lines.push({
          post: postRef(post.postId, post.caption, mediaKind(post.media)),
          postId,
          accounts: pending.map((a) => accountRef(a)),
          // Exactly what is confirmed: the accounts shown, not whatever waits by then.
          items: pending.map((a) => `${postId}:${a.accountId}`),
        });
      }
      if (lines.length === 0) {
        throw new ActionRefused('conflict', 'Those items are no longer waiting for approval.');
      }
      if (form.error) reply.code(400);
      const count = lines.reduce((n, l) => n + l.accounts.length, 0);
      return page(req, reply, 'reject-confirm.eta', 'Reject?', {
        lines,
        count,
        reason: form.reason,
        error: form.error,
        back: form.back,
        max: MAX_REJECT_REASON,
      });
    }

    app.post(
      '/approvals/decide',
      { config: { role: 'editor' }, schema: { querystring: DecideQuery, body: DecideForm } },
      async (req, reply) => {
        const user = userOf(req);
        const { body, query } = req;
        const button = body.do === undefined ? null : buttonOf(body.do);
        const asked = button?.outcome ?? body.outcome;
        const outcome = asked === 'reject' ? 'reject' : asked === 'approve' ? 'approve' : null;
        if (!outcome) throw new ActionRefused('invalid', 'Choose approve or reject.');
        const back = backOf(body.back);
        const targets = button
          ? targetsOf(button.posts, button.items)
          : targetsOf(
              [...valuesOf(query.post), ...valuesOf(body.post)],
              [...valuesOf(query.item), ...valuesOf(body.item)],
            );
        // No rejection without a confirmation and a reason: a first press asks for both.
        let reason: string | undefined;
        if (outcome === 'reject') {
          if (body.reason === undefined) {
            return confirmReject(req, reply, targets, { reason: '', error: null, back });
          }
          const checked = reasonOf(body.reason);
          if ('error' in checked) {
            return confirmReject(req, reply, targets, {
              reason: body.reason,
              error: checked.error,
              back,
            });
          }
          reason = checked.reason;
        }
        const decide = outcome === 'approve' ? approve : reject;
        let changed = 0;
        for (const [postId, accountIds] of targets) {
          try {
            const result = await decide(ctx, {
              postId,
              companyId: user.companyId,
              ...(accountIds ? { accountIds } : {}),
              actor: actorOf(user),
              ...(reason !== undefined ? { reason } : {}),
            });
            changed += result.changed.length;
          } catch (err) {
            if (!(err instanceof ActionRefused)) throw err;
            // Another company's post reads as unknown (404); decided meanwhile is a conflict.
            if (err.reason === 'not_found') throw new ActionRefused('not_found', 'Not found.');
            throw new ActionRefused('conflict', 'Those items are no longer waiting for approval.');
          }
        }
        const verb = outcome === 'approve' ? 'approved' : 'rejected';
        setFlash(ctx, req, reply, `${changed} ${verb}`);
        return redirect(req, reply, back);
      },
    );
  };
}
