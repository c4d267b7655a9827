// The release dispatcher (DECISIONS 5): at each due window of an account, in its
// worker's timezone, the next queued item goes to `posting`. Exactly once, even
// with several dispatchers on one PostgreSQL database: a release is a row keyed
// by (account, local date, slot), written in the same transaction as the item's
// conditional move from `queued`, so a slot or an item can only be taken once.
// Time comes from the caller; tests step a fake clock.
import type { AppContext } from '../context.ts';
import type { DbOrTx } from '../db/types.ts';
import { isRetryableConflict } from '../db/errors.ts';
import { releaseToSlots, queuedOfAccountsIn, releasesSince } from '../modules/items/index.ts';
import { RELEASABLE_STATUSES, holdReleasable, releaseTargets } from '../modules/accounts/index.ts';
import { effectiveSchedule, parseStoredWindows } from '../schedule/schedule-rules.ts';
import { decideRelease, oldestReadyAt, pickNext, type QueueEntry } from '../schedule/windows.ts';
import { pushReleasedTasks } from './release-push.ts';

/** Releases of the last two days cover every local day a timezone can be in. */
const HISTORY_MS = 2 * 24 * 60 * 60 * 1000;
/**
 * Releases written per transaction. A release row binds 8 parameters, so a
 * chunk's insert binds 8,000: under SQLite's 32,766 and PostgreSQL's 65,535.
 */
const CHUNK = 1000;
/** Accounts per read of accounts and past releases (one parameter each). */
const READ_CHUNK = 5000;
/** Tries of a chunk's transaction that PostgreSQL aborted as a deadlock. */
const ATTEMPTS = 3;

interface Candidate extends QueueEntry {
  postId: string;
}

interface PlannedRelease {
  accountId: string;
  companyId: string;
  itemId: string;
  postId: string;
  localDate: string;
  slotLabel: string;
  slotKind: string;
  slotStart: string;
  readyAt: string;
  /** When the release became due: its slot opened, or the item became ready after that. */
  dueAt: number;
}

export interface DispatchResult {
  /** Accounts with queued items that were considered (those that receive releases). */
  accounts: number;
  released: number;
  /** Per release, seconds from when it became due until this pass released it. */
  lagSeconds: number[];
}

/** Decides, per account with queued items, what is due at `now` (pure over the loaded rows). */
async function plan(db: DbOrTx, now: Date): Promise<{ accounts: number; due: PlannedRelease[] }> {
  // Only accounts that receive releases (DECISIONS 7): the items of accounts in
  // `pending_setup`, `paused` or `disconnected` stay `queued`, in their order, and are not
  // even read, so blocked accounts cost a pass nothing.
  const items = await queuedOfAccountsIn(db, RELEASABLE_STATUSES);
  if (items.length === 0) return { accounts: 0, due: [] };
  const byAccount = new Map<string, Candidate[]>();
  for (const i of items) {
    const list = byAccount.get(i.account_id) ?? [];
    if (list.length === 0) byAccount.set(i.account_id, list);
    list.push({
      id: i.id,
      postId: i.post_id,
      priority: i.priority,
      queuedAt: Date.parse(i.queued_at),
      readyAt: Date.parse(i.approved_at ?? i.queued_at),
      ...(i.scheduled_after ? { scheduledAfter: Date.parse(i.scheduled_after) } : {}),
    });
  }
  const accountIds = [...byAccount.keys()];
  const accounts = new Map<
    string,
    { timezone: string; schedule: string | null; companyId: string }
  >();
  const companies = new Map<string, string | null>();
  const history = new Map<string, { at: number; readyAt: number }[]>();
  const since = new Date(now.getTime() - HISTORY_MS).toISOString();
  for (let i = 0; i < accountIds.length; i += READ_CHUNK) {
    const ids = accountIds.slice(i, i + READ_CHUNK);
    // Paused or disconnected since the items were read: released next pass at the earliest.
    for (const r of await releaseTargets(db, ids)) {
      accounts.set(r.accountId, {
        timezone: r.timezone,
        schedule: r.schedule,
        companyId: r.companyId,
      });
      companies.set(r.companyId, r.companySchedule);
    }
    for (const r of await releasesSince(db, ids, since)) {
      const list = history.get(r.account_id) ?? [];
      if (list.length === 0) history.set(r.account_id, list);
      list.push({ at: Date.parse(r.released_at), readyAt: Date.parse(r.ready_at) });
    }
  }
  const due: PlannedRelease[] = [];
  for (const [accountId, queue] of byAccount) {
    const account = accounts.get(accountId);
    if (!account) continue;
    const { windows } = effectiveSchedule(
      parseStoredWindows(account.schedule),
      parseStoredWindows(companies.get(account.companyId) ?? null),
    );
    const decision = decideRelease({
      windows,
      timezone: account.timezone,
      releases: history.get(accountId) ?? [],
      oldestReadyAt: oldestReadyAt(queue),
      now,
    });
    if (!decision.due) continue;
    const next = pickNext(queue, decision.cutoff);
    if (!next) continue;
    due.push({
      accountId,
      companyId: account.companyId,
      itemId: next.id,
      postId: next.postId,
      localDate: decision.slot.localDate,
      slotLabel: decision.slot.label,
      slotKind: decision.slot.kind,
      slotStart: decision.slot.start.toISOString(),
      readyAt: new Date(next.readyAt ?? next.queuedAt).toISOString(),
      dueAt: Math.max(
        new Date(decision.cutoff).getTime(),
        new Date(next.readyAt ?? next.queuedAt).getTime(),
      ),
    });
  }
  return { accounts: byAccount.size, due };
}

