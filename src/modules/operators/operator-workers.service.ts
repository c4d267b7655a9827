// What operators do to workers from the console: create one (its token and a phone
// sign-in link), rename it or move it to another timezone (its accounts' windows follow),
// a new phone link, a new token, revoking it. Each action is one transaction with its
// entry in the operator log, and an entry in the activity log of every company whose
// accounts it changed. The console's workers board reads beside its pages.
import type { Db, DbOrTx } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import { workerAccountSummaries, type AccountSummary } from '../accounts/index.ts';
import { recordActivity } from '../activity/index.ts';

import {
  WorkerError,
  createWorker,
  createWorkerSignInLink,
  getWorker,
  listWorkers,
  revokeWorker,
  rotateWorkerToken,
  updateWorker,
  type IssuedWorker,
  type WorkerInfo,
} from '../workers/index.ts';
import { companyActor, recordOperatorAction, type OperatorActor } from './operator-log.service.ts';

/** One-time phone sign-in link: its URL (with the token) and when it stops working. */
export interface WorkerLink {
  url: string;
  expiresAt: string;
}

/** A worker that exists, or a 404 refusal. */
export async function requireWorker(db: DbOrTx, workerId: string): Promise<WorkerInfo> {
  try {
    return await getWorker(db, workerId);
  } catch (err) {
    if (err instanceof WorkerError)
      throw new ActionRefused('not_found', 'There is no worker with this id.');
    throw err;
  }
}

/** Every worker's name by id (revoked ones too: past tasks still name them). */
export async function workerNames(db: DbOrTx): Promise<Map<string, string>> {
  return new Map((await listWorkers(db)).map((w) => [w.workerId, w.name]));
}

/** How an account reads in a company's activity log. */
export function accountLabel(a: Pick<AccountSummary, 'username' | 'platform'>): string {
  return `@${a.username} (${a.platform})`;
}

/**
 * Creates a worker: its token for automations (returned once) and a one-time sign-in link
 * for its phone, under `publicUrl`.
 */
export async function operatorCreateWorker(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  input: { name: string; timezone: string },
  publicUrl: string,
): Promise<{ worker: IssuedWorker; link: WorkerLink }> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const worker = await createWorker(tx, clock, input);
    const link = await createWorkerSignInLink(tx, clock, worker.workerId, publicUrl);
    await recordOperatorAction(
      tx,
      actor,
      {
        action: 'worker.created',
        target: worker.workerId,
        details: { name: worker.name, timezone: worker.timezone },
      },
      now,
    );
    return { worker, link };
  });
}

export interface WorkerChange {
  field: 'name' | 'timezone';
  from: string;
  to: string;
}

/**
 * Renames the worker and/or moves it to another timezone, as `slotline worker update`
 * does: its accounts take the new timezone, so their windows follow. Each account moved is
 * in its company's activity log. Nothing is recorded when nothing changes.
 */
export async function operatorUpdateWorker(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  workerId: string,
  input: { name: string; timezone: string },
): Promise<{ worker: WorkerInfo; changes: WorkerChange[] }> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const before = await requireWorker(tx, workerId);
    const name = input.name.trim();
    const changes: WorkerChange[] = [];
    if (name !== before.name) changes.push({ field: 'name', from: before.name, to: name });
    if (input.timezone !== before.timezone) {
      changes.push({ field: 'timezone', from: before.timezone, to: input.timezone });
    }
    if (changes.length === 0) return { worker: before, changes };
    const moved =
      input.timezone !== before.timezone ? await workerAccountSummaries(tx, workerId) : [];
    const worker = await updateWorker(tx, clock, workerId, {
      ...(name !== before.name ? { name } : {}),
      ...(input.timezone !== before.timezone ? { timezone: input.timezone } : {}),
    });
    await recordOperatorAction(
      tx,
      actor,
      {
        action: 'worker.updated',
        target: workerId,
        details: { name: worker.name, changes, accounts: moved.length },
      },
      now,
    );
    for (const a of moved) {
      await recordActivity(
        tx,
        a.companyId,
        companyActor(actor),
        {
          action: 'account.timezone_changed',
          target: a.accountId,
          detail: `${accountLabel(a)}: ${before.timezone} → ${worker.timezone}, the timezone of its worker ${worker.name}; its posting windows follow`,
        },
        now,
      );
    }
    return { worker, changes };
  });
}

/** Another one-time phone sign-in link for an active worker. */
export async function operatorWorkerLink(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  workerId: string,
  publicUrl: string,
): Promise<{ worker: WorkerInfo; link: WorkerLink }> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const worker = await requireWorker(tx, workerId);
    if (worker.revokedAt !== null) {
      throw new ActionRefused(
        'conflict',
        `${worker.name} is revoked: a sign-in link would not work. Issue a new token to make the worker active again first.`,
      );
    }
    const link = await createWorkerSignInLink(tx, clock, workerId, publicUrl);
    await recordOperatorAction(
      tx,
      actor,
      { action: 'worker.link_created', target: workerId, details: { name: worker.name } },
      now,
    );
    return { worker, link };
  });
}

/**
 * A new token for the worker (returned once): the old token, the sessions opened with it
 * and the sign-in links made under it stop working. A revoked worker is active again.
 */
export async function operatorRotateWorkerToken(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  workerId: string,
): Promise<{ worker: IssuedWorker; reactivated: boolean }> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const before = await requireWorker(tx, workerId);
    const worker = await rotateWorkerToken(tx, clock, workerId);
    const reactivated = before.revokedAt !== null;
    await recordOperatorAction(
      tx,
      actor,
      {
        action: 'worker.token_rotated',
        target: workerId,
        details: { name: worker.name, reactivated },
      },
      now,
    );
    return { worker, reactivated };
  });
}

/**
 * Revokes the worker: its token, sessions and links stop working; its accounts stay
 * assigned until moved. `changed` is false (and nothing recorded) when it already was.
 */
export async function operatorRevokeWorker(
  db: Db,
  clock: Clock,
  actor: OperatorActor,
  workerId: string,
): Promise<{ worker: WorkerInfo; changed: boolean }> {
  const now = clock.now();
  return db.transaction().execute(async (tx) => {
    const before = await requireWorker(tx, workerId);
    if (before.revokedAt !== null) return { worker: before, changed: false };
    const worker = await revokeWorker(tx, clock, workerId);
    await recordOperatorAction(
      tx,
      actor,
      {
        action: 'worker.revoked',
        target: workerId,
        details: { name: worker.name, accounts: worker.accounts },
      },
      now,
    );
    return { worker, changed: true };
  });
}
