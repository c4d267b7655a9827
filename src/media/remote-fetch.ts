// The remote form of POST /v2/uploads (SPEC 4.1, DECISIONS 3): the service fetches
// `sourceUrl` itself and streams the body into the caller's sink, under the SSRF
// rules of reliability anchors section 2 (target D): http/https only, no
// credentials, every hop (at most `maxRedirects` redirects, never https -> http)
// resolved by our own lookup, every address judged, the socket pinned to a judged
// address and checked again once connected; connect, header, idle and total time
// limits; a byte cap while streaming; no content codings.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { EMPTY_ALLOW_LIST, type AllowList } from './remote/address.ts';
import { openSocket, systemConnect, type ConnectFn } from './remote/connect.ts';
import { RemoteFetchError } from './remote/errors.ts';
import { filenameFrom } from './remote/filename.ts';
import {
  errorCode,
  parseHopUrl,
  resolveHop,
  systemLookup,
  where,
  type LookupFn,
} from './remote/target.ts';

export {
  AllowListError,
  EMPTY_ALLOW_LIST,
  nonPublicReason,
  parseAddress,
  parseAllowList,
  type AllowList,
} from './remote/address.ts';
export type { ConnectFn, ConnectRequest } from './remote/connect.ts';
export {
  REMOTE_FETCH_API_ERRORS,
  RemoteFetchError,
  type RemoteFetchErrorCode,
} from './remote/errors.ts';
export type { LookupAnswer, LookupFn } from './remote/target.ts';

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

export interface FetchedInfo {
  /** As the source declared it; never trusted as the media type. */
  contentType: string | null;
  contentLength: number | null;
  finalUrl: string;
  /** From Content-Disposition or the last path segment, sanitised; null when neither helps. */
  filename: string | null;
}

/**
 * Consumes the body. It must settle once the body ends or errors: a failure of the
 * fetch (byte cap, time limit, dropped connection) destroys `body` with the
 * RemoteFetchError, which `fetchToStore` then rejects with.
 */
export type FetchSink<T> = (body: Readable, info: FetchedInfo) => Promise<T>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Slotline-RemoteFetch/2';

interface Limits {
  maxBytes: number;
  timeoutMs: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  maxRedirects: number;
  allow: AllowList;
  lookup: LookupFn;
  connect: ConnectFn;
  ca: readonly string[] | undefined;
}

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

/** One request: resolve and judge, connect to a judged address, send, await headers. */
async function fetchHop(
  url: URL,
  hop: number,
  limits: Limits,
  totalSignal: AbortSignal,
): Promise<{ response: IncomingMessage; socket: Socket }> {
  const hopAbort = new AbortController();
  const signal = hopAbort.signal;
  const forward = () => hopAbort.abort(totalSignal.reason);
  if (totalSignal.aborted) forward();
  else totalSignal.addEventListener('abort', forward, { once: true });
  const connectTimer = setTimeout(
    () =>
      hopAbort.abort(
        new RemoteFetchError(
          'source_timeout',
          `could not connect to the host of ${where(hop)} within ${seconds(limits.connectTimeoutMs)}`,
        ),
      ),
    limits.connectTimeoutMs,
  );
  const headersTimer = setTimeout(
    () =>
      hopAbort.abort(
        new RemoteFetchError(
          'source_timeout',
          `${where(hop)} did not answer within ${seconds(limits.headersTimeoutMs)}`,
        ),
      ),
    limits.headersTimeoutMs,
  );
  let socket: Socket | undefined;
  try {
    const target = await untilAborted(signal, resolveHop(url, hop, limits));
    socket = await openSocket(target, hop, limits, signal);
    clearTimeout(connectTimer);
    const response = await sendRequest(url, socket, hop, signal);
    return { response, socket };
  } catch (error) {
    socket?.destroy();
    throw error;
  } finally {
    clearTimeout(connectTimer);
    clearTimeout(headersTimer);
    totalSignal.removeEventListener('abort', forward);
  }
}

