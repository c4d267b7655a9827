// The outbox table: events written with their change, claimed once for fan-out.
import { sql } from 'kysely';
import { bind, params, perLength, prepared } from '../../db/prepared.ts';
import type { Db, DbOrTx, WebhookEventsTable } from '../../db/types.ts';

/** Rows per insert statement: far under either dialect's parameter limit (6 values each). */
const ROWS_PER_INSERT = 500;

/** An enabled endpoint of the event's company wants its type (`v` is the event row). */
const SUBSCRIBED = sql`exists (
  select 1 from webhook_endpoints e
  where e.company_id = v.company_id and e.disabled_at is null
    and e.event_types like '%"' || v.type || '"%')`;

/**
 * Writes the events that some enabled endpoint of their company subscribes to, in one
 * statement per 500: a change in a company without such an endpoint costs one indexed
 * look-up and leaves nothing to fan out or prune. Returns the rows written.
 */
export async function insertEvents(
  db: DbOrTx,
  rows: readonly WebhookEventsTable[],
): Promise<number> {
  let written = 0;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const values = sql.join(
      rows
        .slice(i, i + ROWS_PER_INSERT)
        .map(
          (r) =>
            sql`(${r.id}, ${r.company_id}, ${r.type}, ${r.data}, ${r.created_at}, ${r.available_at})`,
        ),
    );
    const result = await sql`
      with v (id, company_id, type, data, created_at, available_at) as (values ${values})
      insert into webhook_events (id, company_id, type, data, created_at, available_at)
      select id, company_id, type, data, created_at, available_at from v where ${SUBSCRIBED}`.execute(
      db,
    );
    written += Number(result.numAffectedRows ?? 0n);
  }
  return written;
}

function listeningQuery(db: DbOrTx, companyIds: readonly string[]) {
  return db
    .selectFrom('webhook_endpoints')
    .select('company_id')
    .distinct()
    .where('company_id', 'in', companyIds)
    .where('disabled_at', 'is', null);
}

/** Lists up to this many companies run compiled once per length; longer ones are built. */
const PREPARED_LISTENING = 32;
// Every change that records events asks this first (a post create, once), so the usual
// short lists skip the query builder.
const listeningQueries = perLength((n) =>
  prepared((db: Db) => listeningQuery(db, params('company', n))),
);

/** Which of the companies have an enabled endpoint. */
export async function companiesListening(
  db: DbOrTx,
  companyIds: readonly string[],
): Promise<Set<string>> {
  if (companyIds.length === 0) return new Set();
  const rows =
    companyIds.length <= PREPARED_LISTENING
      ? await listeningQueries(companyIds.length)(db, bind('company', companyIds, {}))
      : await listeningQuery(db, companyIds).execute();
  return new Set(rows.map((r) => r.company_id));
}

/** Whether an enabled endpoint of the company subscribes to the type. */
export async function subscribed(db: DbOrTx, companyId: string, type: string): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`
    select 1 as one from (select ${companyId} as company_id, ${type} as type) v
    where ${SUBSCRIBED}`.execute(db);
  return rows.length > 0;
}

/**
 * A coalesced event: inserted, or, while the one already waiting under its key has not
 * gone out, that one's data replaced by the newer data. Returns false when the key is
 * held by an event already fanned out (the caller then uses the next interval's key).
 */
export async function upsertCoalesced(db: DbOrTx, row: WebhookEventsTable): Promise<boolean> {
  const result = await db
    .insertInto('webhook_events')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('coalesce_key')
        .doUpdateSet({ data: (eb) => eb.ref('excluded.data') })
        .where('webhook_events.fanned_out_at', 'is', null),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/**
 * Up to `limit` events due for fan-out, oldest first. On PostgreSQL the rows are locked and
 * rows another transaction holds are skipped, so two replicas never fan out one event.
 */
export async function claimUnsent(
  tx: DbOrTx,
  now: string,
  limit: number,
): Promise<WebhookEventsTable[]> {
  const q = tx
    .selectFrom('webhook_events')
    .selectAll()
    .where('fanned_out_at', 'is', null)
    .where('available_at', '<=', now)
    .orderBy('available_at')
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return q.execute();
}

export async function markFannedOut(tx: DbOrTx, ids: readonly string[], at: string): Promise<void> {
  if (ids.length) {
    await tx
      .updateTable('webhook_events')
      .set({ fanned_out_at: at })
      .where('id', 'in', [...ids])
      .execute();
  }
}

export async function findEvent(
  db: DbOrTx,
  companyId: string,
  eventId: string,
): Promise<WebhookEventsTable | undefined> {
  return db
    .selectFrom('webhook_events')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', eventId)
    .executeTakeFirst();
}

/** The company's events of the given types created at or after `since`, oldest first. */
export async function eventsSince(
  db: DbOrTx,
  companyId: string,
  types: readonly string[],
  since: string,
  before: string,
  limit: number,
): Promise<WebhookEventsTable[]> {
  if (types.length === 0) return [];
  return db
    .selectFrom('webhook_events')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('created_at', '>=', since)
    .where('created_at', '<=', before)
    .where('type', 'in', [...types])
    .where('fanned_out_at', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function eventsByIds(
  db: DbOrTx,
  ids: readonly string[],
): Promise<WebhookEventsTable[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_events')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** Deletes events older than `before` that have gone out (their deliveries cascade). */
export async function pruneEvents(db: DbOrTx, before: string, limit: number): Promise<number> {
  const ids = await db
    .selectFrom('webhook_events')
    .select('id')
    .where('created_at', '<', before)
    .where('fanned_out_at', 'is not', null)
    .limit(limit)
    .execute();
  if (ids.length === 0) return 0;
  const list = ids.map((r) => r.id);
  await db.deleteFrom('webhook_attempts').where('event_id', 'in', list).execute();
  await db.deleteFrom('webhook_deliveries').where('event_id', 'in', list).execute();
  await db.deleteFrom('webhook_events').where('id', 'in', list).execute();
  return list.length;
}

/** One event written as it is, whoever subscribes (the test event of one endpoint). */
export async function insertEvent(db: DbOrTx, row: WebhookEventsTable): Promise<void> {
  await db.insertInto('webhook_events').values(row).execute();
}

/** The company's events among `ids` (a page of the delivery log). */
export async function companyEventsByIds(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<WebhookEventsTable[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_events')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
}
