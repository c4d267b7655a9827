// Sends one chat alert from the outbox: the hook is looked up on the message's side, its
// URL opened from its seal, and `{"text": ...}` POSTed through the service's guarded client
// under the private-address rules of webhooks (REMOTE_FETCH_ALLOW), since a person chose
// the URL. The receiver's answer decides the rest: 2xx delivered (and the hook no longer
// failing); 401, 403, 404 and 410 mean the URL was revoked or its channel is gone, so the
// hook is marked failing and the message fails; 429 and 5xx are tried again from the
// outbox; any other refusal fails the message.
import type { Db } from '../../db/types.ts';
import { systemClock, type Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/seal.ts';
import { postGuarded, RemoteFetchError, type AllowList } from '../../media/remote-fetch.ts';
import type { ClaimedMail, Mailer, SendResult } from '../outbox/index.ts';
import * as repo from './chat-hooks.repository.ts';

const USER_AGENT = 'Slotline-Chat/1';
const CHAT_TIMEOUT_MS = 15_000;
/** Answers that say the URL itself no longer works. */
const GONE = new Set([401, 403, 404, 410]);

export interface ChatPolicy {
  allow: AllowList;
  timeoutMs?: number;
  /** Certificates trusted beyond the system's (a stand-in receiver in tests). */
  ca?: readonly string[];
  /** When a delivery or a failure is recorded on the hook. */
  clock?: Clock;
}

/** What the outbox loop sends chat alerts with. */
export function chatSender(db: Db, sealer: Sealer, policy: ChatPolicy): Mailer {
  const clock = policy.clock ?? systemClock;
  return {
    async send(message: ClaimedMail): Promise<SendResult> {
      const hook = await repo.findHook(db, message.companyId, message.to);
      if (!hook) return { ok: false, permanent: true, error: 'the chat alert hook was removed' };
      let url: string;
      try {
        url = sealer.open(hook.url_sealed);
      } catch {
        return { ok: false, permanent: true, error: 'the hook’s URL cannot be opened' };
      }
      const body = JSON.stringify({ text: message.text });
      let status: number;
      try {
        const answer = await postGuarded(
          url,
          { 'content-type': 'application/json; charset=utf-8' },
          body,
          {
            timeoutMs: policy.timeoutMs ?? CHAT_TIMEOUT_MS,
            allow: policy.allow,
            maxResponseBytes: 1024,
            userAgent: USER_AGENT,
            ...(policy.ca ? { ca: policy.ca } : {}),
          },
        );
        status = answer.status;
      } catch (err) {
        if (!(err instanceof RemoteFetchError)) throw err;
        return {
          ok: false,
          permanent: err.code === 'source_blocked' || err.code === 'invalid_source_url',
          error: err.message,
        };
      }
      const at = clock.now().toISOString();
      if (status >= 200 && status < 300) {
        await repo.updateHook(db, hook.company_id, hook.id, {
          last_success_at: at,
          failing_since: null,
          last_error: null,
        });
        return { ok: true };
      }
      const error = `the receiver answered ${status}`;
      if (GONE.has(status)) {
        await repo.updateHook(db, hook.company_id, hook.id, {
          failing_since: hook.failing_since ?? at,
          last_error: error,
        });
        return { ok: false, permanent: true, error };
      }
      const temporary = status === 429 || status >= 500;
      return { ok: false, permanent: !temporary, error };
    },
    close() {},
  };
}
