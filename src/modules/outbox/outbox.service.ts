// Messages to people as rows (GUIDE, "Rules of direction"): a mail is written in the
// transaction of what caused it and sent by whichever process's outbox loop claims it
// first (dispatch/outbox-loop.ts). A claim is a lease, so a process that dies mid-send
// leaves the message to be taken again once the lease runs out; the message id travels as
// the mail's Message-ID, so a receiver that got the first try can tell the second apart.
// A refusal the server calls permanent (5xx) fails the message at once; anything else
// (4xx, no connection, a timeout) is tried again with a growing wait, MAX_ATTEMPTS in all.
import { raise, onSignal } from '../../db/signals.ts';
import type { Mailing } from '../../context.ts';
import type { DbOrTx, OutboxMessagesTable } from '../../db/types.ts';
import { newId } from '../../lib/ids.ts';
import { renderMail, type MailContent } from './mail-layout.rules.ts';
import * as repo from './outbox.repository.ts';

/** Claims of one message before it fails for good (about a day of retries in all). */
export const MAX_ATTEMPTS = 8;
/** Wait before the second attempt; each later one waits three times longer, up to a cap. */
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 6 * 3_600_000;

const SIGNAL = 'outbox';

/**
 * How a message reaches its person: a mail, a push to one of their devices, or a post to
 * a chat app's incoming webhook (modules/alerts).
 */
export type Channel = 'email' | 'push' | 'chat';

export interface OutgoingMail {
  /** `email` by default; a `push` goes to the subscription whose id is `to`, a `chat` to the hook. */
  channel?: Channel;
  /** The company it concerns; null for the operator side's messages. */
  companyId: string | null;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** At most one message is ever written per key. */
  dedupeKey?: string;
  /** Not sent before this (the end of the person's quiet hours); at once when absent or past. */
  dueAt?: Date;
}

export interface ClaimedMail {
  id: string;
  channel: Channel;
  companyId: string | null;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  headers: Record<string, string>;
  /** This claim's attempt, from 1. */
  attempt: number;
}

/** How one attempt ended: accepted by the server, or refused (for good or for now). */
export type SendResult = { ok: true } | { ok: false; permanent: boolean; error: string };

/** The wait before attempt `attempt + 1`, after `attempt` failed. */
export function retryDelayMs(attempt: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 3 ** Math.max(0, attempt - 1));
}

/**
 * Writes a mail in the caller's transaction and wakes this process's outbox loop once the
 * commit has had its chance. Returns its id, or null when its dedupe key was used before.
 */
export async function enqueueMail(
  tx: DbOrTx,
  mail: OutgoingMail,
  at: Date,
): Promise<string | null> {
  const row = rowOf(mail, at);
  if (!(await repo.insertMessage(tx, row))) return null;
  raise(tx, SIGNAL);
  return row.id;
}

/** Writes many messages in the caller's transaction, in a few statements; answers how many. */
export async function enqueueMany(
  tx: DbOrTx,
  mails: readonly OutgoingMail[],
  at: Date,
): Promise<number> {
  if (mails.length === 0) return 0;
  const written = await repo.insertMessages(
    tx,
    mails.map((m) => rowOf(m, at)),
  );
  if (written > 0) raise(tx, SIGNAL);
  return written;
}

function rowOf(mail: OutgoingMail, at: Date): OutboxMessagesTable {
  const iso = at.toISOString();
  const due = mail.dueAt && mail.dueAt.getTime() > at.getTime() ? mail.dueAt.toISOString() : iso;
  return {
    id: newId('msg', at.getTime()),
    company_id: mail.companyId,
    channel: mail.channel ?? 'email',
    kind: mail.kind,
    recipient: mail.to,
    dedupe_key: mail.dedupeKey ?? null,
    subject: mail.subject,
    body_text: mail.text,
    body_html: mail.html ?? null,
    headers: mail.headers ? JSON.stringify(mail.headers) : null,
    status: 'waiting',
    created_at: iso,
    due_at: due,
    attempts: 0,
    lease_owner: null,
    lease_until: null,
    sent_at: null,
    last_error: null,
  };
}

export type { Mailing };

/** Who a message goes to and what it is about; the rest comes from its content. */
export interface MailEnvelope {
  companyId: string | null;
  kind: string;
  to: string;
  dedupeKey?: string;
  /** Held until then (quiet hours); at once when absent or past. */
  dueAt?: Date;
}

/** Renders `content` in the service's layout and writes it in the caller's transaction. */
export async function sendMail(
  tx: DbOrTx,
  envelope: MailEnvelope,
  content: MailContent,
  at: Date,
): Promise<string | null> {
  const rendered = renderMail(content);
  return enqueueMail(
    tx,
    {
      ...envelope,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      headers: rendered.headers,
    },
    at,
  );
}

