// The console's workers board: every worker with its open tasks and its delivery figures
// over the last days, one worker with the accounts it operates (by company), and a
// company's accounts with their workers to choose which to hand to a worker. Read through
// module faces.
import type { Db, DbOrTx } from '../../db/types.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  companyAccountSummaries,
  workerAccountSummaries,
  type AccountSummary,
} from '../../modules/accounts/index.ts';
import { getCompanies, getCompany, type CompanyInfo } from '../../modules/companies/index.ts';
import {
  deliveryFigures,
  openTaskCounts,
  type DeliveryFigures,
} from '../../modules/items/index.ts';
import {
  WorkerError,
  getWorker,
  listWorkers,
  type WorkerInfo,
} from '../../modules/workers/index.ts';

/** The period of the delivery figures the console shows, in days. */
export const CONSOLE_FIGURES_DAYS = 7;

export interface WorkerOverview {
  worker: WorkerInfo;
  /** Released tasks of its accounts nobody claimed, and tasks it claimed, still open. */
  openTasks: { released: number; claimed: number };
  figures: DeliveryFigures;
}

/** An account with the name of its company. */
export type NamedAccount = AccountSummary & { companyName: string };

export interface WorkerDetail extends WorkerOverview {
  accounts: NamedAccount[];
}

/** Active workers first, each group by name. */
function byName(a: WorkerInfo, b: WorkerInfo): number {
  if ((a.revokedAt === null) !== (b.revokedAt === null)) return a.revokedAt === null ? -1 : 1;
  return (
    a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) ||
    (a.workerId < b.workerId ? -1 : 1)
  );
}

async function overviewOf(db: DbOrTx, workers: WorkerInfo[], now: Date): Promise<WorkerOverview[]> {
  const [figures, open] = await Promise.all([
    deliveryFigures(
      db,
      'worker',
      workers.map((w) => w.workerId),
      now,
      CONSOLE_FIGURES_DAYS,
    ),
    Promise.all(workers.map((w) => openTaskCounts(db, w.workerId))),
  ]);
  return workers.map((worker, i) => ({
    worker,
    openTasks: open[i] ?? { released: 0, claimed: 0 },
    figures: figures.get(worker.workerId) as DeliveryFigures,
  }));
}

/** Every worker with its counts and figures: active ones first, by name. */
export async function workerOverview(db: Db, clock: Clock): Promise<WorkerOverview[]> {
  const workers = (await listWorkers(db)).sort(byName);
  return overviewOf(db, workers, clock.now());
}

/** Names of accounts' companies, for accounts read across companies. */
export async function withCompanyNames<T extends { companyId: string }>(
  db: DbOrTx,
  rows: readonly T[],
): Promise<(T & { companyName: string })[]> {
  const companies = await getCompanies(db, [...new Set(rows.map((r) => r.companyId))]);
  return rows.map((r) => ({ ...r, companyName: companies.get(r.companyId)?.name ?? '' }));
}

/** A worker that exists, or a 404 refusal. */
async function requireWorker(db: DbOrTx, workerId: string): Promise<WorkerInfo> {
  try {
    return await getWorker(db, workerId);
  } catch (err) {
    if (err instanceof WorkerError)
      throw new ActionRefused('not_found', 'There is no worker with this id.');
    throw err;
  }
}

/** One worker with its counts, figures and accounts; a 404 refusal for an unknown id. */
export async function workerDetail(db: Db, clock: Clock, workerId: string): Promise<WorkerDetail> {
  const worker = await requireWorker(db, workerId);
  const [[overview], accounts] = await Promise.all([
    overviewOf(db, [worker], clock.now()),
    workerAccountSummaries(db, workerId),
  ]);
  const named = await withCompanyNames(db, accounts);
  named.sort(
    (a, b) =>
      a.companyName.localeCompare(b.companyName, 'en', { sensitivity: 'base' }) ||
      a.username.localeCompare(b.username, 'en', { sensitivity: 'base' }),
  );
  return { ...(overview as WorkerOverview), accounts: named };
}

/** An account with the name of the worker operating it (null: none). */
export type AccountWithWorker = AccountSummary & { workerName: string | null };

/** A company's accounts with their workers, to choose which to hand to a worker. */
export async function assignableAccounts(
  db: Db,
  companyId: string,
): Promise<{ company: CompanyInfo; accounts: AccountWithWorker[] } | undefined> {
  const company = await getCompany(db, companyId);
  if (!company) return undefined;
  const [accounts, names] = await Promise.all([
    companyAccountSummaries(db, companyId),
    listWorkers(db).then((all) => new Map(all.map((w) => [w.workerId, w.name]))),
  ]);
  return {
    company,
    accounts: accounts.map((a) => ({
      ...a,
      workerName: a.workerId ? (names.get(a.workerId) ?? null) : null,
    })),
  };
}
