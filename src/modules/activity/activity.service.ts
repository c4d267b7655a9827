// The activity log (dashboard page 9): approvals, rejections, keys created and revoked, tags
// deleted, schedules changed, users managed; each entry written in the transaction of the
// change it records.
import type { DbOrTx } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './activity.repository.ts';

/** Who acted: a dashboard user, an API key, or the operator at the admin CLI. */
export interface Actor {
  /** `user:<id>`, `key:<id>` or `operator`. */
  id: string;
  /** What a person reading the log recognises: an email, a key's name and prefix. */
  label: string;
}

export const OPERATOR: Actor = { id: 'operator', label: 'operator (admin CLI)' };

export interface ActivityEntry {
  id: string;
  actor: string;
  actorLabel: string;
  action: string;
  target: string;
  detail: string | null;
  at: string;
}

export async function recordActivity(
  db: DbOrTx,
  companyId: string,
  actor: Actor,
  entry: { action: string; target: string; detail?: string | null },
  at: Date,
): Promise<void> {
  await repo.insertEntry(db, {
    id: newId('act', at.getTime()),
    company_id: companyId,
    actor: actor.id,
    actor_label: actor.label,
    action: entry.action,
    target: entry.target,
    detail: entry.detail ?? null,
    at: at.toISOString(),
  });
}

/** The company's log, newest first; `before` is the (at, id) of the last entry seen. */
export async function listActivity(
  db: DbOrTx,
  companyId: string,
  opts: { before?: [string, string]; limit: number },
): Promise<ActivityEntry[]> {
  const rows = await repo.pageEntries(db, companyId, opts);
  return rows.map((r) => ({
    id: r.id,
    actor: r.actor,
    actorLabel: r.actor_label,
    action: r.action,
    target: r.target,
    detail: r.detail,
    at: r.at,
  }));
}
