// The companies table: the tenant rows every other table hangs off.
import { sql } from 'kysely';
import { keysetPage } from '../../db/keyset.ts';
import { param, prepared } from '../../db/prepared.ts';
import type { CompaniesTable, Db, DbOrTx } from '../../db/types.ts';
import { noteAuthChange } from '../../db/auth-changes.ts';

export async function insertCompany(db: DbOrTx, row: CompaniesTable): Promise<void> {
  await db.insertInto('companies').values(row).execute();
}

/** Applies the patch; returns whether the company exists. */
export async function updateCompany(
  db: DbOrTx,
  companyId: string,
  patch: Partial<CompaniesTable>,
): Promise<boolean> {
  const res = await db
    .updateTable('companies')
    .set(patch)
    .where('id', '=', companyId)
    .executeTakeFirst();
  // The plan and the suspension are part of every verified key's principal.
  if (patch.plan !== undefined || patch.suspended_at !== undefined) noteAuthChange(db);
  return Number(res.numUpdatedRows) > 0;
}

const companyById = prepared((db: Db) =>
  db.selectFrom('companies').selectAll().where('id', '=', param('id')),
);

export async function findCompany(
  db: DbOrTx,
  companyId: string,
): Promise<CompaniesTable | undefined> {
  return (await companyById(db, { id: companyId }))[0];
}

/** The company row locked for update, for writes bounded by its plan. */
export async function lockCompany(
  tx: DbOrTx,
  companyId: string,
): Promise<CompaniesTable | undefined> {
  return tx
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', companyId)
    .forUpdate()
    .executeTakeFirst();
}

export async function listCompanies(db: DbOrTx): Promise<CompaniesTable[]> {
  return db.selectFrom('companies').selectAll().orderBy('created_at').execute();
}

/** The companies with these ids (those that exist). */
export async function findCompanies(
  db: DbOrTx,
  companyIds: readonly string[],
): Promise<CompaniesTable[]> {
  if (companyIds.length === 0) return [];
  return db.selectFrom('companies').selectAll().where('id', 'in', companyIds).execute();
}

/**
 * A page of companies, newest first, after the (created_at, id) of the last one seen;
 * `nameContains` keeps those whose name holds the text, whatever its case.
 */
export async function pageCompanies(
  db: DbOrTx,
  opts: { before?: [string, string]; limit: number; nameContains?: string },
): Promise<CompaniesTable[]> {
  let q = keysetPage(
    db.selectFrom('companies').selectAll(),
    { after: opts.before, limit: opts.limit },
    { desc: true },
  );
  if (opts.nameContains) {
    const pattern = `%${opts.nameContains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
  }
  return q.execute();
}
