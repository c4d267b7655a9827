// The calendar's plan of a company: every account with its facts and its queued items at
// their planned slot starts (SPEC 2.6 scheduledSlotStart), worked out with the planner of
// schedule/windows.ts through module faces. What is read and planned is kept while the data
// is unchanged; after a write, each account's plan is kept while what it was planned from
// is (most writes change one account).
import type { AppContext } from '../../context.ts';
import type { AccountsTable } from '../../db/types.ts';
import { VersionedMemo } from '../../db/versioned-memo.ts';
import {
  effectiveSchedule,
  MAX_POSTS_PER_DAY,
  parseStoredWindows,
} from '../../schedule/schedule-rules.ts';
import {
  daySlots,
  localDateOf,
  localDayBounds,
  planSlots,
  postsToday,
  type QueueEntry,
} from '../../schedule/windows.ts';
import { notPlannedReason, listCompanyAccounts } from '../../modules/accounts/index.ts';
import { getCompanyRow } from '../../modules/companies/index.ts';
import {
  calendarQueued,
  calendarReleasedToday,
  calendarWaiting,
  type CalendarOpenRow,
  type CalendarTodayRow,
} from '../../modules/items/index.ts';
import { listWorkers } from '../../modules/workers/index.ts';
import type { CalendarAccount } from './calendar-model.ts';
import {
  byTime,
  type PlannedSlot,
  type AccountPlan,
  type CompanyPlan,
  MB,
  SizedStore,
} from './calendar-store.ts';

/** A queued item as the planner takes it, from its planning fields in one text. */
function queueEntry(item: string): QueueEntry {
  const [id, priority, queuedAt, approvedAt, scheduledAfter] = item.split(' ') as [
    string,
    string,
    string,
    string,
    string,
  ];
  const queued = Date.parse(queuedAt);
  return {
    id,
    priority: Number(priority),
    queuedAt: queued,
    readyAt: approvedAt ? Date.parse(approvedAt) : queued,
    scheduledAfter: scheduledAfter ? Date.parse(scheduledAfter) : null,
  };
}

function blockedReason(account: AccountsTable, today: number): string | null {
  const status = notPlannedReason(account.status);
  if (status === 'account_paused') return 'paused by the company';
  if (status === 'account_disconnected') return 'disconnected: its worker lost access';
  if (status === 'account_pending_setup') return 'waiting for its worker to set it up';
  if (today >= MAX_POSTS_PER_DAY) return `daily cap of ${MAX_POSTS_PER_DAY} reached today`;
  return null;
}

/**
 * What the calendar reads and works out, kept while the company's data is unchanged (the
 * database's data version); the plan also only within its minute, as slots start on whole
 * minutes. Pages of every period and timezone share them. Both stores are bounded by an
 * estimate of their size and emptied when full.
 */
const reads = new VersionedMemo<unknown>({
  maxEntries: 256,
  maxBytes: 32 * MB,
  sizeOf: (v) =>
    Array.isArray(v)
      ? v.reduce<number>(
          (n, r) => n + 200 + ((r as Partial<CalendarOpenRow>).items?.length ?? 0),
          0,
        )
      : v instanceof Map
        ? v.size * 80
        : 1024,
});
const plans = new VersionedMemo<CompanyPlan>({
  maxEntries: 64,
  maxBytes: 32 * MB,
  sizeOf: (p) => p.accounts.length * 500 + p.slots.length * 100,
});

export function keep<V>(ctx: AppContext, key: string, read: () => Promise<V>): Promise<V> {
  return reads.get(ctx.db, key, read) as Promise<V>;
}

/**
 * Each account's last plan with what it was worked out from: any write moves the data
 * version and so misses the stores above, but most writes change the queue of one account
 * at most, and a new minute changes no plan unless a slot started in it. So the planner runs
 * again only for an account whose inputs differ: its queued items, its releases of today,
 * its windows and timezone, and the slot open at the time planned at. The planner places
 * items at slot starts from the slot open at `now` on (schedule/windows.ts, decisions 3, 4
 * and 10), so the moment within that slot changes nothing. The inputs are compared whole,
 * so a plan kept is the plan the planner would give; the store is bounded like those above.
 */
interface KeptPlan {
  /** The timezone, the windows and the slot open when planned (slotPeriod). */
  basis: string;
  /** The queued items' planning fields (CalendarOpenRow.items), and as the planner takes them. */
  items: string;
  queue: QueueEntry[];
  /** Today's releases: each one's instant and readiness, in release order. */
  releases: string[];
  planned: PlannedSlot[];
}
const keptPlans = new SizedStore<KeptPlan>(
  32 * MB,
  (k) =>
    500 + k.items.length + k.queue.length * 80 + k.releases.length * 30 + k.planned.length * 100,
);

