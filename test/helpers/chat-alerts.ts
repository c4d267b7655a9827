// Chat alerts in tests: one pass of the chat outbox through the real sender (its guard
// admitting what the test app's REMOTE_FETCH_ALLOW admits, or the list given), and an
// alert written in a transaction of its own.
import { deliverDueMail } from '../../src/dispatch/outbox-loop.ts';
import { chatSender, queueChatAlert, type ChatAlert } from '../../src/modules/alerts/index.ts';
import type { TestApp } from './app.ts';

export function deliverChat(t: TestApp, allow = t.config.remoteFetchAllow) {
  return deliverDueMail(
    t.ctx,
    chatSender(t.ctx.db, t.ctx.sealer, { allow, clock: t.clock }),
    'chat',
  );
}

/** Writes one alert now; the rows written, one per hook of its side that chose its kind. */
export function queueAlert(t: TestApp, alert: ChatAlert): Promise<number> {
  return t.ctx.db.transaction().execute((tx) => queueChatAlert(tx, alert, t.clock.now()));
}
