// chat_hooks: every read and write names the side it belongs to, a company's id or null
// for the operator side, so one company's hook is never reached through another's.
import type { ExpressionBuilder } from 'kysely';
import type { ChatHooksTable, Database, DbOrTx } from '../../db/types.ts';

/** The condition of one side: the company's hooks, or the operator side's. */
function onSide(companyId: string | null) {
  return (eb: ExpressionBuilder<Database, 'chat_hooks'>) =>
    companyId === null ? eb('company_id', 'is', null) : eb('company_id', '=', companyId);
}

export async function insertHook(db: DbOrTx, row: ChatHooksTable): Promise<void> {
  await db.insertInto('chat_hooks').values(row).execute();
}

export async function findHook(
  db: DbOrTx,
  companyId: string | null,
  id: string,
): Promise<ChatHooksTable | undefined> {
  return db
    .selectFrom('chat_hooks')
    .selectAll()
    .where(onSide(companyId))
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The side's hooks, oldest first. */
export async function listHooks(db: DbOrTx, companyId: string | null): Promise<ChatHooksTable[]> {
  return db
    .selectFrom('chat_hooks')
    .selectAll()
    .where(onSide(companyId))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The side's hooks with these ids (for naming the recipients of outbox rows). */
export async function hooksWithIds(
  db: DbOrTx,
  companyId: string | null,
  ids: readonly string[],
): Promise<Pick<ChatHooksTable, 'id' | 'label' | 'url_hint'>[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('chat_hooks')
    .select(['id', 'label', 'url_hint'])
    .where(onSide(companyId))
    .where('id', 'in', [...ids])
    .execute();
}

export async function countHooks(db: DbOrTx, companyId: string | null): Promise<number> {
  const row = await db
    .selectFrom('chat_hooks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(onSide(companyId))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateHook(
  db: DbOrTx,
  companyId: string | null,
  id: string,
  set: Partial<Omit<ChatHooksTable, 'id' | 'company_id' | 'created_at'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('chat_hooks')
    .set(set)
    .where(onSide(companyId))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteHook(
  db: DbOrTx,
  companyId: string | null,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('chat_hooks')
    .where(onSide(companyId))
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The companies with a working hook that chose `kind` (kinds are a JSON list of names). */
export async function companiesWithKind(db: DbOrTx, kind: string): Promise<string[]> {
  const rows = await db
    .selectFrom('chat_hooks')
    .select('company_id')
    .distinct()
    .where('company_id', 'is not', null)
    .where('failing_since', 'is', null)
    .where('kinds', 'like', `%"${kind}"%`)
    .execute();
  return rows.map((r) => r.company_id as string);
}
