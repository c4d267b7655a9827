// Where each queued item is planned (SPEC 2.2 and 2.6 `scheduledSlotStart`; DECISIONS 5 and
// 7): the planner of schedule/windows.ts over an account's whole queue, its effective
// schedule and timezone, seeded with the releases of its current local day. The posts'
// answers, the account queues and the dashboard all plan through here, so they agree.
import type { Clock } from '../../lib/clock.ts';
import type { AccountsTable, Db } from '../../db/types.ts';
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
import * as items from '../items/index.ts';

/** A planning row as the planner takes it. */
export function toEntry(row: items.PlanningRow): QueueEntry {
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
