// A post's page (dashboard page 2): the post by its caption and tags, each account's state
// (who approved or rejected it, when and why), its delivery and analytics, and what an editor
// may do to it under the API's rules: edit its metadata while it is editable (its tags at any
// time), approve or reject what waits for approval, cancel per account or all, queue it to
// more accounts and change the priority of what is not released yet. The action routes
// (post-actions.pages.ts) render it again with their errors.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { QueueItemsTable } from '../../db/types.ts';
import { ApiError } from '../../errors.ts';
import type { FieldError } from '../kit/form-errors.ts';
import { listCompanyAccounts } from '../../modules/accounts/index.ts';
import { getPostAnalytics } from '../../modules/analytics/index.ts';
import { getCompanyRow } from '../../modules/companies/index.ts';
import {
  isCancellable,
  isEditable,
  isFinal,
  isPublished,
  itemsOfPost,
} from '../../modules/items/index.ts';
import {
  postDeliveryRecords,
  postMediaDetails,
  readPost,
  reviewMedia,
  type PostOut,
} from '../../modules/posts/index.ts';
import { plannedSlotsOfPost } from '../../modules/planning/index.ts';
import { listAllTags } from '../../modules/tags/index.ts';
import { listUsers, roleAllows } from '../../modules/users/index.ts';
import { takeFlash } from './flash.ts';
import { page } from './layout.ts';
import { shownStatus } from './post-states.ts';
import { mediaKind, mediaKindLabel, mediaLabel } from './media-label.ts';
import { accountRef, groupRef, personLabel, postTitle, tagRef, type Ref } from './names.ts';
import { chartRows, chartSvg, type SnapshotPoint } from './post-chart.ts';
import { BASE, userOf } from './session.ts';
import { clockface, displayTimezone } from './time.ts';
import { whenChoiceOf, whenOf, type WhenForm } from './window-choice.ts';
import { ActionRefused } from '../../lib/action-refused.ts';

/** Snapshots the chart reads at most (pages of the analytics service's maximum, 100). */
const MAX_SNAPSHOTS = 1000;
/** The caption's limit (SPEC 4.2), which the form counts down to. */
export const CAPTION_MAX = 2200;

/** The edit form as typed: what it shows again beside its errors. */
export interface EditForm {
  caption: string;
  hashtags: string;
  soundMode: string;
  soundUrl: string;
  soundUrlA: string;
  soundUrlB: string;
  notes: string;
  tags: string[];
  format: string;
}

/** The queue form as typed. */
export interface QueueForm {
  accounts: string[];
  skipApproval: boolean;
  priority: string;
  /** When the items go out (window-choice.ts); the next free window when absent. */
  when?: WhenForm;
}

/** What an action adds to the page it answers with: its errors and what was typed. */
export interface PostPageExtra {
  status?: number;
  /** A refusal of the whole action, in plain words, shown at the top. */
  problem?: string;
  editErrors?: FieldError[];
  edit?: EditForm;
  queueErrors?: FieldError[];
  queue?: QueueForm;
  priorityError?: string;
  priority?: string;
}

/** The company's post, or the page's 404 (another company's post reads as unknown). */
export async function postOr404(
  ctx: AppContext,
  companyId: string,
  postId: string,
): Promise<PostOut> {
  try {
    return await readPost(ctx, companyId, postId);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'post_not_found') {
      throw new ActionRefused('not_found', 'Not found.');
    }
    throw err;
  }
}

/**
 * What the page shows of the post's media: a video's player, a carousel's slides, each
 * behind the expiring signed URLs the approvals inbox uses (reviewMedia); a single image
 * keeps its thumbnail.
 */
async function mediaOf(ctx: AppContext, companyId: string, post: PostOut, title: string) {
  const [items, details] = await Promise.all([
    reviewMedia(ctx, companyId, [post.postId]),
    postMediaDetails(ctx, companyId, [post.postId]),
  ]);
  const media = items.get(post.postId) ?? [];
  const detail = details.get(post.postId);
  const kind = mediaKind(post.media);
  const video =
    kind === 'video' ? (media.find((m) => m.contentType.startsWith('video/')) ?? null) : null;
  const count = media.length;
  return {
    kind,
    label: mediaLabel({ ...post.media, durationSeconds: detail?.durationSeconds ?? null }),
    kindLabel: mediaKindLabel(post.media),
    video: video
      ? {
          url: video.url,
          contentType: video.contentType,
          // The page's own address of the thumbnail (it redirects to a fresh signed URL).
          poster: post.media.thumbnailUrl
            ? `${BASE}/posts/${encodeURIComponent(post.postId)}/thumbnail`
            : null,
          name: `Video of ${title}`,
        }
      : null,
    // Until a carousel's slides are rendered, its page shows the cover and says so: the
    // images they are made from are not the slides.
    slidesPending: kind === 'carousel' && (detail?.slidesPending ?? false),
    // The slides' text alternative is the words drawn on them, once rendered.
    slides:
      kind === 'carousel' && !detail?.slidesPending
        ? media.map((m, i) => {
            const words = detail?.slideTexts[i] ?? '';
            return {
              url: m.url,
              alt: `Slide ${i + 1} of ${count}${words ? `: ${words}` : ''}`,
            };
          })
        : [],
  };
}

