// The activity log (dashboard page 9): who approved, rejected, edited, cancelled or queued
// posts, created or revoked keys, changed tags, schedules and people, and when; newest
// first. The log keeps ids; the page names what each id stands for (accounts as @username
// with their platform, posts by their caption, tags by name and colour, people by email),
// each linking to its page, and leaves an id it no longer knows as it is.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { listCompanyAccounts } from '../../modules/accounts/index.ts';
import { listActivity } from '../../modules/activity/index.ts';
import { itemPlaces } from '../../modules/items/index.ts';
import { listKeys } from '../../modules/keys/index.ts';
import { postLabels } from '../../modules/posts/index.ts';
import { listAllTags } from '../../modules/tags/index.ts';
import { listUsers, roleAllows } from '../../modules/users/index.ts';
import { page } from './layout.ts';
import { accountRef, postRef, postTitle, tagRef, type Ref } from './names.ts';
import { BASE, userOf } from './session.ts';

const PAGE_SIZE = 40;

// `before` is `at|id` of the last entry shown: a position, not a secret; without both
// parts the page starts at the newest entry.
const ActivityQuery = Type.Object({ before: Type.Optional(Type.String()) });

/**
 * An id of something the log names: a prefix of lib/ids.ts and its 26 characters of
 * Crockford base32 (so words a person wrote, such as a reason, are left as they are).
 */
const ID = /\b(acc|pst|tag|qit|usr|key|wh|cmp)_[0-9a-hjkmnp-tv-z]{26}\b/g;

/** What each recorded action reads as. */
const ACTION_WORDS: Record<string, string> = {
  'post.created': 'Created a post',
  'post.approved': 'Approved',
  'post.rejected': 'Rejected',
  'post.edited': 'Edited',
  'post.cancelled': 'Cancelled',
  'post.queued': 'Queued to more accounts',
  'post.priority_changed': 'Changed priority',
  'item.priority_changed': 'Changed priority',
  'tag.created': 'Created a tag',
  'tag.renamed': 'Renamed a tag',
  'tag.recolored': 'Recoloured a tag',
  'tag.archived': 'Archived a tag',
  'tag.unarchived': 'Restored a tag',
  'tag.deleted': 'Deleted a tag',
  'key.created': 'Created an API key',
  'key.revoked': 'Revoked an API key',
  'schedule.changed': 'Changed a schedule',
  'account.created': 'Created an account',
  'account.paused': 'Paused an account',
  'account.resumed': 'Resumed an account',
  'account.assigned': 'Assigned an account to a worker',
  'account.reassigned': 'Moved an account to another worker',
  'account.unassigned': 'Took an account from its worker',
  'account.timezone_changed': 'Changed an account’s timezone',
  'account.status_changed': 'Changed an account’s status',
  'webhook.created': 'Created a webhook',
  'webhook.updated': 'Changed a webhook',
  'webhook.deleted': 'Deleted a webhook',
  'webhook.enabled': 'Enabled a webhook',
  'webhook.disabled': 'Disabled a webhook',
  'webhook.secret_rotated': 'Rotated a webhook’s secret',
  'webhook.test': 'Sent a test event',
  'webhook.test_sent': 'Sent a test event',
  'chat_hook.added': 'Added a chat alert hook',
  'chat_hook.changed': 'Changed a chat alert hook',
  'chat_hook.removed': 'Removed a chat alert hook',
  'chat_hook.test_sent': 'Sent a test chat alert',
  'user.created': 'Added a user',
  'user.invited': 'Invited a user',
  'user.disabled': 'Disabled a user',
  'user.role_changed': 'Changed a user’s role',
  'user.password_reset': 'Reset a user’s password',
  'user.password_set': 'Set a password',
  'user.password_recovered': 'Reset a forgotten password by email',
  'company.created': 'Created the company',
  'company.updated': 'Changed the company',
  'company.suspended': 'Suspended the company',
  'company.resumed': 'Resumed the company',
  'company.approval_lead_changed': 'Changed when approvers are reminded',
  'workspace.folder_created': 'Created an image folder',
  'workspace.image_added': 'Added an image',
  'workspace.pack_created': 'Created an image pack',
};

/** An action the page has no words for reads as its name: `thing.did_this` -> "Thing did this". */
function actionWords(action: string): string {
  const known = ACTION_WORDS[action];
  if (known) return known;
  const words = action.replace(/[._]/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A piece of a target or a detail: text as written, or something named. */
export type Segment = { text: string } | { ref: Ref } | { id: string };

function idsIn(texts: readonly string[]): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const t of texts) {
    for (const m of t.matchAll(ID)) {
      const kind = m[1] as string;
      const set = found.get(kind) ?? new Set<string>();
      set.add(m[0]);
      found.set(kind, set);
    }
  }
  return found;
}

