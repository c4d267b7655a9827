// The queue of one publishing account (SPEC 2.6, 4.4; DECISIONS 5 and 7): its items that are
// not final, in release order, with the planned window start of every `queued` item.
import type { AppContext } from '../../context.ts';
import { cursorScope } from '../../lib/cursor.ts';
import { getAccountRow, notPlannedReason } from '../accounts/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import { postThumbnailUrl, readyThumbnails } from '../posts/index.ts';
import type { QueueItemOut, QueueQueryInput } from './queue.schemas.ts';
import * as items from '../items/index.ts';
import { plannedSlotStarts } from '../planning/index.ts';

/**
 * One page of the account's open items. Order: `posting` items first (already released), then
 * release order: priority desc, queuedAt asc, id asc. The cursor holds the last item's
 * (rank, priority, queuedAt, id); an item that changes status between pages may be skipped or
 * seen twice, as in any keyset list of live data.
 */
export async function listAccountQueue(
  ctx: AppContext,
  companyId: string,
  accountId: string,
  query: QueueQueryInput,
): Promise<{ data: QueueItemOut[]; nextCursor: string | null }> {
  const now = ctx.clock.now();
  const limit = query.limit ?? 25;
  const scope = cursorScope(companyId, 'account-queue', { accountId });
  const [account, company] = await Promise.all([
    getAccountRow(ctx.db, companyId, accountId),
    getCompanyRow(ctx.db, companyId),
  ]);
  const after = query.cursor
    ? (ctx.cursors.decode(scope, query.cursor, now, 4) as items.QueueKey)
    : undefined;
  const rows = await items.pageQueue(ctx.db, companyId, account.id, { after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  // DECISIONS 7: an account that receives no releases has no planned windows, and says why.
  const blocked = notPlannedReason(account.status);
  const [ready, slots] = await Promise.all([
    readyThumbnails(ctx, page),
    blocked === null && page.some((r) => r.status === 'queued')
      ? plannedSlotStarts(ctx.db, account, company?.schedule_windows ?? null, now)
      : Promise.resolve(new Map<string, string>()),
  ]);
  const data = page.map((r) => {
    const item: QueueItemOut = {
      postId: r.post_id,
      queueItemId: r.id,
      status: r.status as QueueItemOut['status'],
      caption: r.caption ?? '',
      queuedAt: r.queued_at,
    };
    const thumbnailUrl = postThumbnailUrl(
      ctx,
      {
        id: r.post_id,
        carousel: Boolean(r.carousel),
        thumbnail_key: r.thumbnail_key,
        thumbnail_upload_id: r.thumbnail_upload_id,
      },
      r.thumbnail_upload_id !== null && ready.has(r.thumbnail_upload_id),
    );
    if (thumbnailUrl !== null) item.thumbnailUrl = thumbnailUrl;
    if (r.scheduled_after !== null) item.scheduledAfter = r.scheduled_after;
    const slot = r.status === 'queued' ? slots.get(r.id) : undefined;
    if (slot !== undefined) item.scheduledSlotStart = slot;
    if (blocked !== null && r.status === 'queued') item.notPlannedReason = blocked;
    return item;
  });
  const last = page[page.length - 1];
  const key = (r: items.QueueRow): items.QueueKey => [
    r.status === 'posting' ? 0 : 1,
    r.priority,
    r.queued_at,
    r.id,
  ];
  return {
    data,
    nextCursor: rows.length > limit && last ? ctx.cursors.encode(scope, key(last), now) : null,
  };
}
