// A post's state as the dashboard shows it. The API's status stays what DECISIONS 2 derives
// (`cancelled` for a post rejected in review, as for one cancelled by a person); the
// dashboard tells the two apart by the reject record its items keep, so a rejected post reads
// `rejected` in the list, its filter and its page.
import type { AppContext } from '../../context.ts';
import { POST_STATUSES, rejectedAccounts, type PostStatus } from '../../modules/items/index.ts';
import { listPosts, type ListPostsInput, type PostOut } from '../../modules/posts/index.ts';

/** The list's status filter: the API's statuses, with `rejected` beside `cancelled`. */
export const SHOWN_STATUSES = POST_STATUSES.flatMap((s) =>
  s === 'cancelled' ? (['cancelled', 'rejected'] as const) : [s],
);
export type ShownStatus = PostStatus | 'rejected';

/**
 * Cancelled posts a page of the `rejected` or `cancelled` filter looks through at most: the
 * API lists them as one status, so the page picks its own among them, and a company with
 * thousands of cancelled posts still gets its page after a few reads ("Older posts" goes on
 * from where it stopped).
 */
const SCAN_BUDGET = 150;

/** The dashboard's filters as the API's: `rejected` posts are among its `cancelled` ones. */
export function apiFilters<Q extends { status?: ShownStatus }>(
  query: Q,
): Omit<Q, 'status'> & { status?: PostStatus } {
  const { status, ...rest } = query;
  if (status === undefined) return rest;
  return { ...rest, status: status === 'rejected' ? 'cancelled' : status };
}

/** Whether a post of the API's list is one the dashboard's status filter asks for. */
export function matchesShown(post: ShownPost, status: ShownStatus | undefined): boolean {
  return status === undefined || post.shown === status;
}

/** The post's state as shown: `rejected` for a cancelled post whose items were rejected. */
export function shownStatus(status: PostStatus, rejected: boolean): ShownStatus {
  return status === 'cancelled' && rejected ? 'rejected' : status;
}

/** A state in words: `pending approval`, `partially posted`. */
export function statusWords(status: string): string {
  return status.replaceAll('_', ' ');
}

/** A post with its shown state, and each account's (`rejected` for an item rejected). */
export type ShownPost = Omit<PostOut, 'accounts'> & {
  shown: ShownStatus;
  accounts: (PostOut['accounts'][number] & { shown: ShownStatus })[];
};

export interface ShownPage {
  data: ShownPost[];
  nextCursor: string | null;
  /** The page stopped looking before it filled: older posts may still match. */
  partial: boolean;
}

type Query = Omit<ListPostsInput, 'status' | 'limit' | 'cursor'> & { status?: ShownStatus };

/** The posts with their shown states; only the cancelled ones are asked about. */
export async function withShownStates(
  ctx: AppContext,
  companyId: string,
  posts: readonly PostOut[],
): Promise<ShownPost[]> {
  const cancelled = posts.filter((p) => p.status === 'cancelled').map((p) => p.postId);
  const rejected = await rejectedAccounts(ctx.db, companyId, cancelled);
  return posts.map((p) => {
    const accounts = rejected.get(p.postId);
    return {
      ...p,
      shown: shownStatus(p.status, accounts !== undefined),
      accounts: p.accounts.map((a) => ({
        ...a,
        shown: shownStatus(a.status, accounts?.has(a.accountId) ?? false),
      })),
    };
  });
}

/**
 * A page of the posts list under the dashboard's filters, each post with its shown state.
 * `rejected` and `cancelled` read the API's `cancelled` and keep the ones of their kind,
 * a page at a time, so every cursor handed on is one the API gave.
 */
export async function listShownPosts(
  ctx: AppContext,
  companyId: string,
  query: Query,
  limit: number,
  cursor?: string,
): Promise<ShownPage> {
  const { status, ...rest } = query;
  if (status !== 'rejected' && status !== 'cancelled') {
    const page = await listPosts(ctx, companyId, {
      ...rest,
      ...(status ? { status } : {}),
      limit,
      ...(cursor ? { cursor } : {}),
    });
    return {
      data: await withShownStates(ctx, companyId, page.data),
      nextCursor: page.nextCursor,
      partial: false,
    };
  }
  const wantRejected = status === 'rejected';
  const data: ShownPost[] = [];
  let next = cursor;
  let looked = 0;
  do {
    // Never more than the page still has room for: the API's cursor after this read is then
    // exactly where the next page starts.
    const page = await listPosts(ctx, companyId, {
      ...rest,
      status: 'cancelled',
      limit: limit - data.length,
      ...(next ? { cursor: next } : {}),
    });
    for (const p of await withShownStates(ctx, companyId, page.data)) {
      if ((p.shown === 'rejected') === wantRejected) data.push(p);
    }
    looked += page.data.length;
    next = page.nextCursor ?? undefined;
  } while (next && data.length < limit && looked < SCAN_BUDGET);
  return { data, nextCursor: next ?? null, partial: next !== undefined && data.length < limit };
}
