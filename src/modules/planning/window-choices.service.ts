// Choosing the window of an item (the dashboard's composer, post page and calendar): each
// account's coming windows as the planner sees them, where a new item would go, and moving
// an item to another window by its earliest-release floor (SPEC 2.2 `scheduledAfter`). The
// planner is the same as for `scheduledSlotStart` (plannedSlotStarts), so what is chosen
// here is what the API then shows.
import type { AppContext } from '../../context.ts';
import type { AccountsTable } from '../../db/types.ts';
import { VersionedMemo } from '../../db/versioned-memo.ts';
import { effectiveSchedule, parseStoredWindows } from '../../schedule/schedule-rules.ts';
import {
  checkMove,
  plannedStartOf,
  windowChoices,
  type MoveRefusal,
  type WindowChoice,
} from '../../schedule/window-choices.ts';
import {
  effectiveReadyAt,
  localDateOf,
  localDayBounds,
  type QueueEntry,
  type ReleaseRecord,
} from '../../schedule/windows.ts';
import type { Actor } from '../activity/index.ts';
import {
  getAccountRow,
  listCompanyAccounts,
  notPlannedReason,
  type NotPlannedReason,
} from '../accounts/index.ts';
import { getCompanyRow } from '../companies/index.ts';
import * as items from '../items/index.ts';
import { toEntry } from './planning.service.ts';

/** Days of windows shown from today on. */
export const CHOICE_DAYS = 14;

/** What the planner of one account works from at `now`. */
export interface PlanBasis {
  queue: QueueEntry[];
  windows: string[];
  timezone: string;
  now: Date;
  releasedToday: ReleaseRecord[];
}

export interface AccountWindows {
  account: AccountsTable;
  /** Why the account receives no releases now (paused, disconnected, not set up); null if it does. */
  blocked: NotPlannedReason | null;
  basis: PlanBasis;
  /** Every window start of the coming days after now, with what is planned in it. */
  choices: WindowChoice[];
}

/**
 * Each account's windows, kept while the data is unchanged and within the minute (slots start
 * on whole minutes), by company, account and the item left out: the composer asks again at
 * each change of its accounts, and most of them were planned a moment ago.
 */
const kept = new VersionedMemo<AccountWindows>({
  maxEntries: 2000,
  maxBytes: 32 * 1024 * 1024,
  sizeOf: (w) => 1000 + w.basis.queue.length * 200 + w.choices.length * 100,
});

/**
 * The coming windows of each of the company's accounts among `accountIds` (others are left
 * out), in the order given, read with two queries whatever their number (none for those
 * kept from a moment ago).
 */
export async function accountWindows(
  ctx: AppContext,
  companyId: string,
  accountIds: readonly string[],
  exclude?: string,
): Promise<AccountWindows[]> {
  if (accountIds.length === 0) return [];
  const now = ctx.clock.now();
  const minute = Math.floor(now.getTime() / 60_000);
  const keyOf = (accountId: string) => `${companyId}|${accountId}|${minute}|${exclude ?? ''}`;
  const [all, company] = await Promise.all([
    listCompanyAccounts(ctx.db, companyId),
    getCompanyRow(ctx.db, companyId),
  ]);
  const byId = new Map(all.map((a) => [a.id, a]));
  const accounts = [...new Set(accountIds)].flatMap((id) => byId.get(id) ?? []);
  if (accounts.length === 0) return [];
  const found = new Map<string, AccountWindows>();
  for (const a of accounts) {
    const hit = kept.peek(ctx.db, keyOf(a.id));
    if (hit) found.set(a.id, hit);
  }
  const missing = accounts.filter((a) => !found.has(a.id));
  if (missing.length > 0) {
    const planned = planAccounts(
      ctx,
      companyId,
      missing,
      company?.schedule_windows ?? null,
      now,
      exclude,
    );
    for (const a of missing) {
      found.set(
        a.id,
        await kept.compute(
          ctx.db,
          keyOf(a.id),
          async () => (await planned).get(a.id) as AccountWindows,
        ),
      );
    }
  }
  return accountIds.flatMap((id) => found.get(id) ?? []);
}

