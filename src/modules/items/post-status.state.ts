// The derived status of posts (DECISIONS 2), refreshed by the item state machine
// (items.state.ts) in the transaction of every item change, with a post.status_changed
// event when it moved.
import type { DbOrTx } from '../../db/types.ts';
import { recordEvents, type NewEvent } from '../webhooks/index.ts';
import { statusChanged } from './item-events.view.ts';
import { derivePostStatus, type PostStatus } from './item-status.rules.ts';
import * as repo from './items.repository.ts';
import * as posts from './post-status.repository.ts';

/** Ids per `in (...)` list: far under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
export const IDS_PER_STATEMENT = 5000;

export function slices<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * Touching the post row first takes its lock (PostgreSQL), so the items are
 * read only after every other transaction refreshing this post has committed:
 * the last writer of `posts.status` has always seen every item change before
 * it. Releases, renders and cancels change items first and refresh last, so
 * they lock items before the post; edit and queue lock the post first but
 * change no item those hold (queue revives only failed or cancelled items),
 * so no two wait on each other in a cycle.
 */
export async function refreshPostStatus(
  tx: DbOrTx,
  postId: string,
  at: string,
): Promise<PostStatus> {
  const { status, events } = await refreshOne(tx, postId, at);
  await recordEvents(tx, events, at);
  return status;
}

/** refreshPostStatus, returning the post.status_changed event to record instead. */
export async function refreshOne(
  tx: DbOrTx,
  postId: string,
  at: string,
): Promise<{ status: PostStatus; events: NewEvent[] }> {
  const [stored] = await posts.touchPosts(tx, [postId], at);
  const status = derivePostStatus(await repo.statusesOfPosts(tx, [postId]));
  await posts.setStatus(tx, [postId], status, at);
  return { status, events: statusChanged(stored, status) };
}

/**
 * refreshPostStatus for many posts at once, in a fixed number of statements
 * per 5,000 posts: the posts are locked first in one statement (the lock
 * order of refreshPostStatus: callers change items first and refresh last),
 * then all their items are read in one select and the derived statuses
 * written with one update per distinct status. The lock is a `select ... order
 * by id for no key update` (the lock the touch of refreshPostStatus takes),
 * which takes the row locks in id order, so two transactions refreshing
 * overlapping sets of posts (two dispatchers) never wait on each other in a
 * cycle, and writes each post once. Returns each post's status.
 */
export async function refreshPostStatuses(
  tx: DbOrTx,
  postIds: Iterable<string>,
  at: string,
): Promise<Map<string, PostStatus>> {
  const { statuses, events } = await refreshMany(tx, postIds, at);
  await recordEvents(tx, events, at);
  return statuses;
}

/** refreshPostStatuses, returning the post.status_changed events to record instead. */
export async function refreshMany(
  tx: DbOrTx,
  postIds: Iterable<string>,
  at: string,
): Promise<{ statuses: Map<string, PostStatus>; events: NewEvent[] }> {
  const ids = [...new Set(postIds)].sort();
  const out = new Map<string, PostStatus>();
  const events: NewEvent[] = [];
  for (const part of slices(ids, IDS_PER_STATEMENT)) {
    const stored = await posts.lockPostsInOrder(tx, part);
    const storedById = new Map(stored.map((p) => [p.id, p]));
    const items = await repo.statusesOfPosts(tx, part);
    const byPost = new Map<string, { status: string }[]>(part.map((id) => [id, []]));
    for (const item of items) byPost.get(item.post_id)?.push(item);
    const byStatus = new Map<PostStatus, string[]>();
    for (const [postId, list] of byPost) {
      const status = derivePostStatus(list);
      out.set(postId, status);
      events.push(...statusChanged(storedById.get(postId), status));
      const group = byStatus.get(status);
      if (group) group.push(postId);
      else byStatus.set(status, [postId]);
    }
    for (const [status, group] of byStatus) await posts.setStatus(tx, group, status, at);
  }
  return { statuses: out, events };
}
