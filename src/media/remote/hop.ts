// One hop of a remote fetch, from name resolution to response headers, under the
// per-hop connect and header limits and the fetch-wide abort (reliability anchors
// 2.3 steps 2-5).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { AllowList } from './address.ts';
import { openSocket, type ConnectFn } from './connect.ts';
import { RemoteFetchError } from './errors.ts';
import { errorCode, resolveHop, where, type LookupFn } from './target.ts';

const USER_AGENT = 'Slotline-RemoteFetch/2';

/** A FetchPolicy with every default filled in. */
export interface Limits {
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

/** One request: resolve and judge, connect to a judged address, send, await headers. */
export async function fetchHop(
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

export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

export function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
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
