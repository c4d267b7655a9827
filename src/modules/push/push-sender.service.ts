// Sends one push (RFC 8030) from the outbox: the library encrypts the payload for the
// device (aes128gcm, RFC 8291) and signs the request (VAPID, RFC 8292) through
// `generateRequestDetails`; the request itself goes through the service's guarded client,
// with the private-address rules of webhooks, since a client chose the endpoint. The push
// service's answer decides the rest: 201 delivered; 404 or 410, the subscription is gone
// and is forgotten; 429 and 5xx, tried again from the outbox; any other refusal, failed.
import webpush from 'web-push';
import type { VapidKeys } from '../../context.ts';
import type { Db } from '../../db/types.ts';
import { postGuarded, RemoteFetchError, type AllowList } from '../../media/remote-fetch.ts';
import type { ClaimedMail, Mailer, SendResult } from '../outbox/index.ts';
import * as repo from './push.repository.ts';

const USER_AGENT = 'Slotline-Push/1';
const PUSH_TIMEOUT_MS = 15_000;

export interface PushPolicy {
  vapid: VapidKeys;
  allow: AllowList;
  timeoutMs?: number;
  /** Certificates trusted beyond the system's (a stand-in push service in tests). */
  ca?: readonly string[];
}

/** What the outbox loop sends pushes with. */
export function pushSender(db: Db, policy: PushPolicy): Mailer {
  return {
    async send(message: ClaimedMail): Promise<SendResult> {
      const device = await repo.findSubscription(db, message.to);
      if (!device) return { ok: false, permanent: true, error: 'the device unsubscribed' };
      const details = webpush.generateRequestDetails(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        message.text,
        {
          vapidDetails: {
            subject: policy.vapid.subject,
            publicKey: policy.vapid.publicKey,
            privateKey: policy.vapid.privateKey,
          },
          TTL: Number(message.headers.TTL ?? 3600),
          urgency: message.headers.Urgency === 'high' ? 'high' : 'normal',
          contentEncoding: 'aes128gcm',
        },
      );
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
      try {
        const answer = await postGuarded(details.endpoint, headers, details.body ?? '', {
          timeoutMs: policy.timeoutMs ?? PUSH_TIMEOUT_MS,
          allow: policy.allow,
          maxResponseBytes: 1024,
          userAgent: USER_AGENT,
          ...(policy.ca ? { ca: policy.ca } : {}),
        });
        if (answer.status >= 200 && answer.status < 300) return { ok: true };
        const error = `the push service answered ${answer.status}`;
        if (answer.status === 404 || answer.status === 410) {
          await repo.deleteSubscription(db, device.id);
          return { ok: false, permanent: true, error: `${error}: the subscription ended` };
        }
        const temporary = answer.status === 429 || answer.status >= 500;
        return { ok: false, permanent: !temporary, error };
      } catch (err) {
        if (!(err instanceof RemoteFetchError)) throw err;
        return {
          ok: false,
          permanent: err.code === 'source_blocked' || err.code === 'invalid_source_url',
          error: err.message,
        };
      }
    },
    close() {},
  };
}
