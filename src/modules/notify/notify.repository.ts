// The notify module's tables: the marks of what was already told (notice_marks) and the
// people's choices: opt-outs (notify_opt_outs), opt-ins and quiet hours (migration 0030).
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

/** The two tables of a person's choices: "stop these" and "send me these". */
type ChoiceTable = 'notify_opt_outs' | 'notify_opt_ins';

/**
 * The owners among `ownerIds` listed in `table` for `kind` on `channel`: those who turned
 * it off (opt-outs), or turned on a kind that is off by default (opt-ins).
 */
export async function listedIn(
  db: DbOrTx,
  table: ChoiceTable,
  audience: Audience,
  ownerIds: readonly string[],
  kind: string,
  channel: Channel,
): Promise<Set<string>> {
  if (ownerIds.length === 0) return new Set();
  const rows = await db
    .selectFrom(table)
    .select('owner_id')
    .where('audience', '=', audience)
    .where('owner_id', 'in', [...ownerIds])
    .where('kind', '=', kind)
    .where('channel', '=', channel)
    .execute();
  return new Set(rows.map((r) => r.owner_id));
}

export async function insertChoice(
  db: DbOrTx,
  table: ChoiceTable,
  row: NotifyOptOutsTable,
): Promise<void> {
  await db
    .insertInto(table)
    .values(row)
    .onConflict((oc) => oc.columns(['audience', 'owner_id', 'kind', 'channel']).doNothing())
    .execute();
}

export async function deleteChoice(
  db: DbOrTx,
  table: ChoiceTable,
  key: Omit<NotifyOptOutsTable, 'created_at'>,
): Promise<void> {
  await db
    .deleteFrom(table)
    .where('audience', '=', key.audience)
    .where('owner_id', '=', key.owner_id)
    .where('kind', '=', key.kind)
    .where('channel', '=', key.channel)
    .execute();
}

/** Quiet hours of the owners who have some, with the timezone of each person. */
export interface QuietRow {
  owner_id: string;
  quiet_start: string;
  quiet_end: string;
  /** The zone saved with the quiet hours. */
  timezone: string | null;
  /** The person's own timezone (a worker's, a user's chosen one); null for operators. */
  own_timezone: string | null;
}

export async function quietHoursOf(
  db: DbOrTx,
  audience: Audience,
  ownerIds: readonly string[],
): Promise<QuietRow[]> {
  if (ownerIds.length === 0) return [];
  const ids = [...ownerIds];
  const base = db
    .selectFrom('notify_quiet_hours as q')
    .where('q.audience', '=', audience)
    .where('q.owner_id', 'in', ids)
    .select(['q.owner_id', 'q.quiet_start', 'q.quiet_end', 'q.timezone']);
  if (audience === 'worker') {
    return base
      .leftJoin('workers as w', 'w.id', 'q.owner_id')
      .select('w.timezone as own_timezone')
      .execute();
  }
  if (audience === 'user') {
    return base
      .leftJoin('users as u', 'u.id', 'q.owner_id')
      .select('u.timezone as own_timezone')
      .execute();
  }
  return (await base.execute()).map((r) => ({ ...r, own_timezone: null }));
}

/** One person's choices: their opt-outs, opt-ins and quiet hours. */
export async function choicesOf(db: DbOrTx, audience: Audience, ownerId: string) {
  const [outs, ins, quiet] = await Promise.all([
    db
      .selectFrom('notify_opt_outs')
      .select(['kind', 'channel'])
      .where('audience', '=', audience)
      .where('owner_id', '=', ownerId)
      .execute(),
    db
      .selectFrom('notify_opt_ins')
      .select(['kind', 'channel'])
      .where('audience', '=', audience)
      .where('owner_id', '=', ownerId)
      .execute(),
    db
      .selectFrom('notify_quiet_hours')
      .selectAll()
      .where('audience', '=', audience)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst(),
  ]);
  return { outs, ins, quiet };
}

/** Replaces one person's opt-outs and opt-ins of the kinds listed, and their quiet hours. */
export async function replaceChoices(
  tx: DbOrTx,
  audience: Audience,
  ownerId: string,
  kinds: readonly string[],
  outs: readonly { kind: string; channel: Channel }[],
  ins: readonly { kind: string; channel: Channel }[],
  quiet: { start: string; end: string; timezone: string | null } | null,
  at: string,
): Promise<void> {
  for (const table of ['notify_opt_outs', 'notify_opt_ins'] as const) {
    await tx
      .deleteFrom(table)
      .where('audience', '=', audience)
      .where('owner_id', '=', ownerId)
      .where('kind', 'in', [...kinds])
      .execute();
  }
  const row = (c: { kind: string; channel: Channel }) => ({
    audience,
    owner_id: ownerId,
    kind: c.kind,
    channel: c.channel,
    created_at: at,
  });
  if (outs.length > 0) await tx.insertInto('notify_opt_outs').values(outs.map(row)).execute();
  if (ins.length > 0) await tx.insertInto('notify_opt_ins').values(ins.map(row)).execute();
  if (quiet === null) {
    await tx
      .deleteFrom('notify_quiet_hours')
      .where('audience', '=', audience)
      .where('owner_id', '=', ownerId)
      .execute();
    return;
  }
  const values = {
    quiet_start: quiet.start,
    quiet_end: quiet.end,
    timezone: quiet.timezone,
    updated_at: at,
  };
  await tx
    .insertInto('notify_quiet_hours')
    .values({ audience, owner_id: ownerId, ...values })
    .onConflict((oc) => oc.columns(['audience', 'owner_id']).doUpdateSet(values))
    .execute();
}

/** Every owner of `audience` who turned `kind` on on `channel`. */
export async function ownersOptedIn(
  db: DbOrTx,
  audience: Audience,
  kind: string,
  channel: Channel,
): Promise<string[]> {
  const rows = await db
    .selectFrom('notify_opt_ins')
    .select('owner_id')
    .where('audience', '=', audience)
    .where('kind', '=', kind)
    .where('channel', '=', channel)
    .execute();
  return rows.map((r) => r.owner_id);
}
