// The X-Request-Id a trusted proxy (TRUST_PROXY) sends, logged beside the service's own
// request id so one request can be followed across both logs. It is believed only from a
// trusted peer (anyone else could forge it to muddle the logs) and only when short and
// plain; the response's X-Request-Id stays the service's own (DECISIONS 1).
import type { IncomingMessage } from 'node:http';
import type { TrustedProxies } from '../lib/trusted-proxies.ts';

/** Letters, digits and the punctuation request ids use (UUIDs, ALB trace ids, base64). */
const SAFE = /^[A-Za-z0-9._:;=+/@-]{1,200}$/;

/** The upstream request id of `raw`, or null when absent, untrusted or malformed. */
export function upstreamRequestId(
  raw: IncomingMessage,
  trusted: TrustedProxies | null,
): string | null {
  if (!trusted) return null;
  const value = raw.headers['x-request-id'];
  if (typeof value !== 'string' || !SAFE.test(value)) return null;
  // The socket's own peer, not X-Forwarded-For: only the proxy itself is vouched for.
  return trusted.trusts(raw.socket.remoteAddress) ? value : null;
}
