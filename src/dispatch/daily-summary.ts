// The daily summary, off by default: once a company's day has reached SUMMARY_HOUR in its
// timezone (its default timezone, UTC without one), what yesterday delivered (released,
// posted, on time, failed, unconfirmed) and what waits today (queued, awaiting approval) goes
// to the company's chat hooks that chose the kind, and by mail to its admins and editors
// who turned it on on their notifications page (nobody else: the kind is off by default). A
// mark per company and local date makes it go out once whichever dispatcher runs the pass.
// Runs with the dispatcher, at most once a minute.
import type { AppContext } from '../context.ts';
import { chatLink, chatText, companiesWantingAlert } from '../modules/alerts/index.ts';
import { getCompany } from '../modules/companies/index.ts';
import { UNCONFIRMED_REASON, dayTally } from '../modules/items/index.ts';
import {
  dailySummaryMail,
  markNew,
  ownersOptedIn,
  yesterdayWords,
  type SummaryFacts,
} from '../modules/notify/index.ts';
import { companiesOfUsers, companyApprovers } from '../modules/users/index.ts';
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

/** The companies a summary may go to: a hook chose it, or someone turned its mail on. */
async function summaryCompanies(ctx: AppContext): Promise<string[]> {
  const byHook = await companiesWantingAlert(ctx.db, KIND);
  const mailing = ctx.mailing
    ? await companiesOfUsers(ctx.db, await ownersOptedIn(ctx.db, 'user', KIND, 'email'))
    : [];
  return [...new Set([...byHook, ...mailing])];
}

/** Sends the summaries due at `now`; answers how many companies were newly told. */
export async function sendDailySummaries(ctx: AppContext, now: Date): Promise<number> {
  let sent = 0;
  for (const companyId of await summaryCompanies(ctx)) {
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
      const facts: SummaryFacts = {
        companyName: company.name,
        date: localDateString(today - 1),
        ...tally,
      };
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
          mail: (person, unsubscribeUrl) =>
            dailySummaryMail(facts, { email: person.email, url, unsubscribeUrl }),
          chat: { companyId, kind: KIND, text: summaryText(facts, url) },
        },
        now,
      );
      return true;
    });
    if (told) sent++;
  }
  return sent;
}

function summaryText(f: SummaryFacts, url: string) {
  return chatText`*Daily summary for ${f.companyName}*\nYesterday: ${yesterdayWords(f)}.\nToday: ${f.queued} queued, ${f.awaitingApproval} awaiting approval. ${chatLink(url, 'Open the dashboard')}`;
}
