// The release dispatcher (DECISIONS 5): at each due window of an account, in its
// worker's timezone, the next queued item goes to `posting`. Exactly once, even
// with several dispatchers on one PostgreSQL database: a release is a row keyed
// by (account, local date, slot), written in the same transaction as the item's
// conditional move from `queued`, so a slot or an item can only be taken once.
// Time comes from the caller; tests step a fake clock.
import type { AppContext } from '../context.ts';
import type { DbOrTx } from '../db/types.ts';
import { refreshPostStatus } from '../modules/posts/posts.state.ts';
import { effectiveSchedule, parseStoredWindows } from './schedule-rules.ts';
import { decideRelease, oldestReadyAt, pickNext, type QueueEntry } from './windows.ts';

/** Releases of the last two days cover every local day a timezone can be in. */
const HISTORY_MS = 2 * 24 * 60 * 60 * 1000;
/** Releases written per transaction. */
const CHUNK = 500;

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
  readyAt: string;
}

export interface DispatchResult {
  /** Accounts with queued items that were considered. */
  accounts: number;
  released: number;
}

/** Decides, per account with queued items, what is due at `now` (pure over the loaded rows). */
async function plan(db: DbOrTx, now: Date): Promise<{ accounts: number; due: PlannedRelease[] }> {
  const items = await db
    .selectFrom('queue_items')
    .select([
      'id',
      'account_id',
      'company_id',
      'post_id',
      'priority',
      'queued_at',
      'approved_at',
      'scheduled_after',
    ])
    .where('status', '=', 'queued')
    .execute();
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
  for (let i = 0; i < accountIds.length; i += CHUNK) {
    const ids = accountIds.slice(i, i + CHUNK);
    const rows = await db
      .selectFrom('accounts')
      .innerJoin('companies', 'companies.id', 'accounts.company_id')
      .select([
        'accounts.id',
        'accounts.timezone',
        'accounts.schedule_windows',
        'accounts.company_id',
        'companies.schedule_windows as company_schedule',
      ])
      .where('accounts.id', 'in', ids)
      .execute();
    for (const r of rows) {
      accounts.set(r.id, {
        timezone: r.timezone,
        schedule: r.schedule_windows,
        companyId: r.company_id,
      });
      companies.set(r.company_id, r.company_schedule);
    }
    const past = await db
      .selectFrom('releases')
      .select(['account_id', 'released_at', 'ready_at'])
      .where('account_id', 'in', ids)
      .where('released_at', '>=', since)
      .execute();
    for (const r of past) {
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
      readyAt: new Date(next.readyAt ?? next.queuedAt).toISOString(),
    });
  }
  return { accounts: byAccount.size, due };
}

/** Releases everything due at `now`; safe to run in several processes at once. */
export async function releaseDue(ctx: AppContext, now: Date): Promise<DispatchResult> {
  const { accounts, due } = await plan(ctx.db, now);
  const at = now.toISOString();
  let released = 0;
  for (let i = 0; i < due.length; i += CHUNK) {
    const chunk = due.slice(i, i + CHUNK);
    released += await ctx.db.transaction().execute(async (tx) => {
      let n = 0;
      const posts = new Set<string>();
      for (const r of chunk) {
        const slot = await tx
          .insertInto('releases')
          .values({
            account_id: r.accountId,
            local_date: r.localDate,
            slot_label: r.slotLabel,
            company_id: r.companyId,
            queue_item_id: r.itemId,
            slot_kind: r.slotKind,
            ready_at: r.readyAt,
            released_at: at,
          })
          .onConflict((oc) => oc.doNothing())
          .returning('account_id')
          .executeTakeFirst();
        if (!slot) continue; // Another dispatcher took this slot or this item.
        const moved = await tx
          .updateTable('queue_items')
          .set({ status: 'posting', released_at: at, updated_at: at })
          .where('id', '=', r.itemId)
          .where('status', '=', 'queued')
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) {
          // Cancelled since it was planned: give the slot back.
          await tx
            .deleteFrom('releases')
            .where('account_id', '=', r.accountId)
            .where('local_date', '=', r.localDate)
            .where('slot_label', '=', r.slotLabel)
            .execute();
          continue;
        }
        posts.add(r.postId);
        n++;
      }
      for (const postId of posts) await refreshPostStatus(tx, postId, at);
      return n;
    });
  }
  return { accounts, released };
}
