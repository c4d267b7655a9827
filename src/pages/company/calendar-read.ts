// The posting calendar (dashboard): the items of a day, a week (Monday first) or a month laid
// out by the days of the reader's timezone, for every account of a company or one of them.
// Queued items sit at their planned slot start (SPEC 2.6 scheduledSlotStart), released ones
// (posting, posted, failed) at their release; each account says why it gets nothing
// (DECISIONS 5 and 7) and which worker operates it. Read in a few queries for a whole
// company whatever the period holds: queued items one text per account, releases counted per
// day, and only the items a day lists are read with their posts, their thumbnails signed.
// What is read and planned is kept while the data is unchanged; after a write, each
// account's plan is kept while what it was planned from is (most writes change one account).
import type { AppContext } from '../../context.ts';
import { addDays, daySlots, localDateOf } from '../../schedule/windows.ts';
import {
  calendarDetails,
  calendarReleased,
  calendarReleasedCounts,
  type CalendarDetailRow,
} from '../../modules/items/index.ts';
import { postThumbnailUrl, readyThumbnails } from '../../modules/posts/index.ts';
import { calendarPeriod } from './calendar-period.ts';
import type {
  CalendarEntry,
  FreeWindow,
  CalendarDay,
  CalendarInput,
  CompanyCalendar,
} from './calendar-model.ts';
import { type Placed, byTime, dayStart, dayIndex, firstAtOrAfter, iso } from './calendar-store.ts';
import { keep, companyPlan } from './calendar-plan.ts';

/** The signed address of an item's post thumbnail, or null while it has none. */
function thumbnailOf(ctx: AppContext, r: CalendarDetailRow, ready: Set<string>): string | null {
  return postThumbnailUrl(
    ctx,
    {
      id: r.post_id,
      carousel: Boolean(r.carousel),
      thumbnail_key: r.thumbnail_key,
      thumbnail_upload_id: r.thumbnail_upload_id,
    },
    r.thumbnail_upload_id !== null && ready.has(r.thumbnail_upload_id),
  );
}

/**
 * The signed thumbnail address of the post of one of the company's items, or null (no such
 * item of the company, or no thumbnail yet). Pages link to it by the item, in a few bytes,
 * rather than carry a long signed address per item.
 */
export async function calendarThumbnail(
  ctx: AppContext,
  companyId: string,
  itemId: string,
): Promise<string | null> {
  const [row] = await calendarDetails(ctx.db, companyId, [itemId]);
  if (!row) return null;
  return thumbnailOf(ctx, row, await readyThumbnails(ctx, [row]));
}

/** A day's releases: how many per status, and the first of them (all, without a limit). */
interface ReleasedDay {
  counts: Readonly<Record<string, number>>;
  first: readonly Placed[];
}

/** The releases of each day of `bounds` (day starts, then the end): counted, the first listed. */
function releasedByDay(
  ctx: AppContext,
  companyId: string,
  bounds: readonly number[],
  need: number,
  only: string | undefined,
): Promise<ReleasedDay[]> {
  return Promise.all(
    bounds.slice(0, -1).map(async (start, i) => {
      const from = iso(start);
      const to = iso(bounds[i + 1] as number);
      const counts: Record<string, number> = {};
      let all = 0;
      for (const r of await calendarReleasedCounts(ctx.db, companyId, from, to, only)) {
        counts[r.status] = r.n;
        all += r.n;
      }
      if (all === 0 || need <= 0) return { counts, first: [] };
      const limit = Number.isFinite(need) ? need : undefined;
      const rows = await calendarReleased(ctx.db, companyId, from, to, only, limit);
      const first = rows.map((r): Placed => ({
        id: r.id,
        accountId: r.account_id,
        status: r.status,
        at: Date.parse(r.released_at),
        makeup: false,
      }));
      return { counts, first: first.sort(byTime) };
    }),
  );
}

/**
 * The company's calendar for a period, or null when `accountId` names no account of the
 * company (another company's account reads as an unknown one). Releases are counted per day;
 * only those a day lists are read one by one, with their posts.
 */
