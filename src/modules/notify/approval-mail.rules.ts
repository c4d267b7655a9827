// What approvers are told about items waiting for them: a reminder when a window is near
// (everything newly due, grouped, with the approvals inbox to act in) and, to admins, an
// escalation when a window will be missed within minutes. Neither is a security message:
// each carries its unsubscribe link. Nothing here reads the clock or the database.
import { mailDateTime, type MailContent } from '../outbox/index.ts';

export interface WaitingItem {
  username: string;
  platform: string;
  caption: string | null;
  /** The window the item would miss without approval. */
  windowStart: string;
}

export interface ApprovalFacts {
  companyName: string;
  email: string;
  timezone: string | null;
  items: readonly WaitingItem[];
  inboxUrl: string;
  unsubscribeUrl: string;
  /** The company's lead time, in minutes (reminders only). */
  leadMinutes: number;
}

function excerpt(caption: string | null): string {
  if (!caption) return 'no caption';
  const flat = caption.replace(/\s+/g, ' ').trim();
  return `“${flat.length > 60 ? `${flat.slice(0, 59)}…` : flat}”`;
}

/** "@demo.kitchen (platformA), window Thu 3 Dec 2026, 14:00 UTC: “Sunset…”". */
export function itemLine(item: WaitingItem, timezone: string | null): string {
  return `@${item.username} (${item.platform}), window ${mailDateTime(item.windowStart, timezone)}: ${excerpt(item.caption)}`;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** "2 hours", "90 minutes", "1 hour". */
export function leadWords(minutes: number): string {
  if (minutes % 60 === 0) return `${minutes / 60} ${plural(minutes / 60, 'hour', 'hours')}`;
  return `${minutes} minutes`;
}

export function approvalDueMail(facts: ApprovalFacts): MailContent {
  const n = facts.items.length;
  return {
    subject: `${n} ${plural(n, 'post waits', 'posts wait')} for approval before ${plural(n, 'its window', 'their windows')} · ${facts.companyName}`,
    heading: `Approve ${plural(n, 'this post', 'these posts')} before ${plural(n, 'its window', 'their windows')}`,
    paragraphs: [
      `${n === 1 ? 'A post' : `${n} posts`} for ${facts.companyName} ${plural(n, 'waits', 'wait')} for approval, and ${plural(n, 'its', 'their')} next posting ${plural(n, 'window opens', 'windows open')} within ${leadWords(facts.leadMinutes)}. Unless approved by then, ${plural(n, 'it goes', 'they go')} out in a later window.`,
      ...facts.items.map((i) => `• ${itemLine(i, facts.timezone)}`),
    ],
    action: { label: 'Open approvals', url: facts.inboxUrl },
    why: `You get this because you can approve posts for ${facts.companyName} (${facts.email}). Reminders come ${leadWords(facts.leadMinutes)} before a waiting post’s window, once per post and window.`,
    stop: { unsubscribeUrl: facts.unsubscribeUrl },
  };
}

export function approvalMissedMail(facts: Omit<ApprovalFacts, 'leadMinutes'>): MailContent {
  const n = facts.items.length;
  return {
    subject: `${n} ${plural(n, 'post', 'posts')} will miss ${plural(n, 'its window', 'their windows')} without approval · ${facts.companyName}`,
    heading: `${n === 1 ? 'A post' : `${n} posts`} will miss ${plural(n, 'its window', 'their windows')}`,
    paragraphs: [
      `${n === 1 ? 'This post' : 'These posts'} for ${facts.companyName} still ${plural(n, 'waits', 'wait')} for approval, and ${plural(n, 'its window opens', 'their windows open')} within 30 minutes. Approve or reject ${plural(n, 'it', 'them')} now, or ${plural(n, 'it goes', 'they go')} out in a later window.`,
      ...facts.items.map((i) => `• ${itemLine(i, facts.timezone)}`),
    ],
    action: { label: 'Open approvals', url: facts.inboxUrl },
    why: `You get this because you are an admin of ${facts.companyName} (${facts.email}) and the reminder sent to its approvers was not acted on.`,
    stop: { unsubscribeUrl: facts.unsubscribeUrl },
  };
}