/** Every snapshot of the post, oldest pages last, up to MAX_SNAPSHOTS. */
async function historyOf(ctx: AppContext, companyId: string, postId: string) {
  const first = await getPostAnalytics(ctx, companyId, postId, { limit: 100 });
  const history: SnapshotPoint[] = [...first.history];
  let cursor = first.nextCursor;
  while (cursor && history.length < MAX_SNAPSHOTS) {
    const next = await getPostAnalytics(ctx, companyId, postId, { limit: 100, cursor });
    history.push(...next.history);
    cursor = next.nextCursor;
  }
  return { summary: first.summary, history, truncated: cursor !== null };
}

/** The edit form filled with the post as it is. */
export function editFormOf(post: PostOut): EditForm {
  return {
    caption: post.caption ?? '',
    hashtags: post.hashtags.map((h) => `#${h}`).join(' '),
    soundMode: post.sound?.mode ?? '',
    soundUrl: post.sound?.url ?? '',
    soundUrlA: post.sound?.urlsByPlatform?.platformA ?? '',
    soundUrlB: post.sound?.urlsByPlatform?.platformB ?? '',
    notes: post.notes ?? '',
    tags: post.contentGroupIds.filter((g) => g.startsWith('tag:')),
    format: post.platformBPostFormat,
  };
}

/**
 * Why the post's metadata can no longer change (DECISIONS 2: once an item reached
 * `posting`), naming the account; null while it can.
 */
export function notEditableReason(
  items: readonly QueueItemsTable[],
  usernames: ReadonlyMap<string, string>,
): string | null {
  if (isEditable(items)) return null;
  const blocking =
    items.find((i) => i.status === 'posting') ??
    items.find((i) => i.status === 'posted') ??
    items.find((i) => i.released_at !== null);
  const who = blocking ? (usernames.get(blocking.account_id) ?? 'an account') : 'an account';
  const what =
    blocking?.status === 'posting'
      ? `it has been released to ${who}’s worker for posting`
      : blocking?.status === 'posted'
        ? `it was posted on ${who}`
        : `it was released to ${who}’s worker`;
  return `The caption, hashtags, sound, notes and format can no longer change: ${what}. Its tags can still change.`;
}

/**
 * What the post's empty delivery record says: when every account's item ended before its
 * release (rejected in review, cancelled, failed while its media was prepared), that it
 * never will have one, rather than that it appears once a window opens.
 */
function noDeliveryReason(
  accounts: number,
  rows: readonly { status: string; open: boolean }[],
  rejected: number,
): string {
  const waiting =
    'Nothing of this post has been released yet: each account’s record appears here once its window opens.';
  if (accounts === 0)
    return 'This post is a draft: an account’s record appears here once the post is queued to it and its window opens.';
  if (rows.some((r) => r.open || r.status === 'posting')) return waiting;
  if (rejected === rows.length) {
    return 'This post was rejected in review, so it was never released: there is no delivery record.';
  }
  if (rejected > 0) {
    return 'This post was rejected or cancelled for every account before its release: there is no delivery record.';
  }
  if (rows.every((r) => r.status === 'cancelled')) {
    return 'This post was cancelled before its release: there is no delivery record.';
  }
  return 'No account had this post released, and none will: there is no delivery record.';
}

