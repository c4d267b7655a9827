// What a database holds besides its settings: for checking that an undone operation
// (a failed `slotline seed demo`) left no row behind in a fresh database.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, Db } from '../../src/db/types.ts';

const TABLES = [
  'companies',
  'api_keys',
  'accounts',
  'account_status_events',
  'content_tags',
  'usage_counters',
  'image_folders',
  'images',
  'image_packs',
  'releases',
  'workers',
  'uploads',
  'posts',
  'post_content_groups',
  'queue_items',
  'idempotency_keys',
  'post_analytics',
  'account_stats',
  'users',
  'sessions',
  'sign_in_attempts',
  'worker_sessions',
  'activity_log',
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
  'webhook_attempts',
] as const satisfies readonly Exclude<keyof Database, 'server_settings'>[];

/** The tables holding any row, with their counts; `{}` when all are empty. */
export async function rowsLeft(db: Db): Promise<Record<string, number>> {
  const left: Record<string, number> = {};
  for (const table of TABLES) {
    const { n } = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) > 0) left[table] = Number(n);
  }
  return left;
}

/** Every file under `dir`, relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** Tables with a company_id whose rows the post tests count. */
type CompanyTable =
  | 'posts'
  | 'queue_items'
  | 'post_content_groups'
  | 'idempotency_keys'
  | 'webhook_events'
  | 'activity_log';

/** How many rows of one company a table holds. */
export async function companyRows(db: Db, table: CompanyTable, companyId: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
