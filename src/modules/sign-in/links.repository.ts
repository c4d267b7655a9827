// The sign-in link tables of the three audiences (user_links, operator_links,
// worker_sign_in_links): one-time links keyed by the digest of their token. The tables
// share the columns read and written here and differ in the owner's column and what each
// kind adds (a company, a token prefix). The builder is typed as the company users'
// table (audiences.rules.ts).
import type { DbOrTx, UserLinksTable } from '../../db/types.ts';
import { linkTable, ownerColumn, type Audience, type LinkRows } from './audiences.rules.ts';

export async function insertLink<A extends Audience>(
  db: DbOrTx,
  audience: A,
  row: LinkRows[A],
): Promise<void> {
  await db
    .insertInto(linkTable(audience))
    .values(row as unknown as UserLinksTable)
    .execute();
}

export async function findLink<A extends Audience>(
  db: DbOrTx,
  audience: A,
  id: string,
): Promise<LinkRows[A] | undefined> {
  const row = await db
    .selectFrom(linkTable(audience))
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row as LinkRows[A] | undefined;
}

/** Marks the link used, once: false when it was used (or expired) already. */
export async function useLink(
  db: DbOrTx,
  audience: Audience,
  id: string,
  at: string,
): Promise<boolean> {
  const res = await db
    .updateTable(linkTable(audience))
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Ends every unused link of the owner (a newer one replaces them, a reset, a disable). */
export async function expireLinksOf(
  db: DbOrTx,
  audience: Audience,
  ownerId: string,
  at: string,
): Promise<void> {
  await db
    .updateTable(linkTable(audience))
    .set({ expires_at: at })
    .where(ownerColumn(audience), '=', ownerId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .execute();
}

/** The newest link of each of these owners (owners without one are left out). */
export async function latestLinksOf<A extends Audience>(
  db: DbOrTx,
  audience: A,
  ownerIds: readonly string[],
): Promise<LinkRows[A][]> {
  if (ownerIds.length === 0) return [];
  const rows = await db
    .selectFrom(linkTable(audience))
    .selectAll()
    .where(ownerColumn(audience), 'in', ownerIds)
    .orderBy('created_at')
    .execute();
  const latest = new Map<string, LinkRows[A]>();
  const column = ownerColumn(audience);
  for (const row of rows) latest.set(row[column], row as unknown as LinkRows[A]);
  return [...latest.values()];
}

/** Drops links used or past their expiry. */
export async function deleteSpentLinks(db: DbOrTx, audience: Audience, at: string): Promise<void> {
  await db
    .deleteFrom(linkTable(audience))
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', at)]))
    .execute();
}