/** The ids of the page's entries named, in a few reads of the company's own records. */
async function namesOf(
  ctx: AppContext,
  companyId: string,
  texts: readonly string[],
  admin: boolean,
): Promise<Map<string, Ref>> {
  const found = idsIn(texts);
  const has = (kind: string) => (found.get(kind)?.size ?? 0) > 0;
  const ids = (kind: string) => [...(found.get(kind) ?? [])];
  const refs = new Map<string, Ref>();

  const places = has('qit') ? await itemPlaces(ctx.db, companyId, ids('qit')) : new Map();
  const postIds = [...ids('pst'), ...[...places.values()].map((p) => p.postId as string)];
  const needAccounts = has('acc') || places.size > 0;
  const [accounts, posts, tags, users, keys] = await Promise.all([
    needAccounts ? listCompanyAccounts(ctx.db, companyId) : [],
    postIds.length ? postLabels(ctx.db, companyId, postIds) : new Map(),
    has('tag') ? listAllTags(ctx.db, companyId) : [],
    has('usr') ? listUsers(ctx.db, companyId) : [],
    has('key') ? listKeys(ctx.db, companyId) : [],
  ]);
  const accountRefs = new Map(
    accounts.map((a) => [
      a.id,
      accountRef({ accountId: a.id, username: a.username, platform: a.platform }),
    ]),
  );
  for (const [id, ref] of accountRefs) refs.set(id, ref);
  for (const [id, label] of posts) refs.set(id, postRef(id, label.caption, label.mediaKind));
  for (const [id, place] of places) {
    const label = posts.get(place.postId);
    const account = accountRefs.get(place.accountId);
    refs.set(id, {
      kind: 'item',
      id,
      label: label ? postTitle(label.caption, label.mediaKind) : 'a post',
      href: `${BASE}/posts/${encodeURIComponent(place.postId)}`,
      ...(account ? { note: `on ${account.label}` } : {}),
    });
  }
  for (const tag of tags) refs.set(tag.tagId, tagRef(tag));
  for (const u of users)
    refs.set(u.userId, { kind: 'user', id: u.userId, label: u.email, href: null });
  for (const k of keys) {
    refs.set(k.keyId, {
      kind: 'key',
      id: k.keyId,
      label: `key “${k.name}”`,
      href: admin ? `${BASE}/keys` : null,
    });
  }
  for (const id of ids('wh')) {
    refs.set(id, {
      kind: 'webhook',
      id,
      label: 'a webhook',
      href: admin ? `${BASE}/webhooks/${encodeURIComponent(id)}` : null,
    });
  }
  if (has('cmp')) {
    refs.set(companyId, { kind: 'company', id: companyId, label: 'the company', href: null });
  }
  return refs;
}

/** The text with every id it names replaced by what it names (unknown ids kept as ids). */
function segmentsOf(text: string, refs: ReadonlyMap<string, Ref>): Segment[] {
  const out: Segment[] = [];
  let from = 0;
  for (const m of text.matchAll(ID)) {
    const at = m.index ?? 0;
    if (at > from) out.push({ text: text.slice(from, at) });
    const ref = refs.get(m[0]);
    out.push(ref ? { ref } : { id: m[0] });
    from = at + m[0].length;
  }
  if (from < text.length) out.push({ text: text.slice(from) });
  return out;
}

export function activityPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/activity', { schema: { querystring: ActivityQuery } }, async (req, reply) => {
      const user = userOf(req);
      const parts = req.query.before?.split('|') ?? [];
      const before =
        parts.length === 2 && parts[0] && parts[1]
          ? ([parts[0], parts[1]] as [string, string])
          : undefined;
      const entries = await listActivity(ctx.db, user.companyId, {
        ...(before ? { before } : {}),
        limit: PAGE_SIZE + 1,
      });
      const shown = entries.slice(0, PAGE_SIZE);
      const last = shown[shown.length - 1];
      const refs = await namesOf(
        ctx,
        user.companyId,
        shown.flatMap((e) => [e.target, e.detail ?? '']),
        roleAllows(user.role, 'admin'),
      );
      return page(req, reply, 'activity.eta', 'Activity', {
        entries: shown.map((e) => ({
          ...e,
          what: actionWords(e.action),
          on: segmentsOf(e.target, refs),
          details: segmentsOf(e.detail ?? '', refs),
        })),
        exportUrl: `${BASE}/exports/activity.csv`,
        next:
          entries.length > PAGE_SIZE && last
            ? `${BASE}/activity?before=${encodeURIComponent(`${last.at}|${last.id}`)}`
            : null,
      });
    });
  };
}