function sameReleases(kept: readonly string[], releases: readonly CalendarTodayRow[]): boolean {
  if (kept.length !== 2 * releases.length) return false;
  for (const [i, r] of releases.entries()) {
    if (kept[2 * i] !== r.released_at || kept[2 * i + 1] !== r.ready_at) return false;
  }
  return true;
}

/**
 * Where `now` falls in a day of these windows and timezone: the start of the slot open at
 * it, or its local date before the day's first slot opens.
 */
function slotPeriod(windows: readonly string[], timezone: string, now: Date): string {
  const localDate = localDateOf(now, timezone);
  let open = localDate;
  for (const s of daySlots(windows, timezone, localDate)) {
    if (s.start.getTime() <= now.getTime()) open = s.start.toISOString();
  }
  return `${timezone}|${windows.join(',')}|${open}`;
}

/**
 * The planned slots of one account's queued `items` at `now`, after today's `releases`: the
 * plan kept for it when nothing it depends on changed, else a new one.
 */
function planAccount(
  accountId: string,
  basis: string,
  windows: readonly string[],
  timezone: string,
  now: Date,
  items: string,
  releases: readonly CalendarTodayRow[],
): PlannedSlot[] {
  const kept = keptPlans.get(accountId);
  if (
    kept &&
    kept.basis === basis &&
    kept.items === items &&
    sameReleases(kept.releases, releases)
  ) {
    return kept.planned;
  }
  const released: string[] = [];
  const done = releases.map((r) => {
    released.push(r.released_at, r.ready_at);
    return { at: Date.parse(r.released_at), readyAt: Date.parse(r.ready_at) };
  });
  // A new slot or other windows plan the same items again: they are read once.
  const queue = kept?.items === items ? kept.queue : items.split(',').map(queueEntry);
  const planned: PlannedSlot[] = planSlots(queue, windows, timezone, now, done).map((p) => ({
    id: p.id,
    accountId,
    status: 'queued',
    at: p.scheduledSlotStart.getTime(),
    makeup: p.kind === 'makeup',
  }));
  keptPlans.set(accountId, { basis, items, queue, releases: released, planned });
  return planned;
}

/** Planned slots in time order (then id), and their instants for bisection. */
interface Timeline {
  /** Each account's planned slots the timeline holds, by account. */
  of: ReadonlyMap<string, readonly PlannedSlot[]>;
  slots: PlannedSlot[];
  ats: Float64Array;
}

/**
 * The last timeline of each company (and account shown alone): a new plan mostly keeps the
 * slots of all accounts but one, so its timeline is the last one without the slots of the
 * accounts planned anew, merged with theirs, rather than every slot sorted again.
 */
const timelines = new SizedStore<Timeline>(32 * MB, (t) => 500 + t.slots.length * 16);

function timelineOf(key: string, planned: ReadonlyMap<string, readonly PlannedSlot[]>): Timeline {
  const last = timelines.get(key);
  // The accounts planned anew since the last timeline, and their slots.
  const changed = new Set<string>();
  const added: PlannedSlot[] = [];
  for (const [accountId, list] of last?.of ?? []) {
    if (planned.get(accountId) !== list) changed.add(accountId);
  }
  for (const [accountId, list] of planned) {
    if (last?.of.get(accountId) === list) continue;
    changed.add(accountId);
    for (const p of list) added.push(p);
  }
  if (last && changed.size === 0) return last;
  // Each account's slots are in time order already: the sort merges them.
  added.sort(byTime);
  const kept = last?.slots ?? [];
  const slots = new Array<PlannedSlot>(kept.length + added.length);
  let n = 0;
  let j = 0;
  for (const p of kept) {
    if (changed.has(p.accountId)) continue;
    while (j < added.length && byTime(added[j] as PlannedSlot, p) < 0) {
      slots[n++] = added[j++] as PlannedSlot;
    }
    slots[n++] = p;
  }
  while (j < added.length) slots[n++] = added[j++] as PlannedSlot;
  slots.length = n;
  const ats = new Float64Array(n);
  for (let i = 0; i < n; i++) ats[i] = (slots[i] as PlannedSlot).at;
  const timeline = { of: planned, slots, ats };
  timelines.set(key, timeline);
  return timeline;
}

/** Every account of the company (or the one) with its facts and plan at the current minute. */
export function companyPlan(
  ctx: AppContext,
  companyId: string,
  only: string | undefined,
): Promise<CompanyPlan> {
  const minute = Math.floor(ctx.clock.now().getTime() / 60_000) * 60_000;
  return plans.get(ctx.db, `${companyId}|${only ?? ''}|${minute}`, () =>
    planAt(ctx, companyId, only, new Date(minute)),
  );
}

