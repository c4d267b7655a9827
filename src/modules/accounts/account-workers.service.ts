// Accounts and the workers that operate them (DECISIONS 5 and 6): which accounts a worker
// operates, assigning them, and keeping their timezone equal to their worker's.
import type { DbOrTx } from '../../db/types.ts';
import * as repo from './accounts.repository.ts';

/** The accounts a worker operates, with what a worker needs to post to them. */
export function accountsOfWorker(db: DbOrTx, workerId: string) {
  return repo.accountsOfWorker(db, workerId);
}

export type WorkerAccountRow = Awaited<ReturnType<typeof repo.accountsOfWorker>>[number];

/** An account the worker operates, or undefined. */
export function findWorkerAccount(db: DbOrTx, workerId: string, accountId: string) {
  return repo.findWorkerAccount(db, workerId, accountId);
}

/** The accounts among `ids` (any company), with their company and worker. */
export function findAccountsByIds(db: DbOrTx, ids: readonly string[]) {
  return repo.findAccountsByIds(db, ids);
}

/** Gives the accounts to the worker (taking its timezone), or to none with null. */
export function assignAccounts(
  db: DbOrTx,
  ids: readonly string[],
  worker: { id: string; timezone: string } | null,
  at: string,
): Promise<void> {
  return repo.assignAccounts(db, ids, worker, at);
}

/** Keeps the accounts' timezone equal to their worker's (DECISIONS 5). */
export function setTimezoneOfWorkerAccounts(
  db: DbOrTx,
  workerId: string,
  timezone: string,
  at: string,
): Promise<void> {
  return repo.setTimezoneOfWorkerAccounts(db, workerId, timezone, at);
}