/** Calls `listener` after mail is written through this process's handle of the database. */
export function onMailEnqueued(db: DbOrTx, listener: () => void): () => void {
  return onSignal(db, SIGNAL, listener);
}

function mailOf(row: OutboxMessagesTable): ClaimedMail {
  return {
    id: row.id,
    channel: row.channel as Channel,
    companyId: row.company_id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    text: row.body_text,
    html: row.body_html,
    headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
    attempt: row.attempts,
  };
}

/** Leases up to `limit` due messages of `channel` to `lease.owner` for `lease.ms`. */
export async function claimMail(
  db: DbOrTx,
  limit: number,
  lease: { owner: string; ms: number },
  now: Date,
  channel: Channel = 'email',
): Promise<ClaimedMail[]> {
  if (limit <= 0) return [];
  const rows = await repo.claim(
    db,
    channel,
    limit,
    lease.owner,
    now.toISOString(),
    new Date(now.getTime() + lease.ms).toISOString(),
  );
  return rows.map(mailOf);
}

/**
 * Records how an attempt ended: sent; failed for good (a permanent refusal, or the last
 * attempt); or waiting for its retry. False when the lease was no longer `owner`'s.
 */
export async function settleMail(
  db: DbOrTx,
  mail: ClaimedMail,
  owner: string,
  result: SendResult,
  now: Date,
): Promise<boolean> {
  if (result.ok) return repo.settle(db, mail.id, owner, { status: 'sent', at: now.toISOString() });
  if (result.permanent || mail.attempt >= MAX_ATTEMPTS) {
    return repo.settle(db, mail.id, owner, { status: 'failed', error: result.error });
  }
  const dueAt = new Date(now.getTime() + retryDelayMs(mail.attempt)).toISOString();
  return repo.settle(db, mail.id, owner, { status: 'waiting', dueAt, error: result.error });
}

/**
 * Headers of a push row that are never sent: whose device it went to (`worker wrk_...` or
 * `user usr_...`) and the push service's host, kept so the outbox pages can name both
 * after the subscription itself has gone.
 */
export const PUSH_OWNER_HEADER = 'Push-Owner';
export const PUSH_HOST_HEADER = 'Push-Host';

/** Whose device a push went to, and its push service's host (never the endpoint). */
export interface PushTarget {
  audience: 'worker' | 'user';
  ownerId: string;
  host: string;
}

function pushTargetOf(row: OutboxMessagesTable): PushTarget | null {
  if (row.channel !== 'push' || !row.headers) return null;
  const headers = JSON.parse(row.headers) as Record<string, string>;
  const [audience, ownerId] = (headers[PUSH_OWNER_HEADER] ?? '').split(' ');
  if ((audience !== 'worker' && audience !== 'user') || !ownerId) return null;
  return { audience, ownerId, host: headers[PUSH_HOST_HEADER] ?? 'an unknown push service' };
}

export const MESSAGE_STATUSES = ['waiting', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A message as the outbox pages show it: never its body, whose links are secrets. */
export interface OutboxMessage {
  id: string;
  channel: Channel;
  companyId: string | null;
  kind: string;
  to: string;
  subject: string;
  status: MessageStatus;
  createdAt: string;
  /** When it is tried next, while it waits. */
  dueAt: string;
  sentAt: string | null;
  attempts: number;
  lastError: string | null;
  /** A push's device and its owner; null for other channels. */
  push: PushTarget | null;
}

function messageOf(row: OutboxMessagesTable): OutboxMessage {
  return {
    id: row.id,
    channel: row.channel as Channel,
    companyId: row.company_id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    status: row.status as MessageStatus,
    createdAt: row.created_at,
    dueAt: row.due_at,
    sentAt: row.sent_at,
    attempts: row.attempts,
    lastError: row.last_error,
    push: pushTargetOf(row),
  };
}

/** One message as the outbox pages show it; undefined for an unknown id. */
export async function getMessage(db: DbOrTx, id: string): Promise<OutboxMessage | undefined> {
  const row = await repo.findMessage(db, id);
  return row && messageOf(row);
}

/**
 * A page of messages, newest first: one company's (`companyId`), the operator side's
 * (`null`) or every one (undefined), of one status when given, of the given channels (mail
 * only by default); `before` is the (createdAt, id) of the last message seen.
 */
export async function listMessages(
  db: DbOrTx,
  filter: { companyId?: string | null; status?: MessageStatus; channels?: readonly Channel[] },
  page: { before?: readonly [string, string] | null; limit: number },
): Promise<OutboxMessage[]> {
  return (await repo.pageMessages(db, filter, page)).map(messageOf);
}

/** Messages waiting to be sent, and when the oldest was written (readiness, metrics). */
export function outboxBacklog(db: DbOrTx): Promise<{ count: number; oldest: string | null }> {
  return repo.waiting(db);
}
