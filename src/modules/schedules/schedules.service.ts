// Posting schedules (SPEC 4.5, DECISIONS 5): a company default, per-account
// overrides that always win, and the global standard slots under both.
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import {
  checkWindows,
  effectiveSchedule,
  MAX_POSTS_PER_DAY,
  TIMEZONE_MODE,
  parseStoredWindows,
} from '../../schedule/schedule-rules.ts';
import { getCompanyRow, setCompanySchedule as storeCompanySchedule } from '../companies/index.ts';
import { getAccountRow, setAccountSchedule as storeAccountSchedule } from '../accounts/index.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import type {
  AccountScheduleOut,
  CompanyScheduleOut,
  ScheduleInputBody,
} from './schedules.schemas.ts';

const asSchedule = (windows: string[] | null) => (windows ? { windows } : null);

/** SPEC 4.5 rule 1 on a request body; the error names the offending entry. */
function validated(body: ScheduleInputBody): string | null {
  if (body.schedule === null) return null;
  const violation = checkWindows(body.schedule.windows);
  if (violation) {
    throw new ApiError('invalid_request', `/schedule${violation.pointer} ${violation.message}`, {
      hint: violation.hint,
    });
  }
  return JSON.stringify(body.schedule.windows);
}

async function companyRow(ctx: AppContext, companyId: string) {
  const company = await getCompanyRow(ctx.db, companyId);
  if (!company) throw new ApiError('not_found', `Company ${companyId} does not exist`);
  return company;
}

function companyResponse(companyId: string, windows: string[] | null): CompanyScheduleOut {
  const effective = effectiveSchedule(null, windows);
  return {
    companyId,
    schedule: asSchedule(windows),
    source: effective.source,
    scheduledPostsPerDay: effective.windows.length,
    maxPostsPerDay: MAX_POSTS_PER_DAY,
    timezoneMode: TIMEZONE_MODE,
  };
}

export async function getCompanySchedule(
  ctx: AppContext,
  companyId: string,
): Promise<CompanyScheduleOut> {
  const company = await companyRow(ctx, companyId);
  return companyResponse(companyId, parseStoredWindows(company.schedule_windows));
}

/**
 * Stores a schedule change with `store`; with an `actor` (a dashboard user) the change is
 * written to the activity log in the same transaction. Returns what `store` returned.
 */
async function changeSchedule(
  ctx: AppContext,
  companyId: string,
  target: string,
  windows: string | null,
  actor: Actor | undefined,
  store: (db: DbOrTx, at: string) => Promise<boolean>,
): Promise<boolean> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  if (!actor) return store(ctx.db, at);
  return ctx.db.transaction().execute(async (tx) => {
    if (!(await store(tx, at))) return false;
    const detail = windows === null ? 'cleared' : (JSON.parse(windows) as string[]).join(', ');
    await recordActivity(tx, companyId, actor, { action: 'schedule.changed', target, detail }, now);
    return true;
  });
}

export async function setCompanySchedule(
  ctx: AppContext,
  companyId: string,
  body: ScheduleInputBody,
  actor?: Actor,
): Promise<CompanyScheduleOut> {
  const windows = validated(body);
  const stored = await changeSchedule(ctx, companyId, companyId, windows, actor, (db, at) =>
    storeCompanySchedule(db, companyId, windows, at),
  );
  if (!stored) throw new ApiError('not_found', `Company ${companyId} does not exist`);
  return companyResponse(companyId, parseStoredWindows(windows));
}

export async function getAccountSchedule(
  ctx: AppContext,
  companyId: string,
  accountId: string,
): Promise<AccountScheduleOut> {
  const [account, company] = await Promise.all([
    getAccountRow(ctx.db, companyId, accountId),
    companyRow(ctx, companyId),
  ]);
  const own = parseStoredWindows(account.schedule_windows);
  const companyWindows = parseStoredWindows(company.schedule_windows);
  const effective = effectiveSchedule(own, companyWindows);
  return {
    accountId,
    schedule: asSchedule(own),
    companySchedule: asSchedule(companyWindows),
    effectiveSchedule: { windows: effective.windows },
    source: effective.source,
    scheduledPostsPerDay: effective.windows.length,
    maxPostsPerDay: MAX_POSTS_PER_DAY,
    timezoneMode: TIMEZONE_MODE,
    timezone: account.timezone,
  };
}

export async function setAccountSchedule(
  ctx: AppContext,
  companyId: string,
  accountId: string,
  body: ScheduleInputBody,
  actor?: Actor,
): Promise<AccountScheduleOut> {
  const windows = validated(body);
  const found = await changeSchedule(ctx, companyId, accountId, windows, actor, (db, at) =>
    storeAccountSchedule(db, companyId, accountId, windows, at),
  );
  if (!found) throw new ApiError('account_not_found', `Account ${accountId} does not exist`);
  return getAccountSchedule(ctx, companyId, accountId);
}
