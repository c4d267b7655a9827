// Queue-item statuses and the post statuses derived from them (DECISIONS 2). A post's
// status is derived from its items; the posts table keeps a copy refreshed in the same
// transaction as every item change (items.state.ts), so lists can filter on it.

import type { ItemStatus, PostStatus } from '../../schemas/statuses.ts';

export { ITEM_STATUSES, POST_STATUSES } from '../../schemas/statuses.ts';
export type { ItemStatus, PostStatus } from '../../schemas/statuses.ts';

const FINAL: ReadonlySet<string> = new Set(['posted', 'failed', 'cancelled']);
/** Least advanced first: the order rule 5 picks from. */
const OPEN_ORDER: readonly ItemStatus[] = ['processing', 'pending_approval', 'queued'];

export function isFinal(status: string): boolean {
  return FINAL.has(status);
}

/** DECISIONS 2, rules 1-6 in order. */
export function derivePostStatus(items: readonly { status: string }[]): PostStatus {
  if (items.length === 0) return 'draft';
  const statuses = items.map((i) => i.status);
  if (statuses.includes('posting')) return 'posting';
  const first = statuses[0] as string;
  if (statuses.every((s) => s === first)) return first as PostStatus;
  if (statuses.includes('posted') && statuses.every((s) => FINAL.has(s))) return 'partially_posted';
  for (const s of OPEN_ORDER) if (statuses.includes(s)) return s;
  return 'failed';
}

/**
 * Metadata may change while no item has reached `posting` (DECISIONS 2): an
 * item posting, posted, or failed after its release blocks edits.
 */
export function isEditable(
  items: readonly { status: string; released_at?: string | null }[],
): boolean {
  return !items.some(
    (i) => i.status === 'posting' || i.status === 'posted' || (i.released_at ?? null) !== null,
  );
}

/** A post with any posted item is "already published". */
export function isPublished(items: readonly { status: string }[]): boolean {
  return items.some((i) => i.status === 'posted');
}

/** Item statuses that may still be cancelled (DECISIONS 2). */
export const CANCELLABLE: readonly ItemStatus[] = ['processing', 'pending_approval', 'queued'];

/** Items that may still be cancelled (DECISIONS 2: from processing, pending_approval, queued). */
export function isCancellable(status: string): boolean {
  return (CANCELLABLE as readonly string[]).includes(status);
}

/** The status a new item starts in, or moves to once its media is ready. */
export function openingStatus(mediaReady: boolean, skipApproval: boolean): ItemStatus {
  if (!mediaReady) return 'processing';
  return skipApproval ? 'queued' : 'pending_approval';
}
