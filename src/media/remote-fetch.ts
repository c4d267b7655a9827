// The remote form of POST /v2/uploads (SPEC 4.1, DECISIONS 3): the service fetches
// `sourceUrl` itself and streams the body into the caller's sink, under the SSRF
// rules of reliability anchors section 2 (target D): http/https only, no
// credentials, every hop (at most `maxRedirects` redirects, never https -> http)
// resolved by our own lookup, every address judged, the socket pinned to a judged
// address and checked again once connected; connect, header, idle and total time
// limits; a byte cap while streaming; no content codings.
import type { IncomingMessage } from 'node:http';
import { EMPTY_ALLOW_LIST } from './remote/address.ts';
import type { AllowList } from './remote/address.ts';
import { deliver, type FetchSink } from './remote/body.ts';
import { systemConnect, type ConnectFn } from './remote/connect.ts';
import { RemoteFetchError } from './remote/errors.ts';
import { fetchHop, seconds, type Limits } from './remote/hop.ts';
import { parseHopUrl, systemLookup, where, type LookupFn } from './remote/target.ts';

export {
  AllowListError,
  EMPTY_ALLOW_LIST,
  hostIsAllowed,
  localHostReason,
  judgeAddress,
  nonPublicReason,
  parseAddress,
  parseAllowList,
  type AllowList,
} from './remote/address.ts';
export type { FetchedInfo, FetchSink } from './remote/body.ts';
export type { ConnectFn, ConnectRequest } from './remote/connect.ts';
export {
  REMOTE_FETCH_API_ERRORS,
  RemoteFetchError,
  type RemoteFetchErrorCode,
} from './remote/errors.ts';
export { parseHopUrl, type LookupAnswer, type LookupFn } from './remote/target.ts';

export interface FetchPolicy {
  /** Byte cap; 209,715,200 for videos and 52,428,800 for images (SPEC 2.1). */
  maxBytes: number;
  /** Wall time for the whole fetch, every hop included, until the body has arrived. */
  timeoutMs?: number;
  /** Per hop: name resolution, TCP connect and TLS handshake. */
  connectTimeoutMs?: number;
  /** Per hop: from its start until the response headers arrive. */
  headersTimeoutMs?: number;
  /** Longest silence while the body streams. */
  idleTimeoutMs?: number;
  maxRedirects?: number;
  /** Operator allow list (REMOTE_FETCH_ALLOW); empty by default. */
  allow?: AllowList;
  /** Host name resolution; `dns.lookup` with `all: true` by default. */
  lookup?: LookupFn;
  /** TCP socket creation; `net.connect` by default. For tests. */
  connect?: ConnectFn;
  /** Extra trusted certificate authorities (PEM), added to the system store. */
  ca?: readonly string[];
}

export const FETCH_DEFAULTS = Object.freeze({
  timeoutMs: 120_000,
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 15_000,
  maxRedirects: 5,
});

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches `sourceUrl` and streams its body into `sink`, returning what the sink
 * returns. Rejects with a RemoteFetchError for every failure of the fetch itself;
 * errors the sink throws on its own pass through unchanged. The connection is
 * closed when this settles, whatever the outcome.
 */
export async function fetchToStore<T>(
  sourceUrl: string,
  policy: FetchPolicy,
  sink: FetchSink<T>,
): Promise<T> {
  const limits: Limits = {
    maxBytes: policy.maxBytes,
    timeoutMs: policy.timeoutMs ?? FETCH_DEFAULTS.timeoutMs,
    connectTimeoutMs: policy.connectTimeoutMs ?? FETCH_DEFAULTS.connectTimeoutMs,
    headersTimeoutMs: policy.headersTimeoutMs ?? FETCH_DEFAULTS.headersTimeoutMs,
    idleTimeoutMs: policy.idleTimeoutMs ?? FETCH_DEFAULTS.idleTimeoutMs,
    maxRedirects: policy.maxRedirects ?? FETCH_DEFAULTS.maxRedirects,
    allow: policy.allow ?? EMPTY_ALLOW_LIST,
    lookup: policy.lookup ?? systemLookup,
    connect: policy.connect ?? systemConnect,
    ca: policy.ca,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value === 'number' && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new RangeError(`fetch policy: ${name} must be a non-negative integer`);
    }
  }
  let url = parseHopUrl(sourceUrl, undefined, 0);

  const total = new AbortController();
  const clock = setTimeout(
    () =>
      total.abort(
        new RemoteFetchError(
          'source_timeout',
          `fetching sourceUrl took longer than ${seconds(limits.timeoutMs)}`,
        ),
      ),
    limits.timeoutMs,
  );
  const stopClock = () => clearTimeout(clock);
  try {
    for (let hop = 0; ; hop += 1) {
      const { response, socket } = await fetchHop(url, hop, limits, total.signal);
      try {
        const status = response.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          url = nextHop(url, response, hop, limits.maxRedirects);
          continue;
        }
        if (status < 200 || status > 299) {
          throw new RemoteFetchError('source_http_error', `${where(hop)} answered HTTP ${status}`, {
            upstreamStatus: status,
          });
        }
        return await deliver(response, socket, url, limits, total.signal, stopClock, sink);
      } finally {
        response.destroy();
        socket.destroy();
      }
    }
  } finally {
    stopClock();
  }
}

function nextHop(url: URL, response: IncomingMessage, hop: number, maxRedirects: number): URL {
  const location = response.headers.location;
  if (location === undefined || location === '') {
    throw new RemoteFetchError(
      'source_http_error',
      `${where(hop)} answered HTTP ${response.statusCode} without a Location`,
      { upstreamStatus: response.statusCode },
    );
  }
  if (hop >= maxRedirects) {
    throw new RemoteFetchError(
      'too_many_redirects',
      `sourceUrl redirected more than ${maxRedirects} times`,
    );
  }
  const next = parseHopUrl(location, url, hop + 1);
  if (url.protocol === 'https:' && next.protocol === 'http:') {
    throw new RemoteFetchError(
      'source_blocked',
      `${where(hop + 1)} leaves https for http; only https is followed from https`,
    );
  }
  return next;
}

export { postGuarded, type PostAnswer, type PostPolicy } from './remote/post.ts';
