import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import type { AccountsTable, CompaniesTable, DbOrTx } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { ApiError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import {
  effectiveSchedule,
  parseStoredWindows,
  MAX_POSTS_PER_DAY,
} from '../../schedule/schedule-rules.ts';
import { nextWindowStart, postsToday } from '../../schedule/windows.ts';
import type { Principal } from '../../access.ts';
import { getCompanyRow, lockCompany } from '../companies/index.ts';
import { consumeDaily, planOf } from '../usage/index.ts';
import type { AccountOut, CreateAccountInput } from './accounts.schemas.ts';
import { queueActivity, type QueueActivityRow } from '../items/index.ts';
import * as repo from './accounts.repository.ts';
import { isReleasable } from './account-status.rules.ts';
import { recordCreated } from './accounts.state.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
// nextWindow depends only on (timezone, windows, now). An answer computed at t0
// stays right for any later `now` up to the window itself, since no window
// starts in between; lists of many accounts sharing a schedule reuse it. The
// key is the stored schedule text, so nothing is parsed on a hit.
const nextWindowMemo = new Map<string, NextWindow>();

export interface NextWindow {
  /** The instant the answer was computed for, and the window start it found. */
  computedAt: number;
  atMs: number;
  at: string;
}

/** Whether an answer computed before holds at `t`: no window starts in between. */
export function holdsAt(w: NextWindow, t: number): boolean {
  return w.computedAt <= t && w.atMs >= t;
}

export function nextWindowAt(
  timezone: string,
  accountJson: string | null,
  companyJson: string | null,
  now: Date,
): NextWindow {
  const key = `${timezone}|${accountJson ?? ''}|${accountJson ? '' : (companyJson ?? '')}`;
  const t = now.getTime();
  const hit = nextWindowMemo.get(key);
  if (hit && holdsAt(hit, t)) return hit;
  const { windows } = effectiveSchedule(
    parseStoredWindows(accountJson),
    parseStoredWindows(companyJson),
  );
  const next = nextWindowStart(windows, timezone, now);
  const found = { computedAt: t, atMs: next.getTime(), at: next.toISOString() };
  if (nextWindowMemo.size > 10_000) nextWindowMemo.clear();
  nextWindowMemo.set(key, found);
  return found;
}

function nextWindowOf(
  timezone: string,
  accountJson: string | null,
  companyJson: string | null,
  now: Date,
): string {
  return nextWindowAt(timezone, accountJson, companyJson, now).at;
}

/** SPEC 2.5 `postsToday` and `queueDepth` of one account. */
export interface AccountActivity {
  postsToday: number;
  queueDepth: number;
}

export const NO_ACTIVITY: AccountActivity = Object.freeze({ postsToday: 0, queueDepth: 0 });

// A local day never starts more than ~26 hours before the instant it contains (UTC+14 with a
// DST shift), so releases older than this cannot be in any account's today.
const TODAY_LOOKBACK_MS = 48 * 60 * 60 * 1000;
// Keeps the `in` list of one query well below every dialect's bound-parameter limit.
const ACTIVITY_CHUNK = 1000;

const HOUR_MS = 60 * 60 * 1000;

/**
 * The earliest release that can count for today, rounded down to the hour so
 * the activity query repeats with the same value (and its result is reused)
 * for an hour; the extra hour of releases is filtered out by local day.
 */
export function lookbackFrom(now: Date): string {
  const ms = now.getTime() - TODAY_LOOKBACK_MS;
  return new Date(ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS)).toISOString();
}

/** Release instants and queued items per account, from queue activity rows. */
export function groupActivity(rows: readonly QueueActivityRow[]) {
  const releases = new Map<string, number[]>();
  const depth = new Map<string, number>();
  for (const r of rows) {
    depth.set(r.account_id, (depth.get(r.account_id) ?? 0) + Number(r.queued));
    if (r.released_at === null) continue;
    const at = Date.parse(r.released_at);
    const list = releases.get(r.account_id) ?? [];
    for (let i = 0; i < Number(r.n); i++) list.push(at);
    releases.set(r.account_id, list);
  }
  return { releases, depth };
}

