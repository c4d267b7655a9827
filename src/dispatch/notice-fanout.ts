// One notice, every channel: a mail to each person, a push to each of their devices and a
// chat alert to the hooks of the side that chose the kind, all written as outbox rows in the
// caller's transaction. Who gets it on which channel, and when, is decided in one place,
// deliverable(): today the people's opt-outs (notify_opt_outs) and kinds that are off unless
// someone turned them on; a preference store with quiet hours answers the same question the
// same way (a map from person to the time to send), so swapping it in changes nothing else.
import type { AppContext } from '../context.ts';
import type { DbOrTx } from '../db/types.ts';
import { queueChatAlert, type AlertKind, type ChatMarkup } from '../modules/alerts/index.ts';
import { optedOut, unsubscribeUrl } from '../modules/notify/index.ts';
import { sendMail, type MailContent } from '../modules/outbox/index.ts';
import { queuePush, type PushNotice } from '../modules/push/index.ts';

export type Audience = 'user' | 'operator' | 'worker';
export type NoticeChannel = 'email' | 'push';

/** Kinds nobody receives by mail or push unless they turned them on. */
const DEFAULT_OFF = new Set(['daily_summary']);

export interface DeliveryQuestion {
  audience: Audience;
  ownerIds: readonly string[];
  kind: string;
  channel: NoticeChannel;
  /** Cannot wait (a window about to be missed): goes through quiet hours. */
  urgent: boolean;
}

/**
 * The seam: who among `ownerIds` gets `kind` on `channel`, and when. Each person left out
 * turned it off (or never turned a default-off kind on); everyone else is sent it at `now`.
 */
export async function deliverable(
  tx: DbOrTx,
  q: DeliveryQuestion,
  now: Date,
): Promise<Map<string, Date>> {
  const out = new Map<string, Date>();
  if (q.ownerIds.length === 0 || DEFAULT_OFF.has(q.kind)) return out;
  const off = await optedOut(tx, q.audience, q.ownerIds, q.kind, q.channel);
  for (const id of q.ownerIds) if (!off.has(id)) out.set(id, now);
  return out;
}

/** A person a notice may be mailed to. */
export interface Recipient {
  id: string;
  email: string;
  timezone: string | null;
}

export interface Notice {
  audience: Audience;
  /** The company it concerns; null for the operator side's. */
  companyId: string | null;
  kind: string;
  urgent: boolean;
  /** One key per notice: each person, device and hook gets at most one message per key. */
  dedupeKey: string;
  /** Who is mailed (with `mail`) and whose devices are pushed (with `push`). */
  people: readonly Recipient[];
  /** The mail, per person, with the person's unsubscribe link for the kind. */
  mail?: (person: Recipient, unsubscribeUrl: string) => MailContent;
  push?: { notice: PushNotice; ttlSeconds: number };
  /** The alert to the hooks of the company (`companyId`) or of the operator side (null). */
  chat?: { companyId: string | null; kind: AlertKind; text: ChatMarkup };
}

/** What a fan-out wrote. */
export interface Fanned {
  mails: number;
  pushes: number;
  chats: number;
}

/** Writes the notice's mails, pushes and chat alerts in `tx`. */
export async function fanOut(
  ctx: AppContext,
  tx: DbOrTx,
  notice: Notice,
  now: Date,
): Promise<Fanned> {
  const done: Fanned = { mails: 0, pushes: 0, chats: 0 };
  const ids = notice.people.map((p) => p.id);
  const ask = (channel: NoticeChannel) =>
    deliverable(
      tx,
      {
        audience: notice.audience,
        ownerIds: ids,
        kind: notice.kind,
        channel,
        urgent: notice.urgent,
      },
      now,
    );

  if (notice.mail && ctx.mailing) {
    const when = await ask('email');
    for (const person of notice.people) {
      const at = when.get(person.id);
      if (!at) continue;
      const link = unsubscribeUrl(
        ctx.signer,
        { audience: notice.audience, ownerId: person.id, kind: notice.kind },
        now,
      );
      const id = await sendMail(
        tx,
        {
          companyId: notice.companyId,
          kind: notice.kind,
          to: person.email,
          dedupeKey: `${notice.dedupeKey}:${person.id}`,
        },
        notice.mail(person, link),
        at,
      );
      if (id !== null) done.mails++;
    }
  }

  const push = notice.push;
  if (push && notice.audience !== 'operator') {
    // Grouped by when to send, so that people sent at one time share one request.
    const byTime = new Map<number, string[]>();
    for (const [id, at] of await ask('push')) {
      byTime.set(at.getTime(), [...(byTime.get(at.getTime()) ?? []), id]);
    }
    for (const [time, ownerIds] of byTime) {
      done.pushes += await queuePush(
        tx,
        {
          audience: notice.audience,
          ownerIds,
          companyId: notice.companyId,
          kind: notice.kind,
          notice: push.notice,
          dedupeKey: notice.dedupeKey,
          ttlSeconds: push.ttlSeconds,
          urgency: notice.urgent ? 'high' : 'normal',
        },
        new Date(time),
      );
    }
  }

  if (notice.chat) {
    done.chats += await queueChatAlert(
      tx,
      {
        companyId: notice.chat.companyId,
        kind: notice.chat.kind,
        text: notice.chat.text,
        dedupeKey: notice.dedupeKey,
      },
      now,
    );
  }
  return done;
}
