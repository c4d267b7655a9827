// The operator log: every operator action (who, what, when), written in the transaction of
// the change it records; actions on a company are also in that company's activity log.
// Entries read newest first, with the names of the companies they touched.
import type { DbOrTx, OperatorsTable } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import type { Actor } from '../activity/index.ts';
import { getCompanies } from '../companies/index.ts';
import * as repo from './operator-log.repository.ts';

/** Who acted: a signed-in operator, or the admin CLI (no operator). */
export interface OperatorActor {
  operatorId: string | null;
  /** What a reader recognises: the operator's name and email. */
  label: string;
}

/** The operator as the logs name it. */
export function operatorLabel(row: Pick<OperatorsTable, 'name' | 'email'>): string {
  return `${row.name} <${row.email}>`;
}

/** The admin CLI, run by whoever holds the server's configuration. */
export const ADMIN_CLI: OperatorActor = { operatorId: null, label: 'admin CLI' };

/** How an operator appears in a company's activity log. */
export function companyActor(actor: OperatorActor): Actor {
  return actor.operatorId === null
    ? { id: 'operator', label: 'operator (admin CLI)' }
    : { id: `operator:${actor.operatorId}`, label: `${actor.label} (Slotline operator)` };
}

export type OperatorAction =
  | 'operator.created'
  | 'operator.disabled'
  | 'operator.reset'
  | 'operator.enrolled'
  | 'operator.password_recovered'
  | 'operator.signed_in'
  | 'company.created'
  | 'company.updated'
  | 'company.suspended'
  | 'company.resumed'
  | 'user.invited'
  | 'worker.created'
  | 'worker.updated'
  | 'worker.link_created'
  | 'worker.token_rotated'
  | 'worker.revoked'
  | 'accounts.assigned'
  | 'accounts.unassigned'
  | 'account.reassigned'
  | 'chat_hook.added'
  | 'chat_hook.changed'
  | 'chat_hook.removed'
  | 'chat_hook.test_sent';

export type LogDetails = Record<string, string | number | boolean | null | object>;

export async function recordOperatorAction(
  db: DbOrTx,
  actor: OperatorActor,
  entry: { action: OperatorAction; companyId?: string; target: string; details?: LogDetails },
  at: Date,
): Promise<void> {
  await repo.insertEntry(db, {
    id: newId('olg', at.getTime()),
    operator_id: actor.operatorId,
    actor_label: actor.label,
    action: entry.action,
    company_id: entry.companyId ?? null,
    target: entry.target,
    details: JSON.stringify(entry.details ?? {}),
    created_at: at.toISOString(),
  });
}

export interface OperatorLogEntry {
  id: string;
  operatorId: string | null;
  actorLabel: string;
  action: string;
  companyId: string | null;
  /** The company's name now (null when the entry touched none, or it is gone). */
  companyName: string | null;
  target: string;
  details: LogDetails;
  createdAt: string;
}

function parseDetails(text: string): LogDetails {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as LogDetails)
      : {};
  } catch {
    return {};
  }
}

/**
 * The log newest first; `before` is the (createdAt, id) of the last entry seen; with a
 * company, only the entries that touched it.
 */
export async function listOperatorLog(
  db: DbOrTx,
  opts: { before?: [string, string]; limit: number; companyId?: string },
): Promise<OperatorLogEntry[]> {
  const rows = await repo.pageEntries(db, opts);
  const companies = await getCompanies(
    db,
    rows.flatMap((r) => (r.company_id ? [r.company_id] : [])),
  );
  return rows.map((r) => ({
    id: r.id,
    operatorId: r.operator_id,
    actorLabel: r.actor_label,
    action: r.action,
    companyId: r.company_id,
    companyName: r.company_id ? (companies.get(r.company_id)?.name ?? null) : null,
    target: r.target,
    details: parseDetails(r.details),
    createdAt: r.created_at,
  }));
}
