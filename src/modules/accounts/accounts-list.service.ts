// GET /v2/accounts (SPEC 2.5, 8): a page is read once per data version (and
// hour of the activity lookback); postsToday, nextWindow and the cursor move
// with time, so they are computed from what the read kept, at any instant.
import type { AppContext } from '../../context.ts';
import type { AccountsTable } from '../../db/types.ts';
import type { KeyedRead } from '../../db/versioned-memo.ts';
import { postsToday } from '../../schedule/windows.ts';
import { cursorScope } from '../../lib/cursor.ts';
import type { AccountOut, AccountPageOut, ListAccountsInput } from './accounts.schemas.ts';
import { queueActivity } from '../items/index.ts';
import * as repo from './accounts.repository.ts';
import { isReleasable } from './account-status.rules.ts';
import {
  companyScheduleOf,
  groupActivity,
  holdsAt,
  lookbackFrom,
  nextWindowAt,
  toAccount,
  type NextWindow,
} from './accounts.service.ts';

/** An account's fields that hold for as long as its data does. */
export type TimelessAccount = Omit<AccountOut, 'postsToday' | 'nextWindow'>;

/** An account of a page as read, with what its time-dependent fields are computed from. */
export interface ListedAccount {
  account: TimelessAccount;
  row: AccountsTable;
  /** Release instants since the lookback, for postsToday. */
  releases: number[] | undefined;
  /** The last nextWindow answer, kept while it holds. */
  window: NextWindow | null;
}

/** A page of accounts as read, and what its time-dependent parts are computed from. */
export interface AccountPageRead {
  accounts: ListedAccount[];
  companySchedule: string | null;
  /** The cursor scope, and the (created_at, id) a next page starts after; null on the last page. */
  scope: string;
  last: [string, string] | null;
}

/**
 * The page `query` asks for at `now`: its key among all pages (company,
 * filters, size, position and the hour of the activity lookback), and its read.
 * Throws `invalid_cursor` at once for a cursor that is not this list's.
 */
export function accountPageRead(
  ctx: AppContext,
  companyId: string,
  query: ListAccountsInput,
  now: Date,
): KeyedRead<AccountPageRead> {
  const limit = query.limit ?? 100;
  const scope = cursorScope(companyId, 'accounts', { platform: query.platform });
  const after = query.cursor
    ? (ctx.cursors.decode(scope, query.cursor, now, 2) as [string, string])
    : undefined;
  const since = lookbackFrom(now);
  return {
    key: JSON.stringify([companyId, query.platform ?? null, limit, after ?? null, since]),
    read: async () => {
      const pageOptions = { platform: query.platform, after, limit: limit + 1 };
      const [rows, companySchedule] = await Promise.all([
        repo.pageAccounts(ctx.db, companyId, pageOptions),
        companyScheduleOf(ctx.db, companyId),
      ]);
      const data = rows.slice(0, limit);
      const activityRows = await queueActivity(
        ctx.db,
        companyId,
        data.map((r) => r.id),
        since,
      );
      const last = data[data.length - 1];
      const { releases, depth } = groupActivity(activityRows);
      return {
        accounts: data.map((row) => {
          const activity = { postsToday: 0, queueDepth: depth.get(row.id) ?? 0 };
          const {
            postsToday: _today,
            nextWindow: _next,
            ...account
          } = toAccount(row, companySchedule, now, activity);
          return { account, row, releases: releases.get(row.id), window: null };
        }),
        companySchedule,
        scope,
        last: rows.length > limit && last ? [last.created_at, last.id] : null,
      };
    },
  };
}

/** SPEC 2.5 postsToday of a listed account at `now`. */
export function listedPostsToday(listed: ListedAccount, now: Date): number {
  return listed.releases ? postsToday(listed.releases, listed.row.timezone, now) : 0;
}

/**
 * SPEC 2.5 nextWindow of a listed account at `now`: the same string while the
 * window it names has not started.
 */
export function listedNextWindow(
  page: AccountPageRead,
  listed: ListedAccount,
  now: Date,
): string | null {
  const { row } = listed;
  // No window is promised to an account nothing is released to (DECISIONS 7).
  if (!isReleasable(row.status)) return null;
  let window = listed.window;
  if (!window || !holdsAt(window, now.getTime())) {
    window = nextWindowAt(row.timezone, row.schedule_windows, page.companySchedule, now);
    listed.window = window;
  }
  return window.at;
}

/** The page as GET /v2/accounts shows it at `now`. */
export function accountPageAt(ctx: AppContext, page: AccountPageRead, now: Date): AccountPageOut {
  return {
    data: page.accounts.map((listed) => ({
      ...listed.account,
      postsToday: listedPostsToday(listed, now),
      nextWindow: listedNextWindow(page, listed, now),
    })),
    nextCursor: page.last ? ctx.cursors.encode(page.scope, page.last, now) : null,
  };
}

/** GET /v2/accounts as data, for callers other than the route. */
export async function listAccounts(
  ctx: AppContext,
  companyId: string,
  query: ListAccountsInput,
): Promise<AccountPageOut> {
  const now = ctx.clock.now();
  return accountPageAt(ctx, await accountPageRead(ctx, companyId, query, now).read(), now);
}
