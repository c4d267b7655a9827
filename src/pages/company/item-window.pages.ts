// Moving one queue item to another window (the post page's "Move to another window", the
// calendar's "Move to..." and its drag and drop): the item's coming windows day by day, each
// free one a button, taken ones named by the post planned there, full days said so. A move
// sets the item's earliest-release floor through the planning module, which refuses a window
// taken, a day at its cap, a window passed or a time that is not a window. The calendar's
// script sends the same form and asks for JSON, to say a refusal where the item was dropped.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ActionRefused } from '../../lib/action-refused.ts';
import { isCancellable, itemPlaces, itemsOfPost } from '../../modules/items/index.ts';
import {
  accountWindows,
  moveItemToWindow,
  plannedSlotStarts,
  type MoveRefusal,
} from '../../modules/planning/index.ts';
import { getAccountRow } from '../../modules/accounts/index.ts';
import { getCompanyRow } from '../../modules/companies/index.ts';
import { postLabels } from '../../modules/posts/index.ts';
import { setFlash } from './flash.ts';
import { page } from './layout.ts';
import { accountRef, postTitle } from './names.ts';
import { BASE, actorOf, redirect, userOf } from './session.ts';
import { clockface, displayTimezone, type Clockface } from './time.ts';
import { bothTimes } from './window-choice.ts';

const ItemParams = Type.Object({ itemId: Type.String({ maxLength: 100 }) });
const BackQuery = Type.Object({ back: Type.Optional(Type.String({ maxLength: 300 })) });
const MoveBody = Type.Object({
  at: Type.Optional(Type.String({ maxLength: 40 })),
  back: Type.Optional(Type.String({ maxLength: 300 })),
});

/** Where a move returns: the calendar or a post's page it came from, else the post's page. */
function backOf(value: string | undefined, postId: string): string {
  return value && /^\/dashboard\/(calendar(\?[\w=&%.:-]{0,250})?|posts\/[\w-]{1,200})$/.test(value)
    ? value
    : `${BASE}/posts/${encodeURIComponent(postId)}`;
}

/** A refusal in words, naming what is in the way. */
export function refusalWords(reason: MoveRefusal | 'released', account: string, takenBy?: string) {
  switch (reason) {
    case 'window_taken':
      return `That window is already taken by ${takenBy ?? 'another post'} on ${account}. Choose a free window.`;
    case 'day_at_cap':
      return `${account} already has 4 posts that day, the most a day. Choose another day.`;
    case 'outside_windows':
      return `That time is not one of ${account}’s posting windows. Choose one of its windows.`;
    case 'window_passed':
      return 'That window has already started. Choose a later one.';
    case 'released':
      return 'This post has already been released to its worker: it can no longer move.';
  }
}

interface Day {
  date: string;
  name: string;
  windows: {
    iso: string;
    reader: string;
    worker: string;
    state: 'free' | 'taken' | 'day_at_cap' | 'current';
    takenBy: string | null;
  }[];
}

