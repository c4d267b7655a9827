import type { DbOrTx } from '../../db/types.ts';
import { param, prepared } from '../../db/prepared.ts';
import { noteAuthChange } from '../../db/auth-changes.ts';

export interface KeyRow {
  id: string;
  company_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface KeyWithPlan {
  id: string;
  company_id: string;
  key_hash: string;
  scopes: string;
  revoked_at: string | null;
  plan: string;
  /** The company's suspension: a suspended company's keys are refused. */
  suspended_at: string | null;
}

export async function insertKey(db: DbOrTx, row: KeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

// Runs on every authenticated request.
const byPrefix = prepared((db) =>
  db
    .selectFrom('api_keys')
    .innerJoin('companies', 'companies.id', 'api_keys.company_id')
    .select([
      'api_keys.id',
      'api_keys.company_id',
      'api_keys.key_hash',
      'api_keys.scopes',
      'api_keys.revoked_at',
      'companies.plan',
      'companies.suspended_at',
    ])
    .where('api_keys.prefix', '=', param('prefix')),
);

/** The key with this visible prefix and its company's plan and suspension, for authentication. */
export async function findKeyByPrefix(
  db: DbOrTx,
  prefix: string,
): Promise<KeyWithPlan | undefined> {
  return (await byPrefix(db, { prefix }))[0];
}

export async function listKeys(db: DbOrTx, companyId: string | null): Promise<KeyRow[]> {
  let q = db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id');
  if (companyId) q = q.where('company_id', '=', companyId);
  return q.execute();
}

export async function revokeKey(db: DbOrTx, id: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  noteAuthChange(db);
  return Number(res.numUpdatedRows) > 0;
}

export async function findKey(db: DbOrTx, id: string): Promise<KeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findCompanyKey(
  db: DbOrTx,
  companyId: string,
  id: string,
): Promise<KeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Moves the key's last use forward to `at` (never back: replicas flush in any order). */
export async function noteUsed(db: DbOrTx, id: string, at: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
    .execute();
}
