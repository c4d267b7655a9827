// What was already told, and who asked not to be told: the services the reminder passes
// call, over the module's tables (notify.repository.ts).
import type { DbOrTx, NotifyOptOutsTable } from '../../db/types.ts';
import * as repo from './notify.repository.ts';

/** A thing told about, for one occasion (an item and the window it would miss). */
export interface Mark {
  subjectId: string;
  kind: string;
  occasion: string;
  companyId: string | null;
}

/** Marks each subject told for its occasion; answers only the marks that are new. */
export function markNew(tx: DbOrTx, marks: readonly Mark[], at: string): Promise<Mark[]> {
  return repo.markNew(tx, marks, at);
}

/** Forgets marks written before `before`, whose occasions are long past. */
export function deleteMarksBefore(db: DbOrTx, before: string): Promise<void> {
  return repo.deleteMarksBefore(db, before);
}

/** The people among `ownerIds` who turned `kind` off on `channel`. */
export function optedOut(
  db: DbOrTx,
  audience: NotifyOptOutsTable['audience'],
  ownerIds: readonly string[],
  kind: string,
  channel: NotifyOptOutsTable['channel'],
): Promise<Set<string>> {
  return repo.listedIn(db, 'notify_opt_outs', audience, ownerIds, kind, channel);
}
