// Content tags (SPEC 2.4, 4.3): company-scoped labels attributed to posts for
// analytics. Names are unique per company, compared case-insensitively.
import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/types.ts';
import type { AppContext } from '../../context.ts';
import type { ContentTagsTable, DbOrTx } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { ApiError } from '../../errors.ts';
import { cursorScope } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import * as groups from './content-groups.repository.ts';
import { recordActivity, type Actor } from '../activity/index.ts';
import type { KeyedRead } from '../../db/versioned-memo.ts';
import type {
  ContentTagOut,
  CreateTagInput,
  ListTagsInput,
  TagPageOut,
  UpdateTagInput,
} from './tags.schemas.ts';
import * as repo from './tags.repository.ts';

export function contentGroupIdOf(tagId: string): string {
  return `tag:${tagId}`;
}

function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

// Rows read through the embedded database's cache are immutable and shared, so
// their API form is kept with them.
const tagOf = new WeakMap<ContentTagsTable, ContentTagOut>();

function toTag(row: ContentTagsTable): ContentTagOut {
  const known = tagOf.get(row);
  if (known) return known;
  const out = buildTag(row);
  if (Object.isFrozen(row)) tagOf.set(row, out);
  return out;
}

function buildTag(row: ContentTagsTable): ContentTagOut {
  return {
    tagId: row.id,
    contentGroupId: contentGroupIdOf(row.id),
    name: row.name,
    color: row.color as ContentTagOut['color'],
    archived: row.archived === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function nameTaken(name: string): ApiError {
  return new ApiError('tag_name_taken', `A content tag named "${name}" already exists`);
}

function notFound(tagId: string): ApiError {
  return new ApiError('tag_not_found', `Content tag ${tagId} does not exist`);
}

/** A page of tags as read; only its cursor, which carries an expiry, changes with time. */
export interface TagPageRead {
  tags: ContentTagOut[];
  /** The cursor scope, and the (created_at, id) a next page starts after; null on the last page. */
  scope: string;
  last: [string, string] | null;
}

/**
 * The page `query` asks for: its key among all pages (company, size,
 * position), and its read. Throws `invalid_cursor` at once for a cursor that
 * is not this list's.
 */
export function tagPageRead(
  ctx: AppContext,
  companyId: string,
  query: ListTagsInput,
  now: Date,
): KeyedRead<TagPageRead> {
  const limit = query.limit ?? 100;
  const scope = cursorScope(companyId, 'content-tags', {});
  const after = query.cursor
    ? (ctx.cursors.decode(scope, query.cursor, now, 2) as [string, string])
    : undefined;
  return {
    key: `${companyId}\n${limit}\n${after ? JSON.stringify(after) : ''}`,
    read: async () => {
      const rows = await repo.pageTags(ctx.db, companyId, { after, limit: limit + 1 });
      const data = rows.slice(0, limit);
      const last = data[data.length - 1];
      return {
        tags: data.map(toTag),
        scope,
        last: rows.length > limit && last ? [last.created_at, last.id] : null,
      };
    },
  };
}

/** GET /v2/content-tags as data, for callers other than the route. */
export async function listTags(
  ctx: AppContext,
  companyId: string,
  query: ListTagsInput,
): Promise<TagPageOut> {
  const now = ctx.clock.now();
  const page = await tagPageRead(ctx, companyId, query, now).read();
  return {
    data: page.tags,
    nextCursor: page.last ? ctx.cursors.encode(page.scope, page.last, now) : null,
  };
}

const ALL_TAGS_CHUNK = 500;

/** Every tag of the company, active and archived, in creation order (the dashboard's list). */
export async function listAllTags(db: DbOrTx, companyId: string): Promise<ContentTagOut[]> {
  const out: ContentTagOut[] = [];
  let after: [string, string] | undefined;
  for (;;) {
    const rows = await repo.pageTags(db, companyId, { after, limit: ALL_TAGS_CHUNK });
    out.push(...rows.map(toTag));
    const last = rows[rows.length - 1];
    if (rows.length < ALL_TAGS_CHUNK || !last) return out;
    after = [last.created_at, last.id];
  }
}

/** One tag of the company; `tag_not_found` for an unknown id or another company's. */
export async function getTag(db: Db, companyId: string, tagId: string): Promise<ContentTagOut> {
  const row = await repo.findTag(db, companyId, tagId);
  if (!row) throw notFound(tagId);
  return toTag(row);
}

/** How many posts deleting the tag would change (the dashboard's confirmation). */
export function tagPostCount(db: Db, companyId: string, tagId: string): Promise<number> {
  return groups.countPostsInGroup(db, companyId, contentGroupIdOf(tagId));
}

/** An entry of the activity log about a tag. */
type Note = { action: string; target: string; detail?: string | null };

/**
 * Runs `write`, which returns the entries describing it, in one transaction with those
 * entries when someone is to be recorded (the dashboard); the API, which records no actor,
 * keeps its single statement.
 */
async function withActivity(
  ctx: AppContext,
  companyId: string,
  actor: Actor | undefined,
  write: (db: DbOrTx) => Promise<Note[]>,
): Promise<void> {
  if (!actor) {
    await write(ctx.db);
    return;
  }
  const at = ctx.clock.now();
  await ctx.db.transaction().execute(async (tx) => {
    for (const note of await write(tx)) await recordActivity(tx, companyId, actor, note, at);
  });
}

export async function createTag(
  ctx: AppContext,
  companyId: string,
  input: CreateTagInput,
  actor?: Actor,
): Promise<ContentTagOut> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const row: ContentTagsTable = {
    id: newId('tag', now.getTime()),
    company_id: companyId,
    name: input.name,
    name_key: nameKey(input.name),
    color: input.color ?? 'slate',
    archived: 0,
    created_at: at,
    updated_at: at,
  };
  if (await repo.findTagByName(ctx.db, companyId, row.name_key)) throw nameTaken(input.name);
  try {
    await withActivity(ctx, companyId, actor, async (db) => {
      await repo.insertTag(db, row);
      return [{ action: 'tag.created', target: row.id, detail: row.name }];
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
  return toTag(row);
}

/** The activity entries of a change to a tag. */
function notesOf(existing: ContentTagsTable, patch: Partial<ContentTagsTable>): Note[] {
  const target = existing.id;
  const notes: Note[] = [];
  if (patch.name !== undefined) {
    notes.push({ action: 'tag.renamed', target, detail: `${existing.name} → ${patch.name}` });
  }
  if (patch.color !== undefined && patch.color !== existing.color) {
    notes.push({ action: 'tag.recolored', target, detail: `${existing.color} → ${patch.color}` });
  }
  if (patch.archived !== undefined && patch.archived !== existing.archived) {
    const name = patch.name ?? existing.name;
    notes.push({
      action: patch.archived ? 'tag.archived' : 'tag.unarchived',
      target,
      detail: name,
    });
  }
  return notes;
}

export async function updateTag(
  ctx: AppContext,
  companyId: string,
  tagId: string,
  input: UpdateTagInput,
  actor?: Actor,
): Promise<ContentTagOut> {
  const existing = await repo.findTag(ctx.db, companyId, tagId);
  if (!existing) throw notFound(tagId);
  const patch: Partial<ContentTagsTable> = {};
  if (input.name !== undefined && input.name !== existing.name) {
    const key = nameKey(input.name);
    const clash = await repo.findTagByName(ctx.db, companyId, key);
    if (clash && clash.id !== tagId) throw nameTaken(input.name);
    patch.name = input.name;
    patch.name_key = key;
  }
  if (input.color !== undefined) patch.color = input.color;
  if (input.archived !== undefined) patch.archived = input.archived ? 1 : 0;
  if (Object.keys(patch).length === 0) return toTag(existing);
  patch.updated_at = ctx.clock.now().toISOString();
  try {
    await withActivity(ctx, companyId, actor, async (db) => {
      await repo.updateTag(db, companyId, tagId, patch);
      return notesOf(existing, patch);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name ?? existing.name);
    throw err;
  }
  return toTag({ ...existing, ...patch });
}

/** Deletes the tag and removes its attribution from every post of the company. */
export async function deleteTag(
  db: Db,
  clock: Clock,
  companyId: string,
  tagId: string,
  actor?: Actor,
): Promise<{ tagId: string; updatedPosts: number }> {
  const at = clock.now();
  return db.transaction().execute(async (tx) => {
    const existing = actor ? await repo.findTag(tx, companyId, tagId) : undefined;
    const deleted = await repo.deleteTag(tx, companyId, tagId);
    if (!deleted) throw notFound(tagId);
    // SPEC 4.3: the tag leaves every post in the same transaction; one row per post.
    const updatedPosts = await groups.deleteGroupEverywhere(tx, companyId, contentGroupIdOf(tagId));
    if (actor) {
      await recordActivity(
        tx,
        companyId,
        actor,
        {
          action: 'tag.deleted',
          target: tagId,
          detail: `${existing?.name ?? tagId}, removed from ${updatedPosts} post(s)`,
        },
        at,
      );
    }
    return { tagId, updatedPosts };
  });
}