export async function renderPost(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  postId: string,
  extra: PostPageExtra = {},
) {
  const user = userOf(req);
  const companyId = user.companyId;
  const post = await postOr404(ctx, companyId, postId);
  const title = postTitle(post.caption, mediaKind(post.media));
  const [items, slots, analytics, delivery, tags, accounts, company, users, media] =
    await Promise.all([
      itemsOfPost(ctx.db, companyId, postId),
      plannedSlotsOfPost(ctx.db, ctx.clock, companyId, postId),
      historyOf(ctx, companyId, postId),
      postDeliveryRecords(ctx, companyId, postId),
      listAllTags(ctx.db, companyId),
      listCompanyAccounts(ctx.db, companyId),
      getCompanyRow(ctx.db, companyId),
      listUsers(ctx.db, companyId),
      mediaOf(ctx, companyId, post, title),
    ]);
  const emails = new Map(users.map((u) => [u.userId, u.email]));
  const byGroup = new Map(tags.map((t) => [t.contentGroupId, t]));
  const itemOf = new Map(items.map((i) => [i.account_id, i]));
  const usernames = new Map(accounts.map((a) => [a.id, `@${a.username}`]));
  for (const a of post.accounts) usernames.set(a.accountId, `@${a.username}`);

  // The window each released account went out in, from its delivery record: its planned
  // window is gone once it is released.
  const releasedIn = new Map(
    delivery.deliveries.filter((d) => d.slot).map((d) => [d.accountId, d.slot?.start ?? null]),
  );
  const rows = post.accounts.map((a) => {
    const item = itemOf.get(a.accountId);
    const rejected = item?.rejected_at
      ? {
          by: personLabel(item.rejected_by, emails),
          at: item.rejected_at,
          reason: item.reject_reason,
        }
      : null;
    return {
      ...a,
      ref: accountRef(a),
      scheduledSlotStart: a.scheduledSlotStart ?? slots.get(a.accountId) ?? null,
      releasedIn: releasedIn.get(a.accountId) ?? null,
      priority: item?.priority ?? 0,
      open: isCancellable(a.status),
      itemId: item?.id ?? null,
      pending: a.status === 'pending_approval',
      approvedBy: item?.approved_by ? personLabel(item.approved_by, emails) : null,
      rejected,
    };
  });

  const canAct = roleAllows(user.role, 'editor');
  const published = isPublished(items);
  const onPost = new Set(items.filter((i) => !isFinal(i.status)).map((i) => i.account_id));
  const candidates = accounts
    .filter((a) => !onPost.has(a.id))
    .map((a) => {
      const before = itemOf.get(a.id);
      return {
        ref: accountRef({ accountId: a.id, username: a.username, platform: a.platform }),
        accountId: a.id,
        status: a.status,
        // An account whose item ended is queued again (the API revives the item).
        again: before ? (before.rejected_at ? 'rejected' : before.status) : null,
      };
    });
  const groups: Ref[] = post.contentGroupIds.map((g) => groupRef(g, byGroup));
  const open = rows.filter((r) => r.open);
  const chart = chartRows(analytics.history);
  const clock = clockface(displayTimezone(req));
  const queue = extra.queue ?? { accounts: [], skipApproval: false, priority: '' };
  const whenChoice = published
    ? null
    : await whenChoiceOf(ctx, companyId, queue.accounts, queue.when ?? whenOf(undefined), clock, {
        priority: queue.priority,
        pending: !queue.skipApproval,
      });
  const rejectedRows = rows.filter((r) => r.rejected && r.status === 'cancelled');
  const shown = shownStatus(post.status, rejectedRows.length > 0);
  if (extra.status) reply.code(extra.status);
  return page(req, reply, 'post.eta', title, {
    post,
    media,
    shown,
    // The format matters to platformB accounts alone: asked of a draft (it may go anywhere)
    // and of a post that goes to platformB, never of one for platformA only.
    showFormat: post.accounts.length === 0 || post.accounts.some((a) => a.platform === 'platformB'),
    // Why nothing of the post is in its delivery record, when nothing will be.
    noDelivery: noDeliveryReason(post.accounts.length, rows, rejectedRows.length),
    heading: title,
    accounts: rows,
    groups,
    summary: analytics.summary,
    rows: chart,
    chart: chartSvg(chart, 'chart-title', (iso) => `${clock.dateTime(iso)} ${clock.zoneName(iso)}`),
    truncated: analytics.truncated,
    // The delivery record of each account the post was released to.
    deliveries: delivery.deliveries
      .filter((d) => d.releasedAt !== null)
      .map((d) => ({ ...d, ref: accountRef(d) })),
    graceMinutes: Math.round(ctx.config.deliveryGraceMs / 60_000),
    done: takeFlash(ctx, req, reply),
    canAct,
    // What an editor may do, each with why not when it cannot.
    editable: notEditableReason(items, usernames),
    captionMax: CAPTION_MAX,
    edit: extra.edit ?? editFormOf(post),
    editErrors: extra.editErrors ?? [],
    tagChoices: tags
      .filter((t) => !t.archived || post.contentGroupIds.includes(t.contentGroupId))
      .map((t) => ({ group: t.contentGroupId, ref: tagRef(t), archived: t.archived })),
    templates: groups.filter((g) => g.kind === 'template'),
    feedPosts: company?.platformb_feed_posts === 1,
    pending: rows.filter((r) => r.pending),
    cancellable: open,
    queueBlocked: published
      ? 'This post is already published on at least one account, so it cannot be queued again.'
      : candidates.length === 0
        ? 'Every account of the company already has this post.'
        : null,
    candidates,
    queue,
    queueErrors: extra.queueErrors ?? [],
    whenChoice,
    // Skipping approval is for those who may approve (editors and admins).
    canSkipApproval: roleAllows(user.role, 'editor'),
    priority: extra.priority ?? String(Math.max(0, ...open.map((r) => r.priority))),
    priorityError: extra.priorityError ?? null,
    problem: extra.problem ?? null,
  });
}
