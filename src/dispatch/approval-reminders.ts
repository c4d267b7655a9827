// Approvals that know their deadline. An item waiting for approval has one: the next window
// of its account at or after its earliest-release floor, which it misses unless approved by
// then. When that window opens within the company's lead time (2 hours unless changed), the
// company's approvers are reminded, everything newly due in one message; when it opens
// within 30 minutes, its admins are told it will be missed. Each goes by mail and to the
// pushed devices of the people who keep the kind on for that channel (a reminder held by
// someone's quiet hours until after the window is not sent to them; the escalation is
// urgent and goes through quiet hours), and to the company's chat alerts (notice-fanout.ts),
// and is written with a mark per item and window in one transaction, so that it goes out
// once per item and window whichever dispatcher runs the pass. Runs with the dispatcher, at
// most once a minute.
import type { AppContext } from '../context.ts';
import type { DbOrTx } from '../db/types.ts';
import { chatLink, chatText } from '../modules/alerts/index.ts';
import { nextWindowAt } from '../modules/accounts/index.ts';
import { pendingApprovalItems, type PendingApprovalRow } from '../modules/items/index.ts';
import {
  approvalDueMail,
  approvalMissedMail,
  deleteMarksBefore,
  markNew,
  type WaitingItem,
} from '../modules/notify/index.ts';
import { mailDateTime } from '../modules/outbox/index.ts';
import { companyApprovers } from '../modules/users/index.ts';
import { fanOut } from './notice-fanout.ts';

/** An item's window this close is escalated to the company's admins. */
export const ESCALATE_MS = 30 * 60_000;
/** Pending items read per page. */
const PAGE = 500;
/** Marks are kept this long, well past any window they were about. */
const MARKS_KEPT_MS = 14 * 24 * 3_600_000;
/** How often a dispatcher runs the pass. */
export const APPROVAL_PASS_MS = 60_000;

const INBOX = '/dashboard/approvals';
type Kind = 'approval_due' | 'approval_missed';

interface Due {
  row: PendingApprovalRow;
  windowStart: string;
}

export interface ApprovalReminderResult {
  /** Items newly reminded about, and newly escalated. */
  reminded: number;
  escalated: number;
}

/** The window an item waiting for approval misses unless approved: its deadline. */
export function approvalDeadline(
  row: Pick<
    PendingApprovalRow,
    'timezone' | 'schedule_windows' | 'company_windows' | 'scheduled_after'
  >,
  now: Date,
): string {
  const floor =
    row.scheduled_after && Date.parse(row.scheduled_after) > now.getTime()
      ? new Date(row.scheduled_after)
      : now;
  return nextWindowAt(row.timezone, row.schedule_windows, row.company_windows, floor).at;
}

const lastPass = new WeakMap<AppContext, number>();

/** Runs the pass unless this process ran it within the last minute. */
export async function remindApprovalsNow(
  ctx: AppContext,
  now: Date,
): Promise<ApprovalReminderResult | null> {
  const last = lastPass.get(ctx);
  if (last !== undefined && now.getTime() - last < APPROVAL_PASS_MS && now.getTime() >= last) {
    return null;
  }
  lastPass.set(ctx, now.getTime());
  return remindApprovals(ctx, now);
}

export async function remindApprovals(ctx: AppContext, now: Date): Promise<ApprovalReminderResult> {
  const due = new Map<string, { reminders: Due[]; escalations: Due[] }>();
  let after: string | undefined;
  for (;;) {
    const rows = await pendingApprovalItems(ctx.db, PAGE, after);
    for (const row of rows) {
      // A suspended company's items and accounts that take no posts now wait regardless.
      if (row.suspended_at !== null || row.account_status !== 'active') continue;
      const windowStart = approvalDeadline(row, now);
      const left = Date.parse(windowStart) - now.getTime();
      if (left > row.approval_lead_minutes * 60_000) continue;
      const company = due.get(row.company_id) ?? { reminders: [], escalations: [] };
      company.reminders.push({ row, windowStart });
      if (left <= ESCALATE_MS) company.escalations.push({ row, windowStart });
      due.set(row.company_id, company);
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]?.id;
  }
  const result: ApprovalReminderResult = { reminded: 0, escalated: 0 };
  for (const [companyId, company] of due) {
    await ctx.db.transaction().execute(async (tx) => {
      result.reminded += await tell(ctx, tx, companyId, 'approval_due', company.reminders, now);
      result.escalated += await tell(
        ctx,
        tx,
        companyId,
        'approval_missed',
        company.escalations,
        now,
      );
    });
  }
  await deleteMarksBefore(ctx.db, new Date(now.getTime() - MARKS_KEPT_MS).toISOString());
  return result;
}

