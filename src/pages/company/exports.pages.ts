// CSV exports (dashboard): the company's posts with each account's state and figures,
// under the posts list's filters, and the activity log with actors and subjects by name.
// Each file is streamed as the services' pages are read, never built whole in memory:
// RFC 4180 (CRLF, quoted where needed), UTF-8 with a byte order mark for spreadsheet
// apps, times in ISO 8601 UTC, and cells a spreadsheet would run as a formula (starting
// with = + - @, a tab or a carriage return) prefixed with an apostrophe.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { listCompanyAccounts } from '../../modules/accounts/index.ts';
import { listActivity } from '../../modules/activity/index.ts';
import { postAccountTotals } from '../../modules/analytics/index.ts';
import { getCompanyRow } from '../../modules/companies/index.ts';
import { itemPlaces } from '../../modules/items/index.ts';
import { listKeys } from '../../modules/keys/index.ts';
import { listPosts, postLabels } from '../../modules/posts/index.ts';
import { listAllTags } from '../../modules/tags/index.ts';
import { listUsers } from '../../modules/users/index.ts';
import { listWebhooks } from '../../modules/webhooks/index.ts';
import { postTitle } from './names.ts';
import { filterRefusal, filtersOf, PostFilterQuery, type PostFilters } from './post-filters.ts';
import { apiFilters, matchesShown, withShownStates } from './post-states.ts';
import { userOf } from './session.ts';
import { clockface, displayTimezone } from './time.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** Posts read per page of the posts service (its most). */
const POSTS_PAGE = 100;
/** Activity entries read per page. */
const ACTIVITY_PAGE = 500;

/** The posts list's filters, by the same names and rules. */
const PostsExportQuery = PostFilterQuery;

type Filters = PostFilters;

type Cell = string | number | null;
type ActivityEntry = Awaited<ReturnType<typeof listActivity>>[number];

export const POST_COLUMNS = [
  'Post ID',
  'Created at (UTC)',
  'Caption',
  'Hashtags',
  'Tags',
  'Username',
  'Platform',
  'Status',
  'Posted at (UTC)',
  'Post URL',
  'Views',
  'Likes',
  'Comments',
  'Shares',
  'Saves',
] as const;

export const ACTIVITY_COLUMNS = [
  'Time (UTC)',
  'Who',
  'Who (kind)',
  'Action',
  'Subject',
  'Subject (kind)',
  'Subject ID',
  'Detail',
] as const;

/**
 * Sends `records` as a CSV attachment named `<name>-<reader's date>.csv`. The first
 * records are read by the caller before this runs, so a refusal (an unknown account) is
 * still a page; a failure later ends the download early, and is logged.
 */
