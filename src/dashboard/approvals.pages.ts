// The approvals inbox (dashboard page 1): posts with items waiting for approval, newest
// first; approve or reject one account of a post, a whole post, or a selection at once.
// Each decision goes through the items service, which records who decided.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { listCompanyAccounts, nextWindowAt } from '../modules/accounts/index.ts';
import { getCompanyRow } from '../modules/companies/index.ts';
import { ApprovalError, approve, reject } from '../modules/items/index.ts';
import { reviewMedia, listPosts, ListPostsQuery } from '../modules/posts/index.ts';
import { Repeated, valuesOf } from './forms.ts';
import { page } from './layout.ts';
import { setFlash, takeFlash } from './flash.ts';
import { BASE, PageError, redirect, userOf, actorOf } from './session.ts';

/** Posts a page of the inbox shows. */
const PAGE_SIZE = 25;
/** Accounts one decision may name (a post targets at most 50). */
const MAX_SELECTED = 500;

const InboxQuery = Type.Object({ cursor: ListPostsQuery.properties.cursor });

/** What a decision names: whole posts (`post`) and single accounts (`item`, `post:account`). */
const Targets = { post: Type.Optional(Repeated), item: Type.Optional(Repeated) };
// A card's buttons name their target in the form's address; the selection form sends its
// ticked accounts in the body.
const DecideQuery = Type.Object(Targets);
const DecideForm = Type.Object({ outcome: Type.Optional(Type.String()), ...Targets });

/** The decision a form asks for: per post, all its pending items or the accounts selected. */
function targetsOf(posts: string[], items: string[]): Map<string, string[] | null> {
  const targets = new Map<string, string[] | null>();
  for (const postId of posts) targets.set(postId, null);
  if (items.length > MAX_SELECTED) {
    throw new PageError(400, `Select at most ${MAX_SELECTED} accounts at once.`);
  }
  for (const value of items) {
    const [postId, accountId] = value.split(':');
    if (!postId || !accountId) throw new PageError(400, 'The selection is not valid.');
    const current = targets.get(postId);
    if (current === null) continue;
    targets.set(postId, [...(current ?? []), accountId]);
  }
  if (targets.size === 0) throw new PageError(400, 'Select at least one post or account.');
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
      const [media, company, accounts] = await Promise.all([
        reviewMedia(
          ctx,
          user.companyId,
          result.data.map((p) => p.postId),
        ),
        getCompanyRow(ctx.db, user.companyId),
        listCompanyAccounts(ctx.db, user.companyId),
      ]);
      const now = ctx.clock.now();
      const windows = new Map(
        accounts.map((a) => [
          a.id,
          nextWindowAt(a.timezone, a.schedule_windows, company?.schedule_windows ?? null, now).at,
        ]),
      );
      const posts = result.data.map((p) => ({
        ...p,
        items: media.get(p.postId) ?? [],
        pending: p.accounts
          .filter((a) => a.status === 'pending_approval')
          .map((a) => ({ ...a, nextWindow: windows.get(a.accountId) ?? null })),
      }));
      return page(req, reply, 'approvals.eta', 'Approvals', {
        posts,
        next: result.nextCursor
          ? `${BASE}/approvals?cursor=${encodeURIComponent(result.nextCursor)}`
          : null,
        done: takeFlash(ctx, req, reply),
        canDecide: user.role !== 'viewer',
      });
    });

    app.post(
      '/approvals/decide',
      { config: { role: 'editor' }, schema: { querystring: DecideQuery, body: DecideForm } },
      async (req, reply) => {
        const user = userOf(req);
        const { body, query } = req;
        const outcome =
          body.outcome === 'reject' ? 'reject' : body.outcome === 'approve' ? 'approve' : null;
        if (!outcome) throw new PageError(400, 'Choose approve or reject.');
        const decide = outcome === 'approve' ? approve : reject;
        let changed = 0;
        const targets = targetsOf(
          [...valuesOf(query.post), ...valuesOf(body.post)],
          [...valuesOf(query.item), ...valuesOf(body.item)],
        );
        for (const [postId, accountIds] of targets) {
          try {
            const result = await decide(ctx, {
              postId,
              companyId: user.companyId,
              ...(accountIds ? { accountIds } : {}),
              actor: actorOf(user),
            });
            changed += result.changed.length;
          } catch (err) {
            if (!(err instanceof ApprovalError)) throw err;
            // Another company's post reads as unknown (404); decided meanwhile is a conflict.
            if (/does not exist/.test(err.message)) throw new PageError(404, 'Not found.');
            throw new PageError(409, 'Those items are no longer waiting for approval.');
          }
        }
        const verb = outcome === 'approve' ? 'approved' : 'rejected';
        setFlash(ctx, req, reply, `${changed} ${verb}`);
        return redirect(req, reply, `${BASE}/approvals`);
      },
    );
  };
}
