// The outbox_messages table: messages to people, waiting, sent or failed. Claims follow the
// media jobs' pattern: due rows are read with `FOR UPDATE SKIP LOCKED` (left out on SQLite,
// whose one writer at a time needs no lock) and leased in the same transaction, so each
// claim goes to one process. Every settle names the lease owner: a process whose lease ran
// out (and whose message another process took) changes nothing.
import { keysetPage } from '../../db/keyset.ts';
import type { DbOrTx, OutboxMessagesTable } from '../../db/types.ts';

/** Writes the message; false when its dedupe key was written before (nothing is written). */
export async function insertMessage(db: DbOrTx, row: OutboxMessagesTable): Promise<boolean> {
  const written = await db
    .insertInto('outbox_messages')
    .values(row)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .execute();
  return written.length > 0;
}

/** Rows written per statement: well under SQLite's bound on parameters. */
const ROWS_PER_INSERT = 500;

/** Writes the messages; those whose dedupe key was written before are left out. */
export async function insertMessages(
  db: DbOrTx,
  rows: readonly OutboxMessagesTable[],
): Promise<number> {
  let written = 0;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const part = rows.slice(i, i + ROWS_PER_INSERT);
    const ids = await db
      .insertInto('outbox_messages')
      .values([...part])
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id')
      .execute();
    written += ids.length;
  }
  return written;
}

/**
 * Up to `limit` waiting messages of `channel` due at `now` and not under a live lease, the
 * earliest due first, leased to `owner` until `leaseUntil` with their attempt counted.
 */
export async function claim(
  db: DbOrTx,
  channel: string,
  limit: number,
  owner: string,
  now: string,
  leaseUntil: string,
): Promise<OutboxMessagesTable[]> {
  return db.transaction().execute(async (tx) => {
    const due = await tx
      .selectFrom('outbox_messages')
      .select('id')
      .where('status', '=', 'waiting')
      .where('channel', '=', channel)
      .where('due_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    return tx
      .updateTable('outbox_messages')
      .set((eb) => ({
        lease_owner: owner,
        lease_until: leaseUntil,
        attempts: eb('attempts', '+', 1),
      }))
      .where(
        'id',
        'in',
        due.map((d) => d.id),
      )
      .returningAll()
      .execute();
  });
}

/** Settles a message `owner` still holds: sent, failed for good, or waiting until `dueAt`. */
export async function settle(
  db: DbOrTx,
  id: string,
  owner: string,
  change:
    | { status: 'sent'; at: string }
    | { status: 'failed'; error: string }
    | { status: 'waiting'; dueAt: string; error: string },
): Promise<boolean> {
  const set =
    change.status === 'sent'
      ? { status: 'sent', sent_at: change.at, last_error: null }
      : change.status === 'failed'
        ? { status: 'failed', last_error: change.error }
        : { status: 'waiting', due_at: change.dueAt, last_error: change.error };
  const r = await db
    .updateTable('outbox_messages')
    .set({ ...set, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** One message by id (for the outbox pages and tests). */
export async function findMessage(
  db: DbOrTx,
  id: string,
): Promise<OutboxMessagesTable | undefined> {
  return db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Waiting messages and the creation time of the oldest, for readiness and metrics. */
export async function waiting(db: DbOrTx): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('outbox_messages')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.min<string | null>('created_at').as('oldest'),
    ])
    .where('status', '=', 'waiting')
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest ?? null };
}

/**
 * Messages of some channels (mail by default) newest first, a keyset page: one company's
 * (`companyId`), the operator side's (`null`), or all of them (undefined); of one status
 * when given.
 */
export async function pageMessages(
  db: DbOrTx,
  filter: { channels?: readonly string[]; companyId?: string | null; status?: string },
  page: { before?: readonly [string, string] | null; limit: number },
): Promise<OutboxMessagesTable[]> {
  const channels = filter.channels?.length ? [...filter.channels] : ['email'];
  let q = db.selectFrom('outbox_messages').selectAll().where('channel', 'in', channels);
  if (filter.companyId === null) q = q.where('company_id', 'is', null);
  else if (filter.companyId !== undefined) q = q.where('company_id', '=', filter.companyId);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  return keysetPage(q, { after: page.before ?? null, limit: page.limit }, { desc: true }).execute();
}
