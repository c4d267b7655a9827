// The daily summary by mail, for the people who turned it on: what yesterday delivered
// (released, posted, on time, failed, unconfirmed) and what waits today, in the same words
// as the chat summary. Nothing here reads the clock or the database.
import type { MailContent } from '../outbox/index.ts';

/** A company's day as the summary tells it. */
export interface SummaryFacts {
  companyName: string;
  /** The local date summarized ("2026-03-02"). */
  date: string;
  released: number;
  posted: number;
  onTime: number;
  failed: number;
  unconfirmed: number;
  queued: number;
  awaitingApproval: number;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`;
}

/** Yesterday in one sentence, for the mail and the chat message alike. */
export function yesterdayWords(f: SummaryFacts): string {
  return f.released === 0
    ? 'nothing was released'
    : `${f.released} released, ${f.posted} posted (${f.onTime} on time, ${percent(f.onTime, f.posted)}), ${f.failed} failed, ${f.unconfirmed} not confirmed`;
}

export function dailySummaryMail(
  f: SummaryFacts,
  to: { email: string; url: string; unsubscribeUrl: string },
): MailContent {
  return {
    subject: `Daily summary · ${f.companyName} · ${f.date}`,
    heading: `${f.companyName}: yesterday and today`,
    paragraphs: [
      `Yesterday (${f.date}): ${yesterdayWords(f)}.`,
      `Today: ${f.queued} queued for a window, ${f.awaitingApproval} awaiting approval.`,
    ],
    action: { label: 'Open the dashboard', url: to.url },
    why: `You get this because you turned on the daily summary of ${f.companyName} (${to.email}).`,
    stop: { unsubscribeUrl: to.unsubscribeUrl },
  };
}