function periodOf(
  periods: Map<string, string>,
  windows: readonly string[],
  timezone: string,
  now: Date,
): string {
  const key = `${timezone}|${windows.join(',')}`;
  let period = periods.get(key);
  if (period === undefined) {
    period = slotPeriod(windows, timezone, now);
    periods.set(key, period);
  }
  return period;
}

const byName = (a: CalendarAccount, b: CalendarAccount) =>
  (a.username < b.username ? -1 : a.username > b.username ? 1 : 0) ||
  (a.platform < b.platform ? -1 : a.platform > b.platform ? 1 : 0);

async function planAt(
  ctx: AppContext,
  companyId: string,
  only: string | undefined,
  now: Date,
): Promise<CompanyPlan> {
  const nowMs = now.getTime();
  const scope = `${companyId}|${only ?? ''}`;
  const [accounts, company, workers, open, pendingOf] = await Promise.all([
    listCompanyAccounts(ctx.db, companyId),
    getCompanyRow(ctx.db, companyId),
    listWorkers(ctx.db),
    keep(ctx, `queued|${scope}`, () => calendarQueued(ctx.db, companyId, only)),
    keep(ctx, `waiting|${scope}`, () => calendarWaiting(ctx.db, companyId, only)),
  ]);
  // Each account's today, worked out once per timezone (accounts mostly share a few), and
  // the releases of all of them read at once.
  const todays = new Map<string, { start: string; end: string }>();
  let first = '';
  let last = '';
  for (const account of accounts) {
    const tz = account.timezone;
    if (todays.has(tz)) continue;
    const bounds = localDayBounds(localDateOf(now, tz), tz);
    const today = { start: bounds.start.toISOString(), end: bounds.end.toISOString() };
    todays.set(tz, today);
    if (first === '' || today.start < first) first = today.start;
    if (today.end > last) last = today.end;
  }
  const recent =
    todays.size === 0
      ? []
      : await keep(ctx, `today|${scope}|${first}|${last}`, () =>
          calendarReleasedToday(ctx.db, companyId, first, last, only),
        );
  const workerName = new Map(workers.map((w) => [w.workerId, w.name]));
  const openOf = new Map(open.map((r) => [r.account_id, r.items]));
  const recentOf = new Map<string, CalendarTodayRow[]>();
  for (const r of recent) {
    const list = recentOf.get(r.account_id);
    if (list) list.push(r);
    else recentOf.set(r.account_id, [r]);
  }
  const companyWindows = parseStoredWindows(company?.schedule_windows ?? null);
  // Accounts mostly share a few timezones and windows: where now falls is found once each.
  const periods = new Map<string, string>();
  const plans: AccountPlan[] = [];
  const planned = new Map<string, readonly PlannedSlot[]>();
  for (const account of accounts) {
    const shown = only === undefined || only === account.id;
    const accountTz = account.timezone;
    const { start, end } = todays.get(accountTz) as { start: string; end: string };
    // Instants as stored compare as text, in time order (as the read compared them).
    const releasedToday = (recentOf.get(account.id) ?? []).filter(
      (r) => r.released_at >= start && r.released_at < end,
    );
    const count =
      releasedToday.length === 0
        ? 0
        : postsToday(
            releasedToday.map((r) => Date.parse(r.released_at)),
            accountTz,
            now,
          );
    const blocked = blockedReason(account, count);
    const { windows } = effectiveSchedule(
      parseStoredWindows(account.schedule_windows),
      companyWindows,
    );
    const items = openOf.get(account.id);
    // Nothing is planned for an account that gets nothing (a daily cap only moves it on).
    const slots =
      !shown || items === undefined || (blocked !== null && !blocked.startsWith('daily cap'))
        ? []
        : planAccount(
            account.id,
            periodOf(periods, windows, accountTz, now),
            windows,
            accountTz,
            now,
            items,
            releasedToday,
          );
    if (slots.length > 0) planned.set(account.id, slots);
    plans.push({
      summary: {
        accountId: account.id,
        username: account.username,
        platform: account.platform,
        timezone: accountTz,
        status: account.status,
        workerName: account.worker_id ? (workerName.get(account.worker_id) ?? null) : null,
        postsToday: count,
        waiting: pendingOf.get(account.id) ?? 0,
        blocked,
      },
      timezone: accountTz,
      windows,
      planned: slots,
    });
  }
  const { slots, ats } = timelineOf(scope, planned);
  return {
    accounts: plans,
    sorted: plans.map((a) => a.summary).sort(byName),
    slots,
    ats,
    now: nowMs,
  };
}
