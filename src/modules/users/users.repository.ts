// The users table: the people of a company who use the dashboard.
import type { DbOrTx, UsersTable } from '../../db/types.ts';

export async function insertUser(db: DbOrTx, row: UsersTable): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

/** The user with this (lower-cased) email, of any company. */
export async function findByEmail(db: DbOrTx, email: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUser(db: DbOrTx, userId: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** The company's users, or every user with null. */
export async function listUsers(db: DbOrTx, companyId: string | null): Promise<UsersTable[]> {
  let q = db.selectFrom('users').selectAll();
  if (companyId !== null) q = q.where('company_id', '=', companyId);
  return q.orderBy('created_at').orderBy('id').execute();
}

export async function updateUser(
  db: DbOrTx,
  userId: string,
  patch: Partial<Omit<UsersTable, 'id'>>,
): Promise<boolean> {
  const res = await db.updateTable('users').set(patch).where('id', '=', userId).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The user if it belongs to the company (another company's reads as unknown). */
export async function findCompanyUser(
  db: DbOrTx,
  companyId: string,
  userId: string,
): Promise<UsersTable | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
}

/**
 * Every user of the company, locked for update in one order: changes that must leave the
 * company an enabled admin see the others' roles and states as they stay until commit.
 */
export async function lockCompanyUsers(tx: DbOrTx, companyId: string): Promise<UsersTable[]> {
  return tx
    .selectFrom('users')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** The emails of these users, of one company when given, in one read. */
/** The companies of the users with `ids` who are not disabled. */
export async function companiesOfUsers(db: DbOrTx, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select('company_id')
    .distinct()
    .where('id', 'in', [...ids])
    .where('disabled_at', 'is', null)
    .execute();
  return rows.map((r) => r.company_id);
}

export async function emailsOf(
  db: DbOrTx,
  companyId: string | undefined,
  ids: readonly string[],
): Promise<{ id: string; email: string }[]> {
  if (ids.length === 0) return [];
  let q = db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', 'in', [...ids]);
  if (companyId !== undefined) q = q.where('company_id', '=', companyId);
  return q.execute();
}