/**
 * postsToday (releases in each account's local day, windows.ts postsToday; DECISIONS 5) and
 * queueDepth (items `queued`, windows.ts decision 10) of the accounts from their queue
 * activity rows.
 */
function activityFromRows(
  accounts: readonly AccountsTable[],
  rows: readonly QueueActivityRow[],
  now: Date,
): Map<string, AccountActivity> {
  const { releases, depth } = groupActivity(rows);
  const out = new Map<string, AccountActivity>();
  for (const row of accounts) {
    const released = releases.get(row.id);
    out.set(row.id, {
      postsToday: released ? postsToday(released, row.timezone, now) : 0,
      queueDepth: depth.get(row.id) ?? 0,
    });
  }
  return out;
}

/** Activity of any set of accounts: one grouped query per thousand, never one per account. */
export async function activityOf(
  db: Db,
  companyId: string,
  accounts: readonly AccountsTable[],
  now: Date,
): Promise<Map<string, AccountActivity>> {
  if (accounts.length === 0) return new Map();
  const ids = accounts.map((r) => r.id);
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += ACTIVITY_CHUNK) {
    chunks.push(ids.slice(i, i + ACTIVITY_CHUNK));
  }
  const since = lookbackFrom(now);
  const rows = await Promise.all(chunks.map((chunk) => queueActivity(db, companyId, chunk, since)));
  return activityFromRows(accounts, rows.flat(), now);
}

// Rows are immutable once read, so their parsed search terms are kept with them.
const searchTermsOf = new WeakMap<AccountsTable, string[]>();

/** The account as the API shows it (SPEC 2.5), with its schedule-derived fields. */
export function toAccount(
  row: AccountsTable,
  companyScheduleJson: string | null,
  now: Date,
  activity: AccountActivity,
): AccountOut {
  let terms = searchTermsOf.get(row);
  if (!terms) {
    terms = JSON.parse(row.warmup_search_terms) as string[];
    searchTermsOf.set(row, terms);
  }
  return {
    accountId: row.id,
    platform: row.platform as AccountOut['platform'],
    username: row.username,
    displayName: row.display_name,
    status: row.status as AccountOut['status'],
    statusSince: row.status_since,
    statusReason: row.paused_at === null ? row.worker_reason : null,
    timezone: row.timezone,
    followers: row.followers,
    postsToday: activity.postsToday,
    dailyCap: MAX_POSTS_PER_DAY,
    queueDepth: activity.queueDepth,
    // No window is promised to an account nothing is released to (DECISIONS 7).
    nextWindow: isReleasable(row.status)
      ? nextWindowOf(row.timezone, row.schedule_windows, companyScheduleJson, now)
      : null,
    lastPostAt: row.last_post_at,
    bio: row.bio,
    bioUrl: row.bio_url,
    profilePictureUrl: row.profile_picture_url,
    warmup: { searchTerms: terms },
    createdAt: row.created_at,
  };
}

export async function companyScheduleOf(db: Db, companyId: string): Promise<string | null> {
  const company = await getCompanyRow(db, companyId);
  return company ? company.schedule_windows : null;
}

export async function getAccountRow(
  db: Db,
  companyId: string,
  accountId: string,
): Promise<AccountsTable> {
  const row = await repo.findAccount(db, companyId, accountId);
  if (!row) {
    throw new ApiError('account_not_found', `Account ${accountId} does not exist`);
  }
  return row;
}

export async function getAccount(
  db: Db,
  clock: Clock,
  companyId: string,
  accountId: string,
): Promise<AccountOut> {
  const now = clock.now();
  const [row, windows] = await Promise.all([
    getAccountRow(db, companyId, accountId),
    companyScheduleOf(db, companyId),
  ]);
  const activity = await activityOf(db, companyId, [row], now);
  return toAccount(row, windows, now, activity.get(row.id) ?? NO_ACTIVITY);
}

