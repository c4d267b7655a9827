// The daily summary, off by default: once a company's day has reached SUMMARY_HOUR in its
// timezone (its default timezone, UTC without one), what yesterday delivered (released,
// posted, on time, failed, unconfirmed) and what waits today (queued, awaiting approval) goes
// to the company's chat hooks that chose the kind. By mail only to people who turned it on
// (the fan-out's seam answers nobody for a default-off kind until such a choice exists). A
// mark per company and local date makes it go out once whichever dispatcher runs the pass.
// Runs with the dispatcher, at most once a minute.
import type { AppContext } from '../context.ts';
import { chatLink, chatText, companiesWantingAlert } from '../modules/alerts/index.ts';
import { getCompany } from '../modules/companies/index.ts';
import { UNCONFIRMED_REASON, dayTally, type DayTally } from '../modules/items/index.ts';
import { markNew } from '../modules/notify/index.ts';
import { companyApprovers } from '../modules/users/index.ts';
import { localDateString, wallDayNumber, wallToInstant, zoneOf } from '../schedule/local-time.ts';
import { fanOut } from './notice-fanout.ts';

/** The local hour from which a company's summary of yesterday goes out. */
export const SUMMARY_HOUR = 8;
/** How often a dispatcher runs the pass. */
export const SUMMARY_PASS_MS = 60_000;
const DAY_MS = 86_400_000;
const KIND = 'daily_summary';

const lastPass = new WeakMap<AppContext, number>();

/** Runs the pass unless this process ran it within the last minute. */
export async function sendDailySummariesNow(ctx: AppContext, now: Date): Promise<number | null> {
  const last = lastPass.get(ctx);
  if (last !== undefined && now.getTime() - last < SUMMARY_PASS_MS && now.getTime() >= last) {
    return null;
  }
  lastPass.set(ctx, now.getTime());
  return sendDailySummaries(ctx, now);
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`;
}

/** Sends the summaries due at `now`; answers how many companies were newly told. */
export async function sendDailySummaries(ctx: AppContext, now: Date): Promise<number> {
  let sent = 0;
  for (const companyId of await companiesWantingAlert(ctx.db, KIND)) {
    const company = await getCompany(ctx.db, companyId);
    if (!company || company.suspendedAt) continue;
    const timezone = company.defaultTimezone ?? 'UTC';
    const zone = zoneOf(timezone);
    const today = wallDayNumber(zone, now.getTime());
    const localHour = Math.floor(
      (now.getTime() + zone.offset(now.getTime()) * 60_000 - today * DAY_MS) / 3_600_000,
    );
    if (localHour < SUMMARY_HOUR) continue;
    const todayDate = localDateString(today);
    // Yesterday, from its local midnight to today's.
    const from = new Date(wallToInstant(zone, (today - 1) * DAY_MS)).toISOString();
    const to = new Date(wallToInstant(zone, today * DAY_MS)).toISOString();
    const told = await ctx.db.transaction().execute(async (tx) => {
      const marked = await markNew(
        tx,
        [{ subjectId: companyId, kind: KIND, occasion: todayDate, companyId }],
        now.toISOString(),
      );
      if (marked.length === 0) return false;
      const tally = await dayTally(tx, companyId, from, to, UNCONFIRMED_REASON);
      const url = `${ctx.config.publicUrl}/dashboard`;
      await fanOut(
        ctx,
        tx,
        {
          audience: 'user',
          companyId,
          kind: KIND,
          urgent: false,
          dedupeKey: `${KIND}:${companyId}@${todayDate}`,
          people: await companyApprovers(tx, companyId),
          chat: { companyId, kind: KIND, text: summaryText(company.name, tally, url) },
        },
        now,
      );
      return true;
    });
    if (told) sent++;
  }
  return sent;
}

function summaryText(companyName: string, t: DayTally, url: string) {
  const yesterday =
    t.released === 0
      ? 'nothing was released'
      : `${t.released} released, ${t.posted} posted (${t.onTime} on time, ${percent(t.onTime, t.posted)}), ${t.failed} failed, ${t.unconfirmed} not confirmed`;
  return chatText`*Daily summary for ${companyName}*\nYesterday: ${yesterday}.\nToday: ${t.queued} queued, ${t.awaitingApproval} awaiting approval. ${chatLink(url, 'Open the dashboard')}`;
}
