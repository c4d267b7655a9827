// Sends one claimed delivery: the event's JSON, signed per Standard Webhooks, POSTed under
// the remote fetcher's SSRF rules (media/remote/post.ts).
import type { AppContext } from '../../context.ts';
import {
  postGuarded,
  RemoteFetchError,
  type ConnectFn,
  type LookupFn,
} from '../../media/remote-fetch.ts';
import {
  payloadOf,
  RESPONSE_KEPT_BYTES,
  type AttemptResult,
  type Claimed,
} from './webhook-deliveries.service.ts';
import { signatureHeader } from './webhook-signing.rules.ts';
import { signingSecrets } from './webhooks.service.ts';

/** Name resolution and sockets, replaceable in tests. */
export interface Transport {
  lookup?: LookupFn;
  connect?: ConnectFn;
}

const USER_AGENT = 'Slotline-Webhooks/1';

/** Why no HTTP answer came, in words for the delivery log (no addresses). */
function describe(err: unknown): string {
  if (err instanceof RemoteFetchError) {
    if (err.code === 'source_blocked') {
      return 'refused: the URL points to a private, loopback, link-local or reserved address';
    }
    if (err.code === 'source_timeout') return `timed out: ${err.message}`;
    const code = err.detail?.split(': ').pop();
    return `${err.message.replace('sourceUrl', 'the URL')}${code ? ` (${code})` : ''}`;
  }
  return 'the attempt failed before an answer arrived';
}

export async function sendWebhookDelivery(
  ctx: AppContext,
  claimed: Claimed,
  transport: Transport = {},
): Promise<AttemptResult> {
  const startedAt = ctx.clock.now();
  const started = performance.now();
  const body = payloadOf(claimed.event);
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  try {
    const headers = {
      'content-type': 'application/json',
      'webhook-id': claimed.event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(
        signingSecrets(ctx, claimed.endpoint, startedAt),
        claimed.event.id,
        timestamp,
        body,
      ),
    };
    const answer = await postGuarded(claimed.endpoint.url, headers, body, {
      timeoutMs: ctx.config.webhookTimeoutMs,
      allow: ctx.config.remoteFetchAllow,
      maxResponseBytes: RESPONSE_KEPT_BYTES,
      userAgent: USER_AGENT,
      ...transport,
    });
    return {
      startedAt,
      durationMs: performance.now() - started,
      status: answer.status,
      body: answer.body,
      error: null,
    };
  } catch (err) {
    return {
      startedAt,
      durationMs: performance.now() - started,
      status: null,
      body: null,
      error: describe(err),
    };
  }
}