/** Marks the items of one company and kind; tells about those not told before. */
async function tell(
  ctx: AppContext,
  tx: DbOrTx,
  companyId: string,
  kind: Kind,
  items: readonly Due[],
  now: Date,
): Promise<number> {
  if (items.length === 0) return 0;
  const marked = await markNew(
    tx,
    items.map((d) => ({ subjectId: d.row.id, kind, occasion: d.windowStart, companyId })),
    now.toISOString(),
  );
  if (marked.length === 0) return 0;
  const fresh = new Set(marked.map((m) => `${m.subjectId}|${m.occasion}`));
  const told = items
    .filter((d) => fresh.has(`${d.row.id}|${d.windowStart}`))
    .sort(
      (a, b) =>
        a.windowStart.localeCompare(b.windowStart) || a.row.username.localeCompare(b.row.username),
    );
  const firstDue = told[0] as Due;
  const first = { ...firstDue.row, windowStart: firstDue.windowStart };
  const waiting: WaitingItem[] = told.map((d) => ({
    username: d.row.username,
    platform: d.row.platform,
    caption: d.row.caption,
    windowStart: d.windowStart,
  }));
  // One key per message: the items it names and the window each is about.
  const key = `${kind}:${told.map((d) => `${d.row.id}@${d.windowStart}`).join(',')}`;
  const inboxUrl = `${ctx.config.publicUrl}${INBOX}`;
  const people = await companyApprovers(tx, companyId, kind === 'approval_missed');
  const n = told.length;
  const title =
    kind === 'approval_due'
      ? `${n} ${n === 1 ? 'post waits' : 'posts wait'} for approval`
      : `${n === 1 ? 'A post' : `${n} posts`} will miss ${n === 1 ? 'its window' : 'their windows'}`;
  const names = [...new Set(told.map((d) => `@${d.row.username}`))].join(', ');
  const lines = told
    .map((d) => `• @${d.row.username} (${d.row.platform}), window ${mailDateTime(d.windowStart)}`)
    .join('\n');
  await fanOut(
    ctx,
    tx,
    {
      audience: 'user',
      companyId,
      kind,
      urgent: kind === 'approval_missed',
      dedupeKey: key,
      // A reminder held past the window by someone's quiet hours is news no more.
      staleAt: new Date(first.windowStart),
      people,
      mail: (person, unsubscribe) => {
        const facts = {
          companyName: first.company_name,
          email: person.email,
          timezone: person.timezone,
          items: waiting,
          inboxUrl,
          unsubscribeUrl: unsubscribe,
          leadMinutes: first.approval_lead_minutes,
        };
        return kind === 'approval_due' ? approvalDueMail(facts) : approvalMissedMail(facts);
      },
      push: {
        notice: {
          title,
          body: `${names}: approve before the window opens.`,
          url: INBOX,
          tag: `${kind}-${companyId}`,
        },
        // Kept until the window opens (staleAt): this is its span from now.
        ttlSeconds: Math.max(60, (Date.parse(first.windowStart) - now.getTime()) / 1000),
      },
      chat: {
        companyId,
        kind,
        text: chatText`*${title}* for ${first.company_name}. ${chatLink(inboxUrl, 'Open approvals')}\n${lines}`,
      },
    },
    now,
  );
  return told.length;
}
