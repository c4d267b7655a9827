// What the release dispatcher asks of accounts (DECISIONS 5 and 7): which accounts receive
// releases, with their timezone and schedules, and a hold on them while releasing.
import type { DbOrTx } from '../../db/types.ts';
import { RELEASABLE_STATUSES } from './account-status.rules.ts';
import * as repo from './accounts.repository.ts';

export interface ReleaseTarget {
  accountId: string;
  companyId: string;
  timezone: string;
  /** Stored windows of the account's override and of its company's default. */
  schedule: string | null;
  companySchedule: string | null;
}

/** Accounts among `ids` that receive releases (active or warming up). */
export async function releaseTargets(db: DbOrTx, ids: readonly string[]): Promise<ReleaseTarget[]> {
  const rows = await repo.releaseTargets(db, ids, RELEASABLE_STATUSES);
  return rows.map((r) => ({
    accountId: r.id,
    companyId: r.company_id,
    timezone: r.timezone,
    schedule: r.schedule_windows,
    companySchedule: r.company_schedule,
  }));
}

/**
 * The accounts among `ids` that still receive releases. Their rows are held FOR SHARE until
 * the transaction ends, so a concurrent pause (which locks the row for update) waits for the
 * releases to commit.
 */
export function holdReleasable(tx: DbOrTx, ids: readonly string[]): Promise<string[]> {
  return repo.holdInStatus(tx, ids, RELEASABLE_STATUSES);
}
