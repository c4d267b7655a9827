// Accounts as the operator console reads them, across companies: by id, of a company or of
// a worker (to hand them between workers), the setup queue (accounts `pending_setup`, with
// everything the company asked for) and the accounts whose worker lost access
// (`disconnected`). Names of companies and workers are the caller's to add.
import type { DbOrTx } from '../../db/types.ts';
import type { AccountStatus } from './account-status.rules.ts';
import * as repo from './accounts-overview.repository.ts';

/** An account as the console lists it. */
export interface AccountSummary {
  accountId: string;
  companyId: string;
  platform: string;
  username: string;
  displayName: string;
  status: AccountStatus;
  statusSince: string;
  /** What the worker said when it last reported (why it lost access, say). */
  statusReason: string | null;
  workerId: string | null;
  timezone: string;
  createdAt: string;
}

/** An account waiting to be set up, with what its company asked for. */
export interface SetupRequest extends AccountSummary {
  bio: string;
  profilePictureUrl: string;
  bioUrl: string | null;
  searchTerms: string[];
}

/** A bounded list: its first rows and how many there are in all. */
export interface Counted<T> {
  count: number;
  accounts: T[];
}

function summaryOf(r: repo.OverviewRow): AccountSummary {
  return {
    accountId: r.id,
    companyId: r.company_id,
    platform: r.platform,
    username: r.username,
    displayName: r.display_name,
    status: r.status as AccountStatus,
    statusSince: r.status_since,
    statusReason: r.worker_reason,
    workerId: r.worker_id,
    timezone: r.timezone,
    createdAt: r.created_at,
  };
}

function termsOf(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** The accounts among `ids` (any company), by username; unknown ids are left out. */
export async function accountSummaries(
  db: DbOrTx,
  ids: readonly string[],
): Promise<AccountSummary[]> {
  return (await repo.overviewByIds(db, [...new Set(ids)])).map(summaryOf);
}

/** Every account of a company, by username. */
export async function companyAccountSummaries(
  db: DbOrTx,
  companyId: string,
): Promise<AccountSummary[]> {
  return (await repo.overviewOfCompany(db, companyId)).map(summaryOf);
}

/** Every account a worker operates, by company and username. */
export async function workerAccountSummaries(
  db: DbOrTx,
  workerId: string,
): Promise<AccountSummary[]> {
  return (await repo.overviewOfWorker(db, workerId)).map(summaryOf);
}

/** The setup queue: accounts `pending_setup` of every company, oldest first. */
export async function setupQueue(
  db: DbOrTx,
  opts: { limit: number },
): Promise<Counted<SetupRequest>> {
  const { count, rows } = await repo.pendingSetup(db, 'pending_setup', opts.limit);
  return {
    count,
    accounts: rows.map((r) => ({
      ...summaryOf(r),
      bio: r.bio,
      profilePictureUrl: r.profile_picture_url,
      bioUrl: r.bio_url,
      searchTerms: termsOf(r.warmup_search_terms),
    })),
  };
}

/**
 * Accounts whose worker reported losing access (`disconnected`), longest first, of one
 * company and/or operated by one worker.
 */
export async function disconnectedAccounts(
  db: DbOrTx,
  filter: { companyId?: string; workerId?: string },
  opts: { limit: number },
): Promise<Counted<AccountSummary>> {
  const { count, rows } = await repo.inStatusSince(db, 'disconnected', filter, opts.limit);
  return { count, accounts: rows.map(summaryOf) };
}
