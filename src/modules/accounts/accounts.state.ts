// The account lifecycle (DECISIONS 7). Every change of an account's status goes through
// changeStatus, which writes the account and its history row in one transaction. The worker
// operating the account reports `warming_up`, `active` or `disconnected`; the company pauses
// and resumes. The two are stored apart, so a resume returns to what the worker last reported
// and a report made while paused is kept (and shown in the history) without unpausing. A
// change of the effective status also records an account.status_changed webhook event.
import type { AppContext } from '../../context.ts';
import type { AccountsTable, AccountStatusEventsTable, DbOrTx } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import { cursorScope } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import { recordEvents } from '../webhooks/index.ts';
import { effectiveStatus, type WorkerStatus } from './account-status.rules.ts';
import type { StatusEventOut, StatusHistoryInput } from './accounts.schemas.ts';
import * as events from './account-status-events.repository.ts';
import * as repo from './accounts.repository.ts';

export type StatusChange =
  /** `reason` left out: a repeat of the same status keeps the reason given before. */
  | { source: 'worker'; status: WorkerStatus; reason?: string }
  | { source: 'company'; pause: boolean };

function notFound(accountId: string): ApiError {
  return new ApiError('account_not_found', `Account ${accountId} does not exist`);
}

/** The lifecycle fields after `change`, or null when it changes nothing. */
function next(row: AccountsTable, change: StatusChange, at: string): repo.LifecycleFields | null {
  const fields: repo.LifecycleFields = {
    status: row.status,
    worker_status: row.worker_status,
    worker_reason: row.worker_reason,
    reported_at: row.reported_at,
    paused_at: row.paused_at,
    status_since: row.status_since,
  };
  if (change.source === 'worker') {
    // A repeated report (a worker reporting on every start, say) is not a change.
    const same = row.worker_status === change.status;
    if (same && (change.reason === undefined || change.reason === row.worker_reason)) return null;
    fields.worker_status = change.status;
    fields.worker_reason = change.reason ?? null;
    fields.reported_at = at;
  } else {
    // Pausing a paused account or resuming a running one answers as is (idempotent).
    if ((row.paused_at !== null) === change.pause) return null;
    fields.paused_at = change.pause ? at : null;
  }
  fields.status = effectiveStatus(fields.worker_status, fields.paused_at);
  if (fields.status !== row.status) fields.status_since = at;
  return fields;
}

/** An account after a status change, and whether anything changed. */
interface Changed {
  row: AccountsTable;
  changed: boolean;
}

async function applyChange(
  ctx: AppContext,
  tx: DbOrTx,
  companyId: string,
  accountId: string,
  change: StatusChange,
  at: string,
): Promise<Changed | undefined> {
  const row = await repo.findAccountForUpdate(tx, companyId, accountId);
  if (!row) return undefined;
  const fields = next(row, change, at);
  if (!fields) return { row, changed: false };
  await repo.setLifecycle(tx, companyId, accountId, fields, at);
  const reason = change.source === 'worker' ? (change.reason ?? null) : null;
  await events.insertStatusEvent(tx, {
    id: newId('ase', Date.parse(at)),
    company_id: companyId,
    account_id: accountId,
    seq: (await events.lastSeq(tx, companyId, accountId)) + 1,
    status: fields.status,
    reported_status: fields.worker_status,
    source: change.source,
    reason,
    at,
  });
  if (fields.status !== row.status) {
    const data = {
      accountId,
      status: fields.status,
      previousStatus: row.status,
      source: change.source,
      reason,
    };
    await recordEvents(tx, [{ companyId, type: 'account.status_changed', data }], at);
  }
  // A worker reporting the account disconnected is an outcome people are told of, with it.
  if (
    change.source === 'worker' &&
    change.status === 'disconnected' &&
    row.worker_status !== 'disconnected'
  ) {
    await ctx.outcomes?.tell(
      tx,
      [{ kind: 'account_disconnected', companyId, subjectId: accountId, occasion: at, reason }],
      new Date(at),
    );
  }
  return { row: { ...row, ...fields, updated_at: at }, changed: true };
}

