import { randomBytes } from 'node:crypto';
import type { Db } from './types.ts';

/**
 * The signing secret shared by every process on one database: the configured
 * SLOTLINE_SECRET, or one generated on first start and kept in the database so
 * replicas agree without extra setup.
 */
export async function loadSecret(db: Db, configured: string | null): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('server_settings')
    .values({ key: 'signing_secret', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_settings')
    .select('value')
    .where('key', '=', 'signing_secret')
    .executeTakeFirstOrThrow();
  return row.value;
}