function sendRequest(
  url: URL,
  socket: Socket,
  hop: number,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      method: 'GET',
      path: `${url.pathname}${url.search}`,
      setHost: false,
      // Host keeps the name (and a non-default port) the URL gave, not the address.
      // identity: no content coding, so nothing to decompress (no gzip bombs);
      // without the header any coding would be acceptable (RFC 9110 12.5.3).
      headers: {
        host: url.host,
        'user-agent': USER_AGENT,
        accept: '*/*',
        'accept-encoding': 'identity',
        connection: 'close',
      },
      insecureHTTPParser: false,
      createConnection: () => socket,
    });
    const onAbort = () => {
      request.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    // Stays attached: a socket error after the response arrives surfaces on the
    // response, and must not crash the process as an unhandled 'error' event.
    request.on('error', () => undefined);
    request.once('error', (cause) => {
      signal.removeEventListener('abort', onAbort);
      reject(
        new RemoteFetchError(
          'source_unreachable',
          `the host of ${where(hop)} closed the connection or sent an invalid HTTP response`,
          { detail: `${url.host}: ${errorCode(cause)}`, cause },
        ),
      );
    });
    request.once('response', (response) => {
      signal.removeEventListener('abort', onAbort);
      resolve(response);
    });
    request.end();
  });
}

/** Checks the final response headers, then streams the body through the byte cap. */
async function deliver<T>(
  response: IncomingMessage,
  socket: Socket,
  url: URL,
  limits: Limits,
  totalSignal: AbortSignal,
  stopClock: () => void,
  sink: FetchSink<T>,
): Promise<T> {
  if (hasCoding(response.headers['content-encoding'], ['identity'])) {
    throw new RemoteFetchError(
      'unsupported_content_encoding',
      'the source sent a compressed body; serve the file without Content-Encoding',
    );
  }
  // Node decodes chunked only; any other transfer coding would reach the sink encoded.
  if (hasCoding(response.headers['transfer-encoding'], ['identity', 'chunked'])) {
    throw new RemoteFetchError(
      'unsupported_content_encoding',
      'the source sent a transfer coding other than chunked',
    );
  }
  const declared = response.headers['content-length'];
  const contentLength = declared === undefined ? null : Number(declared);
  if (contentLength !== null && contentLength > limits.maxBytes) {
    throw tooLarge(limits.maxBytes);
  }

  let failure: RemoteFetchError | undefined;
  let received = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limits.maxBytes) callback(tooLarge(limits.maxBytes));
      else callback(null, chunk);
    },
  });
  const fail = (error: unknown) => {
    if (failure !== undefined) return;
    failure =
      error instanceof RemoteFetchError
        ? error
        : new RemoteFetchError('source_unreachable', 'the connection to the source failed', {
            detail: errorCode(error),
            cause: error,
          });
    body.destroy(failure);
    response.destroy();
    socket.destroy();
  };
  const onAbort = () => fail(totalSignal.reason);
  if (totalSignal.aborted) onAbort();
  else totalSignal.addEventListener('abort', onAbort, { once: true });
  body.on('error', (error) => {
    if (error instanceof RemoteFetchError) fail(error);
  });
  response.on('error', (cause) =>
    fail(
      new RemoteFetchError(
        'source_unreachable',
        'the source closed the connection before the whole file arrived',
        { detail: errorCode(cause), cause },
      ),
    ),
  );
  response.once('end', stopClock);
  socket.setTimeout(limits.idleTimeoutMs, () =>
    fail(
      new RemoteFetchError(
        'source_timeout',
        `the source sent nothing for ${seconds(limits.idleTimeoutMs)}`,
      ),
    ),
  );
  response.pipe(body);

  const info: FetchedInfo = {
    contentType: response.headers['content-type'] ?? null,
    contentLength,
    finalUrl: url.href,
    filename: filenameFrom(response.headers['content-disposition'], url),
  };
  try {
    const result = await sink(body, info);
    if (failure !== undefined) throw failure;
    return result;
  } catch (error) {
    throw failure ?? error;
  } finally {
    totalSignal.removeEventListener('abort', onAbort);
    socket.setTimeout(0);
    body.destroy();
  }
}

/** True when a coding list names anything outside `allowed`. */
function hasCoding(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .some((token) => token !== '' && !allowed.includes(token));
}

function tooLarge(maxBytes: number): RemoteFetchError {
  return new RemoteFetchError(
    'file_too_large',
    `the file at sourceUrl is larger than ${maxBytes} bytes`,
  );
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
