// Which worker operates which account, as operators change it from the console: handing a
// company's accounts to a worker in bulk, taking accounts from their worker, and moving one
// account to another worker (from the setup queue or the fulfilment board). The workers
// module's assign service does each change (the accounts take the worker's timezone); each
// action is one transaction with an operator log entry per company touched and an entry
// per account in that company's activity log.
import type { Db, DbOrTx } from '../../db/types.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import type { Clock } from '../../lib/clock.ts';
import { accountSummaries, type AccountSummary } from '../accounts/index.ts';
import { recordActivity } from '../activity/index.ts';

import { assignAccounts, type WorkerInfo } from '../workers/index.ts';
import { companyActor, recordOperatorAction, type OperatorActor } from './operator-log.service.ts';
import { accountLabel, requireWorker, workerNames } from './operator-workers.service.ts';

/** The accounts named, every one of them existing; refused naming the ids that do not. */
async function requireAccounts(db: DbOrTx, ids: readonly string[]): Promise<AccountSummary[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw new ActionRefused('invalid', 'Select at least one account.');
  const found = await accountSummaries(db, unique);
  const known = new Set(found.map((a) => a.accountId));
  const missing = unique.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw new ActionRefused(
      'not_found',
      missing.length === 1
        ? `There is no account with the id ${missing[0]}.`
        : `There are no accounts with the ids ${missing.join(', ')}.`,
    );
  }
  return found;
}

function activeWorker(worker: WorkerInfo): WorkerInfo {
  if (worker.revokedAt !== null) {
    throw new ActionRefused(
      'conflict',
      `${worker.name} is revoked: accounts cannot be given to a revoked worker. Choose an active worker, or issue ${worker.name} a new token first.`,
    );
  }
  return worker;
}

/** The rows grouped by their company, in the order first met. */
function byCompany<T>(rows: readonly T[], companyOf: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(companyOf(r), [...(out.get(companyOf(r)) ?? []), r]);
  return out;
}

interface Moved {
  account: AccountSummary;
  /** The name of the worker that operated it before, null when none did. */
  from: string | null;
}

function movedDetail(m: Moved) {
  return {
    accountId: m.account.accountId,
    username: m.account.username,
    platform: m.account.platform,
    from: m.from,
  };
}

/**
 * Records the accounts given to `worker`: one operator log entry per company, one activity
 * entry per account.
 */
async function recordGiven(
  tx: DbOrTx,
  actor: OperatorActor,
  worker: WorkerInfo,
  moved: readonly Moved[],
  now: Date,
): Promise<void> {
  for (const [companyId, group] of byCompany(moved, (m) => m.account.companyId)) {
    const reassigned = group.length === 1 && group[0]?.from !== null;
    await recordOperatorAction(
      tx,
      actor,
      {
        action: reassigned ? 'account.reassigned' : 'accounts.assigned',
        companyId,
        target: worker.workerId,
        details: {
          worker: worker.name,
          timezone: worker.timezone,
          accounts: group.map(movedDetail),
        },
      },
      now,
    );
    for (const m of group) {
      await recordActivity(
        tx,
        companyId,
        companyActor(actor),
        {
          action: m.from === null ? 'account.assigned' : 'account.reassigned',
          target: m.account.accountId,
          detail:
            m.from === null
              ? `${accountLabel(m.account)}: operated by worker ${worker.name} (${worker.timezone})`
              : `${accountLabel(m.account)}: worker ${m.from} → ${worker.name} (${worker.timezone})`,
        },
        now,
      );
    }
  }
}

/**
 * Hands the accounts (of any companies) to the worker, which must be active. Accounts it
 * operates already are left as they are; `moved` counts the others.
 */
export async function operatorAssignAccounts(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  workerId: string,
  accountIds: readonly string[],
): Promise<{ worker: WorkerInfo; moved: number }> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const worker = activeWorker(await requireWorker(tx, workerId));
    const accounts = await requireAccounts(tx, accountIds);
    const names = await workerNames(tx);
    const moved: Moved[] = accounts
      .filter((a) => a.workerId !== workerId)
      .map((account) => ({
        account,
        from: account.workerId ? (names.get(account.workerId) ?? account.workerId) : null,
      }));
    if (moved.length === 0) return { worker, moved: 0 };
    // A move is taking the account from its worker, then giving it to the new one.
    const taken = moved.filter((m) => m.from !== null).map((m) => m.account.accountId);
    if (taken.length > 0) await assignAccounts(tx, clock, null, taken);
    const after = (await assignAccounts(
      tx,
      clock,
      workerId,
      moved.map((m) => m.account.accountId),
    )) as WorkerInfo;
    await recordGiven(tx, actor, after, moved, now);
    return { worker: after, moved: moved.length };
  });
}

/**
 * Takes the accounts from the worker: nothing is released to them until another worker
 * has them. Every account must be this worker's (a page shown before a move elsewhere
 * is refused rather than undoing it).
 */
export async function operatorUnassignAccounts(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  workerId: string,
  accountIds: readonly string[],
): Promise<{ worker: WorkerInfo; taken: number }> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const worker = await requireWorker(tx, workerId);
    const accounts = await requireAccounts(tx, accountIds);
    const others = accounts.filter((a) => a.workerId !== workerId);
    if (others.length > 0) {
      throw new ActionRefused(
        'conflict',
        `${others.map(accountLabel).join(', ')} ${others.length === 1 ? 'is' : 'are'} not operated by ${worker.name} (any more); nothing was changed. Reload the page to see who operates what.`,
      );
    }
    await assignAccounts(
      tx,
      clock,
      null,
      accounts.map((a) => a.accountId),
    );
    for (const [companyId, group] of byCompany(accounts, (a) => a.companyId)) {
      await recordOperatorAction(
        tx,
        actor,
        {
          action: 'accounts.unassigned',
          companyId,
          target: workerId,
          details: {
            worker: worker.name,
            accounts: group.map((account) => movedDetail({ account, from: worker.name })),
          },
        },
        now,
      );
      for (const a of group) {
        await recordActivity(
          tx,
          companyId,
          companyActor(actor),
          {
            action: 'account.unassigned',
            target: a.accountId,
            detail: `${accountLabel(a)}: no longer operated by worker ${worker.name}; nothing is released to it until a worker has it`,
          },
          now,
        );
      }
    }
    return { worker: await requireWorker(tx, workerId), taken: accounts.length };
  });
}

/**
 * Moves one account to the worker (from the setup queue or the fulfilment board):
 * `from` names its worker before, null when it had none; `changed` is false when the
 * worker operated it already.
 */
export async function operatorMoveAccount(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  accountId: string,
  workerId: string,
): Promise<{ account: AccountSummary; worker: WorkerInfo; from: string | null; changed: boolean }> {
  const [account] = await requireAccounts(db, [accountId]);
  const names = await workerNames(db);
  const from = account?.workerId ? (names.get(account.workerId) ?? account.workerId) : null;
  const { worker, moved } = await operatorAssignAccounts(db, clock, actor, workerId, [accountId]);
  return { account: account as AccountSummary, worker, from, changed: moved > 0 };
}
