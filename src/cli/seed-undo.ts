// Undoing a `slotline seed demo` that failed part-way: the demo company goes with
// everything it owns, its rows in every table that has a `company_id` and the stored files
// those rows name. Rows of every module go in one transaction, so this is the one place
// that lists them all (a new table with a `company_id` left out of TENANT_TABLES fails to
// compile); it sits here, above the modules, since no module may reach all the others.
import type { AppContext } from '../context.ts';
import { CliError } from '../lib/cli-error.ts';
import type { Database } from '../db/types.ts';
import { noteAuthChange } from '../db/auth-changes.ts';
import { incomingKey, uploadThumbnailKey } from '../modules/uploads/index.ts';
import { carouselThumbnailKey, slideKey } from '../modules/posts/index.ts';
import { deleteIdleWorker } from '../modules/workers/index.ts';

type TenantTable = {
  [T in keyof Database]: Database[T] extends { company_id: string } ? T : never;
}[keyof Database];

/** Rows before the rows their foreign keys reference; `companies` itself comes last. */
const TENANT_TABLES = [
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_events',
  'webhook_endpoints',
  'post_analytics',
  'account_stats',
  'releases',
  'delivery_days',
  'account_status_events',
  'media_jobs',
  'post_content_groups',
  'queue_items',
  'posts',
  'idempotency_keys',
  'uploads',
  'image_packs',
  'images',
  'image_folders',
  'content_tags',
  'sessions',
  'user_links',
  'users',
  'activity_log',
  'usage_counters',
  'api_keys',
  'accounts',
] as const satisfies readonly TenantTable[];

type Unlisted = Exclude<TenantTable, (typeof TENANT_TABLES)[number]>;
// Names the table missing from TENANT_TABLES in the compiler's error.
const _everyTableListed: [Unlisted] extends [never] ? true : Unlisted = true;

/** Files deleted at once. */
const DELETE_BATCH = 8;

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export interface PurgeResult {
  /** Whether the company existed. */
  removed: boolean;
  /** Stored files that could not be deleted (their rows are gone all the same). */
  fileErrors: string[];
}

/**
 * Every key the company's rows name, and the keys work in progress writes before it records
 * them (an upload's incoming object and thumbnail, a carousel's slides), so files written
 * by a step that failed before its row changed go too.
 */
async function storedKeys(ctx: AppContext, companyId: string): Promise<string[]> {
  const keys = new Set<string>();
  const uploads = await ctx.db
    .selectFrom('uploads')
    .select(['id', 'blob_key', 'thumbnail_key'])
    .where('company_id', '=', companyId)
    .execute();
  for (const u of uploads) {
    keys.add(u.blob_key);
    if (u.thumbnail_key) keys.add(u.thumbnail_key);
    keys.add(incomingKey(companyId, u.id));
    keys.add(uploadThumbnailKey(u.id));
  }
  const images = await ctx.db
    .selectFrom('images')
    .select('blob_key')
    .where('company_id', '=', companyId)
    .execute();
  for (const i of images) keys.add(i.blob_key);
  const posts = await ctx.db
    .selectFrom('posts')
    .select(['id', 'company_id', 'slides', 'media_keys', 'thumbnail_key'])
    .where('company_id', '=', companyId)
    .execute();
  for (const p of posts) {
    for (const key of p.media_keys ? (JSON.parse(p.media_keys) as string[]) : []) keys.add(key);
    if (p.thumbnail_key) keys.add(p.thumbnail_key);
    if (p.slides) {
      const count = (JSON.parse(p.slides) as unknown[]).length;
      for (let i = 0; i < count; i++) keys.add(slideKey(p, i));
      keys.add(carouselThumbnailKey(p));
    }
  }
  return [...keys];
}

/**
 * Deletes the company's rows in one transaction, then its files. A file that cannot be
 * deleted is reported rather than thrown: no row names it any more, so it is unreachable.
 */
export async function purgeCompany(ctx: AppContext, companyId: string): Promise<PurgeResult> {
  const keys = await storedKeys(ctx, companyId);
  const removed = await ctx.db.transaction().execute(async (tx) => {
    for (const table of TENANT_TABLES) {
      await tx.deleteFrom(table).where('company_id', '=', companyId).execute();
    }
    const gone = await tx.deleteFrom('companies').where('id', '=', companyId).executeTakeFirst();
    // Its API keys are gone: no verified key of it may be kept.
    noteAuthChange(tx);
    return Number(gone.numDeletedRows) > 0;
  });
  const fileErrors: string[] = [];
  // A few at a time: an unreachable store then costs a few retry rounds, not one per file.
  for (let i = 0; i < keys.length; i += DELETE_BATCH) {
    const batch = keys.slice(i, i + DELETE_BATCH);
    const outcomes = await Promise.allSettled(batch.map((key) => ctx.blobs.delete(key)));
    outcomes.forEach((o, j) => {
      if (o.status === 'rejected') fileErrors.push(`${batch[j]}: ${errorText(o.reason)}`);
    });
  }
  return { removed, fileErrors };
}

/** A seed that failed; what it had made is removed first. The CLI prints it on one line. */
export class SeedError extends CliError {}

/** What a seed has made so far that undoing it must remove. */
export interface Made {
  companyId?: string;
  workerId?: string;
}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim() || (err as Error).name || 'unknown error';
}

/** Removes what a failed seed made; the error to report, saying what was undone. */
export async function undo(ctx: AppContext, made: Made, cause: unknown): Promise<SeedError> {
  const failed = `seed demo failed: ${oneLine(cause)}`;
  if (!made.companyId) return new SeedError(`${failed}; nothing was made`, { cause });
  const what = `demo company ${made.companyId}`;
  try {
    const purged = await purgeCompany(ctx, made.companyId);
    if (made.workerId) await deleteIdleWorker(ctx.db, made.workerId);
    const files = purged.fileErrors.length;
    return new SeedError(
      files === 0
        ? `${failed}; ${what} and everything made for it were removed`
        : `${failed}; ${what} was removed, but ${files} of its stored files could not be deleted (${purged.fileErrors[0]})`,
      { cause },
    );
  } catch (err) {
    return new SeedError(
      `${failed}; removing ${what} failed too (${oneLine(err)}): it is left behind`,
      { cause },
    );
  }
}
