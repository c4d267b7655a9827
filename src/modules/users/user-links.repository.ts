// The user_links table: one-time sign-in links of company users (invitations), keyed by
// the digest of the link's token.
import type { DbOrTx, UserLinksTable } from '../../db/types.ts';

export async function insertLink(db: DbOrTx, row: UserLinksTable): Promise<void> {
  await db.insertInto('user_links').values(row).execute();
}

export async function findLink(db: DbOrTx, id: string): Promise<UserLinksTable | undefined> {
  return db.selectFrom('user_links').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks the link used, once: false when it was used (or expired) already. */
export async function useLink(db: DbOrTx, id: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('user_links')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Ends every unused link of the user (a newer one replaces them). */
export async function expireLinksOfUser(db: DbOrTx, userId: string, at: string): Promise<void> {
  await db
    .updateTable('user_links')
    .set({ expires_at: at })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .execute();
}

/** The newest link of each of these users (users without one are left out). */
export async function latestLinksOf(
  db: DbOrTx,
  userIds: readonly string[],
): Promise<UserLinksTable[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('user_links')
    .selectAll()
    .where('user_id', 'in', userIds)
    .orderBy('created_at')
    .execute();
  const latest = new Map<string, UserLinksTable>();
  for (const row of rows) latest.set(row.user_id, row);
  return [...latest.values()];
}
