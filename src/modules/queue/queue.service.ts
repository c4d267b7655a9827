// The queue of one publishing account (SPEC 2.6, 4.4; DECISIONS 5 and 7): its items that are
// not final, in release order, with the planned window start of every `queued` item.
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import type { AccountsTable } from '../../db/types.ts';
import { cursorScope } from '../../lib/cursor.ts';
import { effectiveSchedule, parseStoredWindows } from '../../schedule/schedule-rules.ts';
import {
  effectiveReadyAt,
  localDateOf,
  localDayBounds,
  planSlots,
  type QueueEntry,
  type ReleaseRecord,
} from '../../schedule/windows.ts';
import { getAccountRow, notPlannedReason } from '../accounts/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import { postThumbnailUrl, readyThumbnails } from '../posts/index.ts';
import type { QueueItemOut, QueueQueryInput } from './queue.schemas.ts';
import * as items from '../items/index.ts';

function toEntry(row: items.PlanningRow): QueueEntry {
  return {
    id: row.id,
    priority: row.priority,
    queuedAt: Date.parse(row.queued_at),
    // An item that needed approval became ready when it was approved (release-order.ts).
    readyAt: Date.parse(row.approved_at ?? row.queued_at),
    scheduledAfter: row.scheduled_after === null ? null : Date.parse(row.scheduled_after),
  };
}

/**
 * SPEC 2.6 `scheduledSlotStart` of every `queued` item of the account, by queue item id:
 * planSlots over the whole queue with the account's effective schedule and timezone, seeded
 * with the releases of its current local day so used and missed windows count (windows.ts
 * decision 10).
 */
export async function plannedSlotStarts(
  db: Db,
  account: AccountsTable,
  companyScheduleJson: string | null,
  now: Date,
): Promise<Map<string, string>> {
  const { windows } = effectiveSchedule(
    parseStoredWindows(account.schedule_windows),
    parseStoredWindows(companyScheduleJson),
  );
  const day = localDayBounds(localDateOf(now, account.timezone), account.timezone);
  const [queued, released] = await Promise.all([
    items.queuedItems(db, account.company_id, account.id),
    items.releasedBetween(
      db,
      account.company_id,
      account.id,
      day.start.toISOString(),
      day.end.toISOString(),
    ),
  ]);
  const out = new Map<string, string>();
  if (queued.length === 0) return out;
  const releases: ReleaseRecord[] = released.map((r) => ({
    at: Date.parse(r.released_at as string),
    readyAt: effectiveReadyAt(toEntry(r)),
  }));
  const plan = planSlots(queued.map(toEntry), windows, account.timezone, now, releases);
  for (const p of plan) out.set(p.id, p.scheduledSlotStart.toISOString());
  return out;
}

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

/**
 * SPEC 2.2 `scheduledSlotStart` of the post's `queued` items, by account id: each account's
 * plan over its whole queue (plannedSlotStarts), for the accounts that receive releases.
 */
export async function plannedSlotsOfPost(
  db: Db,
  clock: Clock,
  companyId: string,
  postId: string,
): Promise<Map<string, string>> {
  const now = clock.now();
  const queued = (await items.itemsOfPost(db, companyId, postId)).filter(
    (i) => i.status === 'queued',
  );
  const out = new Map<string, string>();
  if (queued.length === 0) return out;
  const company = await getCompanyRow(db, companyId);
  for (const item of queued) {
    const account = await getAccountRow(db, companyId, item.account_id);
    if (notPlannedReason(account.status) !== null) continue;
    const slots = await plannedSlotStarts(db, account, company?.schedule_windows ?? null, now);
    const slot = slots.get(item.id);
    if (slot !== undefined) out.set(item.account_id, slot);
  }
  return out;
}
