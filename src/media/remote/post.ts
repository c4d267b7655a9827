// An outgoing POST under the remote fetcher's SSRF rules (webhook deliveries, pushes): the URL is
// checked like a sourceUrl, its host resolved by our own lookup, every address judged,
// the socket pinned to a judged address and the peer checked again once connected. No
// redirect is followed; the answer's body is read up to a small cap, then dropped.
import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import type { AllowList } from './address.ts';
import { openSocket, systemConnect, type ConnectFn } from './connect.ts';
import { RemoteFetchError } from './errors.ts';
import { untilAborted } from './hop.ts';
import { errorCode, parseHopUrl, resolveHop, systemLookup, type LookupFn } from './target.ts';

export interface PostPolicy {
  /** Wall time from name resolution to the end of the answer's (capped) body. */
  timeoutMs: number;
  allow: AllowList;
  /** Bytes of the answer's body kept. */
  maxResponseBytes: number;
  userAgent: string;
  lookup?: LookupFn;
  connect?: ConnectFn;
  ca?: readonly string[];
}

export interface PostAnswer {
  status: number;
  /** The start of the body, up to `maxResponseBytes`, as UTF-8. */
  body: string;
}

/** POSTs `body`; rejects with a RemoteFetchError for anything but an HTTP answer. */
export async function postGuarded(
  urlText: string,
  headers: Record<string, string>,
  body: string | Buffer,
  policy: PostPolicy,
): Promise<PostAnswer> {
  const url = parseHopUrl(urlText, undefined, 0);
  const abort = new AbortController();
  const timer = setTimeout(
    () =>
      abort.abort(
        new RemoteFetchError('source_timeout', `no answer within ${policy.timeoutMs / 1000} s`),
      ),
    policy.timeoutMs,
  );
  let socket: Socket | undefined;
  try {
    const target = await untilAborted(
      abort.signal,
      resolveHop(url, 0, { allow: policy.allow, lookup: policy.lookup ?? systemLookup }),
    );
    socket = await openSocket(
      target,
      0,
      { allow: policy.allow, connect: policy.connect ?? systemConnect, ca: policy.ca },
      abort.signal,
    );
    return await exchange(url, socket, headers, body, policy, abort.signal);
  } finally {
    clearTimeout(timer);
    socket?.destroy();
  }
}

function exchange(
  url: URL,
  socket: Socket,
  headers: Record<string, string>,
  body: string | Buffer,
  policy: PostPolicy,
  signal: AbortSignal,
): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const request = httpRequest({
      method: 'POST',
      path: `${url.pathname}${url.search}`,
      setHost: false,
      headers: {
        host: url.host,
        'user-agent': policy.userAgent,
        'content-length': String(payload.length),
        'accept-encoding': 'identity',
        connection: 'close',
        ...headers,
      },
      insecureHTTPParser: false,
      createConnection: () => socket,
    });
    const onAbort = () => {
      request.destroy();
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    request.on('error', () => undefined);
    request.once('error', (cause) => {
      done();
      reject(
        new RemoteFetchError(
          'source_unreachable',
          'the endpoint closed the connection or sent an invalid HTTP response',
          { detail: `${url.host}: ${errorCode(cause)}`, cause },
        ),
      );
    });
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = () => {
        done();
        response.destroy();
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      };
      response.on('data', (chunk: Buffer) => {
        const room = policy.maxResponseBytes - kept;
        if (room > 0) {
          chunks.push(chunk.subarray(0, room));
          kept += Math.min(room, chunk.length);
        }
        if (kept >= policy.maxResponseBytes) finish();
      });
      response.once('end', finish);
      response.once('error', finish);
    });
    request.end(payload);
  });
}
