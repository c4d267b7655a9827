// Workers (DECISIONS 6): the people or automations operating accounts. Each has an IANA
// timezone, which becomes the timezone of every account it operates (DECISIONS 5), and a
// token of its own for the worker API, stored like API keys: a SHA-256 digest of the whole
// secret beside a visible prefix, compared in constant time. Managed from the admin CLI.
import * as accountWorkers from '../accounts/index.ts';
import type { WorkerPrincipal } from '../../access.ts';
import type { Db, DbOrTx } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { safeEqual, sha256 } from '../../lib/crypto.ts';
import { newId, randomToken } from '../../lib/ids.ts';
import { validTimezone } from '../../schedule/local-time.ts';
import { endSessionsOf } from '../sign-in/index.ts';
import * as repo from './workers.repository.ts';
import { CliError } from '../../lib/cli-error.ts';

const TOKEN_PATTERN = /^slw_([0-9a-z]{12})_([0-9a-z]{32})$/;
/** The longest worker name, in characters. */
export const MAX_WORKER_NAME = 80;

/** Operator mistakes in worker administration; the CLI prints them without a stack trace. */
export class WorkerError extends CliError {}

export interface WorkerInfo {
  workerId: string;
  name: string;
  timezone: string;
  tokenPrefix: string;
  simulated: boolean;
  accounts: number;
  createdAt: string;
  lastSeenAt: string | null;
  revokedAt: string | null;
}

export interface IssuedWorker extends WorkerInfo {
  /** The full token; shown once and never stored. */
  token: string;
}

/** The worker behind a verified token. */
function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > MAX_WORKER_NAME) {
    throw new WorkerError(`worker name must be 1-${MAX_WORKER_NAME} characters`);
  }
  return trimmed;
}

/** Whether `timezone` is an IANA timezone a worker may have. */
export function isWorkerTimezone(timezone: string): boolean {
  return validTimezone(timezone);
}

function checkTimezone(timezone: string): string {
  if (!validTimezone(timezone)) {
    throw new WorkerError(`"${timezone}" is not an IANA timezone (e.g. Europe/Berlin)`);
  }
  return timezone;
}

function newToken(): { prefix: string; token: string; hash: string } {
  const prefix = randomToken(8).slice(0, 12);
  const token = `slw_${prefix}_${randomToken(20).slice(0, 32)}`;
  return { prefix, token, hash: sha256(token).toString('hex') };
}

function info(row: repo.WorkerRow, accounts: number): WorkerInfo {
  return {
    workerId: row.id,
    name: row.name,
    timezone: row.timezone,
    tokenPrefix: row.token_prefix,
    simulated: row.simulated === 1,
    accounts,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    revokedAt: row.revoked_at,
  };
}

