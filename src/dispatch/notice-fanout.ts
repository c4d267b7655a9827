// One notice, every channel: a mail to each person, a push to each of their devices and a
// chat alert to the hooks of the side that chose the kind, all written as outbox rows in the
// caller's transaction. Who gets it on which channel, and when, is decided in one place,
// deliverable(): each person's notification preferences (the kinds and channels they keep
// on, quiet hours in their own timezone that hold a message until they end unless it is
// urgent). A notice that is stale after a moment (a reminder about a window) goes to nobody
// whose quiet hours would hold it past that moment, and its push lives until then.
import type { AppContext } from '../context.ts';
import type { DbOrTx } from '../db/types.ts';
import { queueChatAlert, type AlertKind, type ChatMarkup } from '../modules/alerts/index.ts';
import { recipientsFor, unsubscribeUrl } from '../modules/notify/index.ts';
import { sendMail, type MailContent } from '../modules/outbox/index.ts';
import { queuePush, type PushNotice } from '../modules/push/index.ts';

export type Audience = 'user' | 'operator' | 'worker';
export type NoticeChannel = 'email' | 'push';

export interface DeliveryQuestion {
  audience: Audience;
  ownerIds: readonly string[];
  kind: string;
  channel: NoticeChannel;
  /** Cannot wait (a window about to be missed): goes through quiet hours. */
  urgent: boolean;
}

/**
 * The seam: who among `ownerIds` gets `kind` on `channel`, and when: now, or when their
 * quiet hours end. Each person left out turned it off (or never turned a default-off kind
 * on). Two queries per thousand people, however many there are.
 */
export function deliverable(
  tx: DbOrTx,
  q: DeliveryQuestion,
  now: Date,
): Promise<Map<string, Date>> {
  return recipientsFor(tx, q, now);
}

/** Each side's page where a person chooses what they receive. */
const PREFERENCES: Readonly<Record<Audience, string>> = {
  user: '/dashboard/notifications',
  operator: '/operator/notifications',
  worker: '/dashboard/worker/notifications',
};

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
  /**
   * When the news is stale (the window a reminder is about): nobody is sent it later, and a
   * push is kept by the push service until then. Without it, `push.ttlSeconds` holds.
   */
  staleAt?: Date;
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
  const stale = notice.staleAt?.getTime() ?? Infinity;
  const ask = async (channel: NoticeChannel) => {
    const when = await deliverable(
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
    return new Map([...when].filter(([, at]) => at.getTime() < stale));
  };
  /** Held until `at` when that is later than now. */
  const held = (at: Date) => (at.getTime() > now.getTime() ? { dueAt: at } : {});
  const preferencesUrl = `${ctx.config.publicUrl}${PREFERENCES[notice.audience]}`;

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
          ...held(at),
        },
        withPreferences(notice.mail(person, link), preferencesUrl),
        now,
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
          ttlSeconds: stale === Infinity ? push.ttlSeconds : Math.max(60, (stale - time) / 1000),
          urgency: notice.urgent ? 'high' : 'normal',
          ...held(new Date(time)),
        },
        now,
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

/** A notice mail's footer links to the person's notifications page beside its unsubscribe. */
function withPreferences(mail: MailContent, preferencesUrl: string): MailContent {
  if ('security' in mail.stop || mail.stop.preferencesUrl) return mail;
  return { ...mail, stop: { ...mail.stop, preferencesUrl } };
}