function accountExists(input: CreateAccountInput): ApiError {
  return new ApiError(
    'account_exists',
    `Account @${input.username} on ${input.platform} already exists in this company`,
  );
}

/**
 * Creates an account for `principal`'s company within its plan. With an `actor` (a dashboard
 * user) the creation is written to the activity log in the same transaction.
 */
export async function createAccount(
  ctx: AppContext,
  principal: Pick<Principal, 'companyId' | 'plan'>,
  input: CreateAccountInput,
  actor?: Actor,
): Promise<AccountOut> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const plan = planOf(ctx.config.plans, ctx.config.defaultPlan, principal.plan);
  const usernameKey = input.username.toLowerCase();
  let company: CompaniesTable | undefined;
  const row: AccountsTable = {
    id: newId('acc', now.getTime()),
    company_id: principal.companyId,
    platform: input.platform,
    username: input.username,
    username_key: usernameKey,
    display_name: input.displayName,
    bio: input.bio,
    profile_picture_url: input.profilePictureUrl,
    bio_url: input.bioUrl ?? null,
    warmup_search_terms: JSON.stringify(input.warmup.searchTerms),
    niche: '',
    status: 'pending_setup',
    worker_status: 'pending_setup',
    worker_reason: null,
    reported_at: null,
    paused_at: null,
    status_since: at,
    timezone: ctx.config.defaultTimezone,
    followers: 0,
    schedule_windows: null,
    last_post_at: null,
    created_at: at,
    updated_at: at,
    worker_id: null,
  };
  try {
    await ctx.db.transaction().execute(async (tx) => {
      // Lock the company row so concurrent creations cannot both take the last slot.
      company = await lockCompany(tx, principal.companyId);
      if (await repo.findByUsername(tx, principal.companyId, input.platform, usernameKey)) {
        throw accountExists(input);
      }
      const count = await repo.countAccounts(tx, principal.companyId);
      if (count >= plan.accountLimit) {
        throw new ApiError(
          'account_limit_reached',
          `The company uses all ${plan.accountLimit} account slots of its plan`,
        );
      }
      await consumeDaily(tx, plan, principal.companyId, 'account_creations', now);
      row.timezone = company?.default_timezone ?? ctx.config.defaultTimezone;
      await repo.insertAccount(tx, row);
      await recordCreated(tx, row);
      if (actor) {
        await recordActivity(
          tx,
          principal.companyId,
          actor,
          {
            action: 'account.created',
            target: row.id,
            detail: `@${row.username} (${row.platform})`,
          },
          now,
        );
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw accountExists(input);
    throw err;
  }
  // A new account has no queue items yet.
  return toAccount(row, company ? company.schedule_windows : null, now, NO_ACTIVITY);
}

export type { TargetAccount } from './accounts.repository.ts';

/** The company's accounts among `ids` (distinct): the targets of a post. */
export function findTargetAccounts(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<repo.TargetAccount[]> {
  return repo.findTargets(db, companyId, ids);
}

/** Every account of the company (the workspace lists them all). */
export function listCompanyAccounts(db: DbOrTx, companyId: string): Promise<AccountsTable[]> {
  return repo.listAllAccounts(db, companyId);
}

/** How many accounts each of these companies has (0 for a company without any). */
export async function countCompanyAccounts(
  db: DbOrTx,
  companyIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = await repo.countAccountsOf(db, [...new Set(companyIds)]);
  return new Map(companyIds.map((id) => [id, counts.get(id) ?? 0]));
}

/** Replaces the account's schedule override; false when the company has no such account. */
export function setAccountSchedule(
  db: DbOrTx,
  companyId: string,
  accountId: string,
  windows: string | null,
  at: string,
): Promise<boolean> {
  return repo.setScheduleWindows(db, companyId, accountId, windows, at);
}