/**
 * Writes one chunk of planned releases in one transaction, in a fixed number of
 * statements (releaseToSlots): the release rows in one insert, where the primary key
 * (account, local date, slot) and the unique item id decide which this process takes;
 * the taken items' move to `posting` with their posts' statuses; and the slots of items
 * that left `queued` since they were planned given back. Returns the ids of the items
 * released.
 */
async function releaseChunk(
  ctx: AppContext,
  chunk: readonly PlannedRelease[],
  at: string,
): Promise<Set<string>> {
  return ctx.db.transaction().execute(async (tx) => {
    const moved = await releaseToSlots(
      tx,
      chunk.map((r) => ({
        account_id: r.accountId,
        local_date: r.localDate,
        slot_label: r.slotLabel,
        company_id: r.companyId,
        queue_item_id: r.itemId,
        slot_kind: r.slotKind,
        slot_start: r.slotStart,
        ready_at: r.readyAt,
        released_at: at,
      })),
      at,
    );
    await checkStillReleasable(tx, chunk, moved);
    const done = new Set(moved.map((m) => m.id));
    await pushReleasedTasks(
      tx,
      chunk.filter((r) => done.has(r.itemId)),
      new Date(at),
      ctx.config.taskReportTimeoutMs,
    );
    return done;
  });
}

/** Accounts paused or disconnected while their chunk was being released. */
class AccountsBlocked extends Error {
  constructor(readonly accountIds: ReadonlySet<string>) {
    super('accounts stopped receiving releases during the pass');
  }
}

/**
 * Throws AccountsBlocked (rolling the chunk back) when an account paused or disconnected
 * since the plan would get a release (DECISIONS 7). The share lock makes a
 * concurrent status change (which locks the row for update) wait for this commit, so a pause
 * answered to the company is never followed by a release. It is taken last, after the posts
 * and items, the order in which a worker's report locks them too, so the two never deadlock.
 */
async function checkStillReleasable(
  tx: DbOrTx,
  chunk: readonly PlannedRelease[],
  moved: readonly { id: string }[],
): Promise<void> {
  if (moved.length === 0) return;
  const done = new Set(moved.map((m) => m.id));
  const accountIds = [...new Set(chunk.filter((r) => done.has(r.itemId)).map((r) => r.accountId))];
  const open = new Set(await holdReleasable(tx, accountIds));
  if (open.size < accountIds.length) {
    throw new AccountsBlocked(new Set(accountIds.filter((id) => !open.has(id))));
  }
}

function byAccount(a: PlannedRelease, b: PlannedRelease): number {
  return a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0;
}

/**
 * Releases everything due at `now`; safe to run in several processes at once.
 * Every process writes its releases in account order, so two dispatchers
 * waiting on each other's release rows always wait the same way round, never
 * in a cycle; a deadlock PostgreSQL still reports (with another writer of the
 * same posts) rolls the chunk back, and it is tried again.
 */
export async function releaseDue(ctx: AppContext, now: Date): Promise<DispatchResult> {
  const { accounts, due } = await plan(ctx.db, now);
  due.sort(byAccount);
  const at = now.toISOString();
  let released = 0;
  const lagSeconds: number[] = [];
  for (let i = 0; i < due.length; i += CHUNK) {
    let chunk = due.slice(i, i + CHUNK);
    for (let attempt = 1; chunk.length > 0;) {
      try {
        const moved = await releaseChunk(ctx, chunk, at);
        released += moved.size;
        for (const r of chunk) {
          if (moved.has(r.itemId)) lagSeconds.push(Math.max(0, now.getTime() - r.dueAt) / 1000);
        }
        break;
      } catch (err) {
        if (err instanceof AccountsBlocked) {
          // Again without them; the chunk shrinks every time, so this ends.
          chunk = chunk.filter((r) => !err.accountIds.has(r.accountId));
          continue;
        }
        if (!isRetryableConflict(err) || attempt++ >= ATTEMPTS) throw err;
      }
    }
  }
  return { accounts, released, lagSeconds };
}