/** The windows of the accounts, planned from their queues and today's releases (two queries). */
async function planAccounts(
  ctx: AppContext,
  companyId: string,
  accounts: readonly AccountsTable[],
  companySchedule: string | null,
  now: Date,
  exclude: string | undefined,
): Promise<Map<string, AccountWindows>> {
  // Each account's today, and one range of releases that covers all of them.
  const days = new Map<string, { start: string; end: string }>();
  let from = '';
  let to = '';
  for (const a of accounts) {
    if (days.has(a.timezone)) continue;
    const b = localDayBounds(localDateOf(now, a.timezone), a.timezone);
    const day = { start: b.start.toISOString(), end: b.end.toISOString() };
    days.set(a.timezone, day);
    if (from === '' || day.start < from) from = day.start;
    if (day.end > to) to = day.end;
  }
  const planning = await items.planningOfAccounts(
    ctx.db,
    companyId,
    accounts.map((a) => a.id),
    from,
    to,
  );
  const queued = group(planning.queued);
  const released = group(planning.released);
  const companyWindows = parseStoredWindows(companySchedule);
  const out = new Map<string, AccountWindows>();
  for (const account of accounts) {
    const day = days.get(account.timezone) as { start: string; end: string };
    const { windows } = effectiveSchedule(
      parseStoredWindows(account.schedule_windows),
      companyWindows,
    );
    const releasedToday: ReleaseRecord[] = (released.get(account.id) ?? [])
      .filter((r) => (r.released_at as string) >= day.start && (r.released_at as string) < day.end)
      .map((r) => ({
        at: Date.parse(r.released_at as string),
        readyAt: effectiveReadyAt(toEntry(r)),
      }));
    const basis: PlanBasis = {
      queue: (queued.get(account.id) ?? []).map(toEntry),
      windows,
      timezone: account.timezone,
      now,
      releasedToday,
    };
    out.set(account.id, {
      account,
      blocked: notPlannedReason(account.status),
      basis,
      choices: windowChoices({ ...basis, exclude, days: CHOICE_DAYS }),
    });
  }
  return out;
}

function group(rows: items.AccountPlanningRow[]): Map<string, items.AccountPlanningRow[]> {
  const out = new Map<string, items.AccountPlanningRow[]>();
  for (const r of rows) {
    const list = out.get(r.account_id);
    if (list) list.push(r);
    else out.set(r.account_id, [r]);
  }
  return out;
}

/**
 * Where a new item of `priority` with earliest-release floor `floor` (null: the next free
 * window) goes among the account's queue if it is ready now (created without approval, or
 * approved at once): its planned window start, or null when none is planned.
 */
export function plannedStartFor(basis: PlanBasis, floor: Date | null, priority = 0): Date | null {
  return plannedStartOf(basis, {
    id: '\u0000new',
    priority,
    queuedAt: basis.now,
    readyAt: basis.now,
    scheduledAfter: floor,
  });
}

export type MoveResult =
  | { outcome: 'moved'; accountId: string; postId: string }
  | { outcome: 'not_found' }
  | { outcome: 'released' }
  | {
      outcome: 'refused';
      reason: MoveRefusal;
      accountId: string;
      postId: string;
      /** The item planned in the window asked for, when it is taken. */
      takenBy?: { itemId: string; postId: string };
    };

/**
 * Moves the company's item to the window starting at `at` (null: back to the next free
 * window) when that window is one of its account's, still ahead, free and under the day's
 * cap (schedule/window-choices.ts says why a free window then holds the item).
 */
export async function moveItemToWindow(
  ctx: AppContext,
  companyId: string,
  itemId: string,
  at: Date | null,
  actor: Actor,
): Promise<MoveResult> {
  const place = (await items.itemPlaces(ctx.db, companyId, [itemId])).get(itemId);
  if (!place) return { outcome: 'not_found' };
  if (at !== null) {
    const account = await getAccountRow(ctx.db, companyId, place.accountId);
    // Read afresh, not from what is kept: a move checks the queue as it is now.
    const company = await getCompanyRow(ctx.db, companyId);
    const windows = (
      await planAccounts(
        ctx,
        companyId,
        [account],
        company?.schedule_windows ?? null,
        ctx.clock.now(),
        itemId,
      )
    ).get(account.id);
    const check = checkMove({ ...(windows as AccountWindows).basis, exclude: itemId }, at);
    if (!check.ok) {
      const refused: MoveResult = { outcome: 'refused', reason: check.reason, ...place };
      const by = check.choice?.takenBy;
      if (by !== undefined) {
        const other = (await items.itemPlaces(ctx.db, companyId, [by])).get(by);
        if (other) refused.takenBy = { itemId: by, postId: other.postId };
      }
      return refused;
    }
  }
  const outcome = await items.setReleaseFloor(ctx.db, ctx.clock, companyId, itemId, at, actor);
  if (outcome === 'not_found') return { outcome: 'not_found' };
  if (outcome === 'released') return { outcome: 'released' };
  return { outcome: 'moved', ...place };
}

export type { MoveRefusal, WindowChoice } from '../../schedule/window-choices.ts';
