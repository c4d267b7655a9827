// The notify module's tables: the marks of what was already told (notice_marks) and the
// people's opt-outs (notify_opt_outs).
import type { DbOrTx, NotifyOptOutsTable } from '../../db/types.ts';

/** A thing told about for one occasion (notices.service.ts Mark). */
interface Mark {
  subjectId: string;
  kind: string;
  occasion: string;
  companyId: string | null;
}

/**
 * Marks each subject told for its occasion; answers the marks that are new. A mark already
 * there (another dispatcher wrote it first, or an earlier pass) is left out, so each
 * reminder is written once.
 */
export async function markNew(tx: DbOrTx, marks: readonly Mark[], at: string): Promise<Mark[]> {
  if (marks.length === 0) return [];
  const rows = await tx
    .insertInto('notice_marks')
    .values(
      marks.map((m) => ({
        subject_id: m.subjectId,
        kind: m.kind,
        occasion: m.occasion,
        company_id: m.companyId,
        created_at: at,
      })),
    )
    .onConflict((oc) => oc.columns(['subject_id', 'kind', 'occasion']).doNothing())
    .returning(['subject_id', 'kind', 'occasion', 'company_id'])
    .execute();
  return rows.map((r) => ({
    subjectId: r.subject_id,
    kind: r.kind,
    occasion: r.occasion,
    companyId: r.company_id,
  }));
}

/** Marks of occasions long past, which nothing reads again. */
export async function deleteMarksBefore(db: DbOrTx, before: string): Promise<void> {
  await db.deleteFrom('notice_marks').where('created_at', '<', before).execute();
}

type Audience = NotifyOptOutsTable['audience'];
type Channel = NotifyOptOutsTable['channel'];

/** The owners among `ownerIds` who turned `kind` off on `channel`. */
export async function optedOut(
  db: DbOrTx,
  audience: Audience,
  ownerIds: readonly string[],
  kind: string,
  channel: Channel,
): Promise<Set<string>> {
  if (ownerIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('notify_opt_outs')
    .select('owner_id')
    .where('audience', '=', audience)
    .where('owner_id', 'in', [...ownerIds])
    .where('kind', '=', kind)
    .where('channel', '=', channel)
    .execute();
  return new Set(rows.map((r) => r.owner_id));
}

export async function insertOptOut(db: DbOrTx, row: NotifyOptOutsTable): Promise<void> {
  await db
    .insertInto('notify_opt_outs')
    .values(row)
    .onConflict((oc) => oc.columns(['audience', 'owner_id', 'kind', 'channel']).doNothing())
    .execute();
}

export async function deleteOptOut(
  db: DbOrTx,
  key: Omit<NotifyOptOutsTable, 'created_at'>,
): Promise<void> {
  await db
    .deleteFrom('notify_opt_outs')
    .where('audience', '=', key.audience)
    .where('owner_id', '=', key.owner_id)
    .where('kind', '=', key.kind)
    .where('channel', '=', key.channel)
    .execute();
}