export async function companyCalendar(
  ctx: AppContext,
  companyId: string,
  input: CalendarInput,
): Promise<CompanyCalendar | null> {
  const tz = input.timezone;
  const only = input.accountId;
  const period = calendarPeriod(input.view, input.date);
  const dates: string[] = [];
  for (let d = period.start; d < period.end; d = addDays(d, 1)) dates.push(d);
  const bounds = [...dates, period.end].map((d) => dayStart(d, tz));
  const from = bounds[0] as number;
  const to = bounds[bounds.length - 1] as number;
  const limit = input.perDay ?? Number.POSITIVE_INFINITY;
  const skip = input.skip ?? 0;
  const need = skip + limit;

  const [plan, releasedDays] = await Promise.all([
    companyPlan(ctx, companyId, only),
    keep(
      ctx,
      `released|${companyId}|${only ?? ''}|${tz}|${period.start}|${period.end}|${need}`,
      () => releasedByDay(ctx, companyId, bounds, need, only),
    ),
  ]);
  if (only !== undefined && !plan.accounts.some((a) => a.summary.accountId === only)) {
    return null;
  }
  const nowMs = plan.now;
  const free: FreeWindow[][] = dates.map(() => []);
  let waiting = 0;
  for (const a of plan.accounts) {
    if (only !== undefined && only !== a.summary.accountId) continue;
    waiting += a.summary.waiting;
    const blocked = a.summary.blocked;
    if (only === undefined || to <= nowMs) continue;
    if (blocked !== null && !blocked.startsWith('daily cap')) continue;
    // The one account's windows still open to a post, in the period.
    const taken = new Set(a.planned.map((p) => p.at));
    const last = localDateOf(to - 1, a.timezone);
    for (let d = localDateOf(Math.max(from, nowMs), a.timezone); d <= last; d = addDays(d, 1)) {
      for (const s of daySlots(a.windows, a.timezone, d)) {
        const at = s.start.getTime();
        if (s.kind !== 'window' || at <= nowMs || taken.has(at)) continue;
        const i = dayIndex(bounds, at);
        if (i >= 0) free[i]?.push({ at: s.start.toISOString(), label: s.label });
      }
    }
  }

  // Each day's first items: its first planned slots (found by bisection of the company's
  // plan) and its first releases, in time order; the rest are counted.
  let total = 0;
  const shape = dates.map((_, i) => {
    const lo = firstAtOrAfter(plan.ats, bounds[i] as number);
    const hi = firstAtOrAfter(plan.ats, bounds[i + 1] as number);
    const day = releasedDays[i] as ReleasedDay;
    const c: Record<string, number> = { ...day.counts };
    if (hi > lo) c.queued = hi - lo;
    let all = 0;
    for (const n of Object.values(c)) all += n;
    total += all;
    const list: Placed[] = plan.slots.slice(lo, Math.min(hi, lo + need));
    for (const r of day.first) list.push(r);
    list.sort(byTime);
    const listed = list.slice(skip, skip + limit);
    return { listed, more: Math.max(0, all - skip - listed.length), counts: c };
  });
  const kept = shape.flatMap((d) => d.listed);
  const details = new Map(
    (
      await calendarDetails(
        ctx.db,
        companyId,
        kept.map((p) => p.id),
      )
    ).map((r) => [r.id, r]),
  );
  const ready = await readyThumbnails(ctx, [...details.values()]);
  const toEntry = (p: Placed): CalendarEntry | null => {
    const r = details.get(p.id);
    if (!r) return null;
    const thumbnailUrl = thumbnailOf(ctx, r, ready);
    return {
      queueItemId: p.id,
      postId: r.post_id,
      accountId: p.accountId,
      status: p.status,
      priority: r.priority,
      caption: r.caption ?? '',
      at: iso(p.at),
      makeup: p.makeup,
      postUrl: r.post_url,
      error: p.status === 'failed' ? r.failure_reason : null,
      mediaKind: r.carousel ? 'carousel' : r.media_kind,
      hasThumbnail: thumbnailUrl !== null,
    };
  };
  const days: CalendarDay[] = shape.map((d, i) => ({
    localDate: dates[i] as string,
    entries: d.listed.map(toEntry).filter((e): e is CalendarEntry => e !== null),
    more: d.more,
    counts: d.counts,
    free: free[i] ?? [],
  }));
  const summaries = plan.sorted.slice();
  return {
    period,
    timezone: tz,
    today: localDateOf(ctx.clock.now(), tz),
    days,
    accounts: summaries,
    account: summaries.find((a) => a.accountId === only) ?? null,
    total,
    waiting,
  };
}