/** Runs `fn` in the caller's transaction, or in one of its own. */
function atomically<T>(db: DbOrTx, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

async function requireWorker(db: DbOrTx, workerId: string): Promise<repo.WorkerRow> {
  const row = await repo.findWorker(db, workerId);
  if (!row) throw new WorkerError(`worker ${workerId} does not exist`);
  return row;
}

export async function createWorker(
  db: DbOrTx,
  clock: Clock,
  input: { name: string; timezone: string; simulated?: boolean },
): Promise<IssuedWorker> {
  const name = checkName(input.name);
  const timezone = checkTimezone(input.timezone);
  const at = clock.now().toISOString();
  const { prefix, token, hash } = newToken();
  const row: repo.WorkerRow = {
    id: newId('wrk'),
    name,
    timezone,
    token_prefix: prefix,
    token_hash: hash,
    simulated: input.simulated ? 1 : 0,
    created_at: at,
    updated_at: at,
    last_seen_at: null,
    revoked_at: null,
  };
  await repo.insertWorker(db, row);
  return { ...info(row, 0), token };
}

export async function listWorkers(db: DbOrTx): Promise<WorkerInfo[]> {
  const rows = await repo.listWorkers(db);
  return rows.map((r) => info(r, Number(r.accounts)));
}

export async function getWorker(db: DbOrTx, workerId: string): Promise<WorkerInfo> {
  const row = await requireWorker(db, workerId);
  return info(row, (await accountWorkers.accountsOfWorker(db, workerId)).length);
}

/**
 * Renames a worker or moves it to another timezone, and its accounts with it; in the
 * caller's transaction when given one.
 */
export async function updateWorker(
  db: DbOrTx,
  clock: Clock,
  workerId: string,
  input: { name?: string; timezone?: string },
): Promise<WorkerInfo> {
  const name = input.name === undefined ? undefined : checkName(input.name);
  const timezone = input.timezone === undefined ? undefined : checkTimezone(input.timezone);
  const at = clock.now().toISOString();
  await atomically(db, async (tx) => {
    const row = await repo.findWorker(tx, workerId);
    if (!row) throw new WorkerError(`worker ${workerId} does not exist`);
    await repo.updateWorker(tx, workerId, {
      ...(name !== undefined ? { name } : {}),
      ...(timezone !== undefined ? { timezone } : {}),
      updated_at: at,
    });
    if (timezone !== undefined)
      await accountWorkers.setTimezoneOfWorkerAccounts(tx, workerId, timezone, at);
  });
  return getWorker(db, workerId);
}

/**
 * A new token for the worker; the old one stops working at once, with the sessions and
 * sign-in links made under it. A revoked worker is active again with the new token.
 */
export async function rotateWorkerToken(
  db: DbOrTx,
  clock: Clock,
  workerId: string,
): Promise<IssuedWorker> {
  await requireWorker(db, workerId);
  const { prefix, token, hash } = newToken();
  await atomically(db, async (tx) => {
    await repo.updateWorker(tx, workerId, {
      token_prefix: prefix,
      token_hash: hash,
      revoked_at: null,
      updated_at: clock.now().toISOString(),
    });
    // Sessions opened with the old token end with it.
    await endSessionsOf(tx, 'worker', workerId);
  });
  return { ...(await getWorker(db, workerId)), token };
}

/** Revokes the worker's token; its accounts stay assigned until moved to another worker. */
export async function revokeWorker(
  db: DbOrTx,
  clock: Clock,
  workerId: string,
): Promise<WorkerInfo> {
  const row = await requireWorker(db, workerId);
  if (row.revoked_at === null) {
    const at = clock.now().toISOString();
    await repo.updateWorker(db, workerId, { revoked_at: at, updated_at: at });
  }
  // The workers' page also checks on every request; this only drops the rows now.
  await endSessionsOf(db, 'worker', workerId);
  return getWorker(db, workerId);
}

/**
 * Deletes a worker that operates no account, with its sign-ins: undoing one just made (by
 * a demo seed that failed). A worker that has worked is revoked instead (revokeWorker), so
 * the tasks it claimed still name it.
 */
export async function deleteIdleWorker(db: Db, workerId: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const accounts = await accountWorkers.accountsOfWorker(tx, workerId);
    if (accounts.length > 0) {
      throw new WorkerError(`worker ${workerId} still operates ${accounts.length} account(s)`);
    }
    await endSessionsOf(tx, 'worker', workerId);
    await repo.deleteWorker(tx, workerId);
  });
}

/**
 * Hands accounts to a worker (or takes them from their worker, `workerId` null). Assigned
 * accounts take the worker's timezone; their future windows follow it (SPEC 4.5 rule 4).
 * In the caller's transaction when given one.
 */
export async function assignAccounts(
  db: DbOrTx,
  clock: Clock,
  workerId: string | null,
  accountIds: readonly string[],
): Promise<WorkerInfo | null> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) throw new WorkerError('name at least one account');
  const at = clock.now().toISOString();
  await atomically(db, async (tx) => {
    const worker = workerId === null ? null : await repo.findWorker(tx, workerId);
    if (workerId !== null && !worker) throw new WorkerError(`worker ${workerId} does not exist`);
    if (worker?.revoked_at) throw new WorkerError(`worker ${workerId} is revoked`);
    const found = new Set((await accountWorkers.findAccountsByIds(tx, ids)).map((a) => a.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw new WorkerError(`account(s) ${missing.join(', ')} do not exist`);
    await accountWorkers.assignAccounts(tx, ids, worker ?? null, at);
  });
  return workerId === null ? null : getWorker(db, workerId);
}

/** The worker behind a bearer token, or null for anything not a live worker token. */
export async function verifyWorkerToken(db: Db, token: string): Promise<WorkerPrincipal | null> {
  const m = TOKEN_PATTERN.exec(token);
  if (!m) return null;
  const row = await repo.findWorkerByPrefix(db, m[1] as string);
  // Hash even when the prefix is unknown so timing does not tell the two apart.
  const digest = sha256(token);
  if (!row || !safeEqual(digest, Buffer.from(row.token_hash, 'hex'))) return null;
  if (row.revoked_at !== null) return null;
  return { workerId: row.id, name: row.name, timezone: row.timezone };
}

/** The simulated workers the built-in simulator plays (DECISIONS 6), not revoked. */
export async function listSimulatedWorkers(db: Db): Promise<WorkerPrincipal[]> {
  const rows = await repo.simulatedWorkers(db);
  return rows.map((r) => ({ workerId: r.id, name: r.name, timezone: r.timezone }));
}

/** Workers' names by id, in one read; a worker since deleted is left out. */
export async function workerNames(
  db: DbOrTx,
  workerIds: readonly string[],
): Promise<Map<string, string>> {
  const ids = [...new Set(workerIds)];
  return new Map((await repo.namesOf(db, ids)).map((w) => [w.id, w.name]));
}