async function sendCsv(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  name: string,
  records: AsyncIterable<Cell[]>,
) {
  const today = clockface(displayTimezone(req)).localDate(ctx.clock.now().toISOString());
  const csv = stringify({
    bom: true,
    record_delimiter: 'windows',
    // Quoted as RFC 4180 asks (delimiter, quote) and for any line break, not only CRLF.
    quoted_match: /[\r\n]/,
    escape_formulas: true,
  });
  pipeline(Readable.from(records), csv).catch((err: unknown) => {
    // A reader who closed the download early is no failure.
    if ((err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    req.log.error({ err }, 'CSV export failed while streaming');
  });
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="slotline-${name}-${today}.csv"`)
    .header('cache-control', 'no-store')
    .send(csv);
}

/**
 * Every post under `filters` (newest first), one row per post and account; with an
 * account filter, only that account's rows (the other accounts a post went to are not
 * what was asked for).
 */
async function postRows(ctx: AppContext, companyId: string, filters: Filters) {
  // Read before the download starts: an unknown account or a bad filter is a page.
  let page;
  try {
    page = await listPosts(ctx, companyId, { ...apiFilters(filters), limit: POSTS_PAGE });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'account_not_found') {
      throw new ActionRefused('not_found', 'That account does not exist.');
    }
    throw err;
  }
  const tags = new Map(
    (await listAllTags(ctx.db, companyId)).map((t) => [t.contentGroupId, t.name]),
  );
  const first = page;
  return (async function* rows(): AsyncGenerator<Cell[]> {
    yield [...POST_COLUMNS];
    let current = first;
    for (;;) {
      const totals = await postAccountTotals(
        ctx.db,
        companyId,
        current.data.map((p) => p.postId),
      );
      // Rejected posts are among the API's cancelled ones: each page keeps the kind asked for.
      const shown = await withShownStates(ctx, companyId, current.data);
      for (const post of shown.filter((p) => matchesShown(p, filters.status))) {
        const common: Cell[] = [
          post.postId,
          post.createdAt,
          post.caption ?? '',
          post.hashtags.join(' '),
          post.contentGroupIds
            .filter((g) => g.startsWith('tag:'))
            .map((g) => tags.get(g) ?? g)
            .join('; '),
        ];
        // A draft went to no account yet: one row with the account's cells empty.
        if (post.accounts.length === 0) {
          yield [...common, '', '', post.shown, '', '', '', '', '', '', ''];
        }
        for (const a of post.accounts) {
          if (filters.accountId !== undefined && a.accountId !== filters.accountId) continue;
          const t = totals.get(post.postId)?.get(a.accountId);
          yield [
            ...common,
            a.username,
            a.platform,
            a.shown,
            a.postedAt ?? '',
            a.postUrl ?? '',
            ...(t ? [t.views, t.likes, t.comments, t.shares, t.saves] : ['', '', '', '', '']),
          ];
        }
      }
      if (!current.nextCursor) return;
      current = await listPosts(ctx, companyId, {
        ...apiFilters(filters),
        limit: POSTS_PAGE,
        cursor: current.nextCursor,
      });
    }
  })();
}

/** An actor id (`user:<id>`, `key:<id>`, `operator...`) as the kind of actor it names. */
function actorKind(actor: string): string {
  if (actor.startsWith('user:')) return 'user';
  if (actor.startsWith('key:')) return 'API key';
  if (actor.startsWith('operator')) return 'Slotline operator';
  return 'system';
}

/** Kinds whose entries' detail starts with the subject's name (kept once it is deleted). */
const NAMED_IN_DETAIL = new Set([
  'tag',
  'webhook',
  'user',
  'API key',
  'workspace folder',
  'workspace image',
  'workspace pack',
]);

/** What the id prefixes of activity subjects name. */
const KINDS: Record<string, string> = {
  acc: 'account',
  pst: 'post',
  tag: 'tag',
  key: 'API key',
  usr: 'user',
  wh: 'webhook',
  cmp: 'company',
  fld: 'workspace folder',
  img: 'workspace image',
  pck: 'workspace pack',
  qit: 'queue item',
};

function kindOf(id: string): string {
  return KINDS[id.slice(0, id.indexOf('_'))] ?? 'other';
}

/** An id an entry's subject or detail may name, by the prefixes of lib/ids.ts. */
const ID = /\b(?:acc|pst|tag|qit|usr|key|wh|cmp)_[0-9A-Za-z]{4,60}\b/g;

/**
 * The names the company's activity goes by, as every page names things (names.ts): read
 * once per export for what a company has a bounded number of (accounts, tags, keys, users,
 * webhooks), per page of entries for posts and queue items. A subject deleted since is
 * named by the entry's own detail where that starts with its name, else by its kind.
 */
async function activityNames(ctx: AppContext, companyId: string) {
  const [accounts, tags, keys, users, hooks, company] = await Promise.all([
    listCompanyAccounts(ctx.db, companyId),
    listAllTags(ctx.db, companyId),
    listKeys(ctx.db, companyId),
    listUsers(ctx.db, companyId),
    listWebhooks(ctx, companyId, { limit: 100 }),
    getCompanyRow(ctx.db, companyId),
  ]);
  const names = new Map<string, string>([
    ...accounts.map((a): [string, string] => [a.id, `@${a.username} (${a.platform})`]),
    ...tags.map((t): [string, string] => [t.tagId, t.name]),
    ...keys.map((k): [string, string] => [k.keyId, `${k.name} (sl_${k.prefix}_…)`]),
    ...users.map((u): [string, string] => [u.userId, u.email]),
    ...hooks.data.map((h): [string, string] => [h.webhookId, h.url]),
  ]);
  if (company) names.set(company.id, company.name);
  return {
    /** The namer of one page of entries: posts and items it mentions read at once. */
    async page(entries: readonly ActivityEntry[]) {
      const ids = new Set(entries.flatMap((e) => `${e.target} ${e.detail ?? ''}`.match(ID) ?? []));
      const itemIds = [...ids].filter((id) => id.startsWith('qit_'));
      const places = itemIds.length
        ? await itemPlaces(ctx.db, companyId, itemIds)
        : new Map<string, { postId: string; accountId: string }>();
      const postIds = [
        ...[...ids].filter((id) => id.startsWith('pst_')),
        ...[...places.values()].map((p) => p.postId),
      ];
      const labels = postIds.length ? await postLabels(ctx.db, companyId, postIds) : new Map();
      const local = new Map(names);
      for (const [id, label] of labels) local.set(id, postTitle(label.caption, label.mediaKind));
      for (const [id, place] of places) {
        const post = local.get(place.postId) ?? 'a post';
        const account = names.get(place.accountId);
        local.set(id, account ? `${post} on ${account}` : post);
      }
      return (e: ActivityEntry): { subject: string; detail: string } => ({
        subject:
          local.get(e.target) ??
          (NAMED_IN_DETAIL.has(kindOf(e.target)) && e.detail ? e.detail : `(${kindOf(e.target)})`),
        detail: (e.detail ?? '').replace(ID, (id: string) => local.get(id) ?? id),
      });
    },
  };
}

/** The company's activity log, newest first. */
async function activityRows(ctx: AppContext, companyId: string) {
  const names = await activityNames(ctx, companyId);
  return (async function* rows(): AsyncGenerator<Cell[]> {
    yield [...ACTIVITY_COLUMNS];
    let before: [string, string] | undefined;
    for (;;) {
      const entries = await listActivity(ctx.db, companyId, {
        ...(before ? { before } : {}),
        limit: ACTIVITY_PAGE,
      });
      const named = await names.page(entries);
      for (const e of entries) {
        const { subject, detail } = named(e);
        yield [
          e.at,
          e.actorLabel,
          actorKind(e.actor),
          e.action,
          subject,
          kindOf(e.target),
          e.target,
          detail,
        ];
      }
      const last = entries[entries.length - 1];
      if (entries.length < ACTIVITY_PAGE || !last) return;
      before = [last.at, last.id];
    }
  })();
}

export function exportPages(ctx: AppContext) {
  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/exports/posts.csv',
      { schema: { querystring: PostsExportQuery }, schemaErrorFormatter: filterRefusal },
      async (req, reply) => {
        const user = userOf(req);
        const rows = await postRows(ctx, user.companyId, filtersOf(req.query));
        return sendCsv(ctx, req, reply, 'posts', rows);
      },
    );

    app.get('/exports/activity.csv', async (req, reply) => {
      const user = userOf(req);
      return sendCsv(ctx, req, reply, 'activity', await activityRows(ctx, user.companyId));
    });
  };
}
