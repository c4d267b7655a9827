// Content groups on posts (SPEC 2.2 content-group rules, 3 rule 5): which groups a post is
// attributed to (its tags and its template provenance), in the post_content_groups table.
// The tags module owns them, so posts depend on tags and never the other way round: a
// post's create and update go through here, and so does a tag's deletion.
import type { DbOrTx, PostContentGroupsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import * as groups from './content-groups.repository.ts';
import * as repo from './tags.repository.ts';

export type PostGroupRow = PostContentGroupsTable;

export interface CheckedGroups {
  /** The groups, each once, in their first order. */
  groups: string[];
  /** Every group that cannot be assigned, in the order of the list (empty when all can). */
  problems: ApiError[];
}

/**
 * Only live tags of the company can be assigned. Groups in `kept` are already on the post
 * and pass as they are: its template provenance, and tags archived since they were
 * assigned. `lock` holds the tag rows FOR SHARE until the caller's transaction ends, so a
 * concurrent tag deletion waits and then sees the rows. Reports every group that cannot be
 * assigned, template groups first (checkGroups throws the first).
 */
export async function groupProblems(
  db: DbOrTx,
  companyId: string,
  /** The groups as listed; `undefined` marks an entry not to check (ill-formed elsewhere). */
  wanted: readonly (string | undefined)[],
  options: { kept?: ReadonlySet<string>; lock?: boolean } = {},
): Promise<CheckedGroups> {
  const kept = options.kept ?? new Set<string>();
  const unique = [...new Set(wanted.filter((g) => g !== undefined))];
  const problems: ApiError[] = [];
  for (const [i, g] of wanted.entries()) {
    if (g?.startsWith('template:') && !kept.has(g)) {
      problems.push(
        new ApiError(
          'invalid_request',
          `/contentGroupIds/${i}: template groups come from the template a post was made from and cannot be assigned`,
          { hint: 'Assign tags as "tag:<tagId>".', field: `/contentGroupIds/${i}` },
        ),
      );
    }
  }
  const tagIds = unique.filter((g) => g.startsWith('tag:')).map((g) => g.slice(4));
  const tags = tagIds.length
    ? await repo.findTagStates(db, companyId, tagIds, options.lock === true)
    : [];
  const byId = new Map(tags.map((t) => [t.id, t]));
  for (const [i, g] of wanted.entries()) {
    if (!g?.startsWith('tag:')) continue;
    const field = `/contentGroupIds/${i}`;
    const tag = byId.get(g.slice(4));
    if (!tag) {
      problems.push(
        new ApiError('tag_not_found', `${field}: tag ${g.slice(4)} does not exist`, {
          inBody: true,
          field,
        }),
      );
    } else if (tag.archived === 1 && !kept.has(g)) {
      problems.push(
        new ApiError(
          'invalid_request',
          `${field}: tag ${g.slice(4)} is archived and cannot be assigned`,
          { hint: 'Restore the tag with archived: false, or choose another tag.', field },
        ),
      );
    }
  }
  return { groups: unique, problems };
}

/** groupProblems that throws the first problem; returns the groups, each once. */
export async function checkGroups(
  db: DbOrTx,
  companyId: string,
  wanted: readonly string[],
  options: { kept?: ReadonlySet<string>; lock?: boolean } = {},
): Promise<string[]> {
  const checked = await groupProblems(db, companyId, wanted, options);
  if (checked.problems[0]) throw checked.problems[0];
  return checked.groups;
}

/** Attributes a new post to its groups (checked by checkGroups in the same transaction). */
export function assignGroups(tx: DbOrTx, rows: readonly PostGroupRow[]): Promise<void> {
  return groups.insertGroups(tx, rows);
}

/**
 * SPEC 4.2: `contentGroupIds` replaces a post's explicit tags; its template provenance
 * stays whatever the list says. Tags kept keep their place in the list. The tags are
 * checked inside the caller's transaction and held until it ends, so a tag deleted meanwhile
 * cannot be left attributed. True when the post's tags changed.
 */
export async function replacePostTags(
  tx: DbOrTx,
  companyId: string,
  postId: string,
  wanted: readonly string[],
  at: string,
): Promise<boolean> {
  const current = await groups.groupsOfPost(tx, companyId, postId);
  const kept = new Set(current.map((g) => g.group_id));
  const checked = await checkGroups(tx, companyId, wanted, { kept, lock: true });
  const next = new Set(checked.filter((g) => g.startsWith('tag:')));
  const removed = [...kept].filter((g) => g.startsWith('tag:') && !next.has(g));
  const added = [...next].filter((g) => !kept.has(g));
  await groups.deleteGroupsOfPost(tx, companyId, postId, removed);
  await groups.insertGroups(
    tx,
    added.map((g) => ({ post_id: postId, company_id: companyId, group_id: g, created_at: at })),
  );
  return removed.length > 0 || added.length > 0;
}

/** The groups of each of the posts, in the order they were attributed. */
export function groupsOfPosts(db: DbOrTx, postIds: readonly string[]): Promise<PostGroupRow[]> {
  return groups.groupsOfPosts(db, postIds);
}