/**
 * The one place an account's status changes: applies `change` to the account of the company
 * inside `tx` and records it in the history. Returns the account as it is afterwards, or
 * undefined when the company has no such account.
 */
export async function changeStatus(
  ctx: AppContext,
  tx: DbOrTx,
  companyId: string,
  accountId: string,
  change: StatusChange,
  at: string,
): Promise<AccountsTable | undefined> {
  return (await applyChange(ctx, tx, companyId, accountId, change, at))?.row;
}

/** The first row of a new account's history: created `pending_setup`. */
export async function recordCreated(db: DbOrTx, row: AccountsTable): Promise<void> {
  await events.insertStatusEvent(db, {
    id: newId('ase', Date.parse(row.created_at)),
    company_id: row.company_id,
    account_id: row.id,
    seq: 1,
    status: row.status,
    reported_status: row.worker_status,
    source: 'system',
    reason: null,
    at: row.created_at,
  });
}

/** A worker's report on an account (the caller checked that the worker operates it). */
export async function reportWorkerStatus(
  ctx: AppContext,
  companyId: string,
  accountId: string,
  status: WorkerStatus,
  reason: string | undefined,
): Promise<AccountsTable> {
  const at = ctx.clock.now().toISOString();
  const change: StatusChange = { source: 'worker', status, ...(reason ? { reason } : {}) };
  const row = await ctx.db
    .transaction()
    .execute((tx) => changeStatus(ctx, tx, companyId, accountId, change, at));
  if (!row) throw notFound(accountId);
  return row;
}

/**
 * POST /v2/accounts/{id}/pause and /resume: idempotent; pausing a paused account is a no-op.
 * With an `actor` (a dashboard user), a change is written to the activity log in the same
 * transaction; a no-op is not logged.
 */
export async function setPaused(
  ctx: AppContext,
  companyId: string,
  accountId: string,
  pause: boolean,
  actor?: Actor,
): Promise<void> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const found = await ctx.db.transaction().execute(async (tx) => {
    const result = await applyChange(
      ctx,
      tx,
      companyId,
      accountId,
      { source: 'company', pause },
      at,
    );
    if (result?.changed && actor) {
      await recordActivity(
        tx,
        companyId,
        actor,
        {
          action: pause ? 'account.paused' : 'account.resumed',
          target: accountId,
          detail: `@${result.row.username} (${result.row.platform})`,
        },
        now,
      );
    }
    return result;
  });
  if (!found) throw notFound(accountId);
}

function toEvent(row: AccountStatusEventsTable): StatusEventOut {
  return {
    status: row.status as StatusEventOut['status'],
    reportedStatus: row.reported_status as StatusEventOut['reportedStatus'],
    source: row.source as StatusEventOut['source'],
    reason: row.reason,
    at: row.at,
  };
}

/** GET /v2/accounts/{id}/status-history: every change, newest first. */
export async function statusHistory(
  ctx: AppContext,
  companyId: string,
  accountId: string,
  query: StatusHistoryInput,
): Promise<{ data: StatusEventOut[]; nextCursor: string | null }> {
  const now = ctx.clock.now();
  const limit = query.limit ?? 25;
  const scope = cursorScope(companyId, 'account-status-history', { accountId });
  const before = query.cursor
    ? Number((ctx.cursors.decode(scope, query.cursor, now, 1) as [number])[0])
    : undefined;
  if (!(await repo.findAccount(ctx.db, companyId, accountId))) throw notFound(accountId);
  const rows = await events.pageStatusEvents(ctx.db, companyId, accountId, {
    ...(before !== undefined ? { before } : {}),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(toEvent),
    nextCursor:
      rows.length > limit && last ? ctx.cursors.encode(scope, [Number(last.seq)], now) : null,
  };
}

/** A post of the account went out at `postedAt`: its lastPostAt moves forward only. */
export function notePosted(
  db: DbOrTx,
  accountId: string,
  postedAt: string,
  at: string,
): Promise<void> {
  return repo.notePosted(db, accountId, postedAt, at);
}

/** The follower count its worker reported. */
export function noteFollowers(
  db: DbOrTx,
  accountId: string,
  followers: number,
  at: string,
): Promise<void> {
  return repo.setFollowers(db, accountId, followers, at);
}