export function itemWindowPages(ctx: AppContext) {
  /** The item and what names it, or not found (another company's item is unknown). */
  async function itemOf(companyId: string, itemId: string) {
    const place = (await itemPlaces(ctx.db, companyId, [itemId])).get(itemId);
    if (!place) throw new ActionRefused('not_found', 'Not found.');
    const items = await itemsOfPost(ctx.db, companyId, place.postId);
    const item = items.find((i) => i.id === itemId);
    if (!item) throw new ActionRefused('not_found', 'Not found.');
    const [account, labels] = await Promise.all([
      getAccountRow(ctx.db, companyId, item.account_id),
      postLabels(ctx.db, companyId, [place.postId]),
    ]);
    const label = labels.get(place.postId);
    return {
      item,
      account,
      postId: place.postId,
      title: postTitle(label?.caption ?? null, label?.mediaKind ?? 'video'),
    };
  }

  async function movePage(
    req: FastifyRequest,
    reply: FastifyReply,
    itemId: string,
    back: string | undefined,
    problem: string | null = null,
  ) {
    const user = userOf(req);
    const companyId = user.companyId;
    const found = await itemOf(companyId, itemId);
    const reader = clockface(displayTimezone(req));
    const [windows] = await accountWindows(ctx, companyId, [found.account.id], itemId);
    const company = await getCompanyRow(ctx.db, companyId);
    const planned =
      found.item.status === 'queued'
        ? (
            await plannedSlotStarts(
              ctx.db,
              found.account,
              company?.schedule_windows ?? null,
              ctx.clock.now(),
            )
          ).get(itemId)
        : undefined;
    const takenIds = [...new Set((windows?.choices ?? []).flatMap((c) => c.takenBy ?? []))];
    const takenPlaces = await itemPlaces(ctx.db, companyId, takenIds);
    const takenLabels = await postLabels(ctx.db, companyId, [
      ...new Set([...takenPlaces.values()].map((p) => p.postId)),
    ]);
    const takenTitle = (id: string) => {
      const postId = takenPlaces.get(id)?.postId;
      const l = postId ? takenLabels.get(postId) : undefined;
      return postTitle(l?.caption ?? null, l?.mediaKind ?? 'video');
    };
    const days = daysOf(
      windows?.choices ?? [],
      reader,
      found.account.timezone,
      found.item.scheduled_after,
      takenTitle,
    );
    if (String(req.headers.accept ?? '').includes('application/json')) {
      // The calendar's script: the item's windows by the reader's day, to show while dragging.
      return reply.header('cache-control', 'no-store').send({
        account: `@${found.account.username}`,
        open: isCancellable(found.item.status),
        days: days.map((d) => ({
          date: d.date,
          name: d.name,
          windows: d.windows.map((w) => ({
            at: w.iso,
            time: w.reader,
            state: w.state,
            takenBy: w.takenBy,
          })),
        })),
      });
    }
    if (problem) reply.code(409);
    return page(req, reply, 'item-window.eta', 'Move to another window', {
      postName: found.title,
      postId: found.postId,
      itemId,
      account: accountRef({
        accountId: found.account.id,
        username: found.account.username,
        platform: found.account.platform,
      }),
      workerZone: found.account.timezone.replace(/_/g, ' '),
      otherZone: found.account.timezone !== reader.timezone,
      open: isCancellable(found.item.status),
      pending: found.item.status === 'pending_approval',
      planned: planned ? bothTimes(planned, reader, found.account.timezone) : null,
      floor: found.item.scheduled_after
        ? bothTimes(found.item.scheduled_after, reader, found.account.timezone)
        : null,
      days,
      back: backOf(back, found.postId),
      problem,
    });
  }

  return async function routes(base: FastifyInstance): Promise<void> {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    const editor = { role: 'editor' as const };

    app.get(
      '/items/:itemId/window',
      { config: editor, schema: { params: ItemParams, querystring: BackQuery } },
      (req, reply) => movePage(req, reply, req.params.itemId, req.query.back),
    );

    app.post(
      '/items/:itemId/window',
      { config: editor, schema: { params: ItemParams, body: MoveBody } },
      async (req, reply) => {
        const user = userOf(req);
        const { itemId } = req.params;
        const wantsJson = String(req.headers.accept ?? '').includes('application/json');
        const raw = (req.body.at ?? '').trim();
        const at = raw === 'next' ? null : new Date(raw);
        const found = await itemOf(user.companyId, itemId);
        const label = `@${found.account.username}`;
        let problem: string | null = null;
        if (at !== null && (raw === '' || Number.isNaN(at.getTime()))) {
          problem = 'Choose a window to move it to.';
        } else {
          const result = await moveItemToWindow(ctx, user.companyId, itemId, at, actorOf(user));
          if (result.outcome === 'not_found') throw new ActionRefused('not_found', 'Not found.');
          if (result.outcome === 'released') problem = refusalWords('released', label);
          if (result.outcome === 'refused') {
            let takenBy: string | undefined;
            if (result.takenBy) {
              const l = (await postLabels(ctx.db, user.companyId, [result.takenBy.postId])).get(
                result.takenBy.postId,
              );
              takenBy = postTitle(l?.caption ?? null, l?.mediaKind ?? 'video');
            }
            problem = refusalWords(result.reason, label, takenBy);
            if (wantsJson) {
              return reply.code(409).send({ ok: false, reason: result.reason, message: problem });
            }
          }
        }
        if (problem !== null) {
          if (wantsJson) return reply.code(409).send({ ok: false, message: problem });
          return movePage(req, reply, itemId, req.body.back, problem);
        }
        const reader = clockface(displayTimezone(req));
        const message =
          at === null
            ? `${found.title} on ${label} goes out in its next free window.`
            : `${found.title} on ${label} moved to ${bothTimes(at.toISOString(), reader, found.account.timezone).reader}.`;
        // The calendar's script reloads the page after a move: the notice shows there.
        setFlash(ctx, req, reply, message);
        if (wantsJson) return reply.send({ ok: true, message });
        return redirect(req, reply, backOf(req.body.back, found.postId));
      },
    );
  };
}

function daysOf(
  choices: readonly { start: Date; state: string; takenBy?: string }[],
  reader: Clockface,
  workerZone: string,
  floor: string | null,
  takenTitle: (itemId: string) => string,
): Day[] {
  const days = new Map<string, Day>();
  const named = new Intl.DateTimeFormat('en-GB', {
    timeZone: reader.timezone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  });
  for (const c of choices) {
    const iso = c.start.toISOString();
    const date = reader.localDate(iso);
    let day = days.get(date);
    if (!day) {
      day = { date, name: named.format(c.start), windows: [] };
      days.set(date, day);
    }
    const t = bothTimes(iso, reader, workerZone);
    day.windows.push({
      iso,
      reader: reader.time(iso),
      worker: t.worker,
      state:
        floor === iso && c.state === 'free'
          ? 'current'
          : (c.state as 'free' | 'taken' | 'day_at_cap'),
      takenBy: c.takenBy ? takenTitle(c.takenBy) : null,
    });
  }
  return [...days.values()];
}
