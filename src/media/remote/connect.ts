// Opens the connection of one hop to an address `resolveHop` judged, and to nothing
// else (reliability anchors 2.3 step 3). The TCP connection gets a lookup that can
// only answer with the pinned addresses; once connected, the peer address is checked
// again before a single byte (TLS ClientHello included) is written. TLS is started
// over the checked socket with SNI and certificate checks against the host name.
import { connect as netConnect, type LookupFunction, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates, type TLSSocket } from 'node:tls';
import type { LookupAddress, LookupOptions } from 'node:dns';
import {
  addressKey,
  judgeAddress,
  normaliseHostName,
  parseAddress,
  type AllowList,
} from './address.ts';
import { RemoteFetchError } from './errors.ts';
import { errorCode, where, type HopTarget } from './target.ts';

export interface ConnectRequest {
  /** The host name (resolved only through `lookup`) or an IP literal. */
  host: string;
  port: number;
  /** Answers only with the addresses the hop was judged on. */
  lookup: LookupFunction;
}
/** Creates the TCP socket; injectable so tests never reach a real outside address. */
export type ConnectFn = (request: ConnectRequest) => Socket;

export const systemConnect: ConnectFn = ({ host, port, lookup }) =>
  netConnect({ host, port, lookup, autoSelectFamily: true, noDelay: true });

export interface ConnectOptions {
  allow: AllowList;
  connect: ConnectFn;
  /** Extra trusted certificate authorities (PEM); the system store is always used too. */
  ca: readonly string[] | undefined;
}

/** A lookup for `net.connect` that returns the pinned addresses and nothing else. */
export function pinnedLookup(target: HopTarget): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    process.nextTick(() => {
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const matches =
        normaliseHostName(hostname) === normaliseHostName(target.host)
          ? target.addresses.filter((a) => !family || a.family === family)
          : [];
      const first = matches[0];
      if (first === undefined) {
        const error: NodeJS.ErrnoException = new Error(`no pinned address for ${hostname}`);
        error.code = 'ENOTFOUND';
        callback(error, '', 0);
      } else if (options.all) {
        const all: LookupAddress[] = matches.map((a) => ({ address: a.address, family: a.family }));
        callback(null, all);
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

/**
 * Connects (TCP, then TLS for https) and resolves with the socket ready for the
 * request. Rejects with a RemoteFetchError; the socket is destroyed on any failure,
 * including an abort of `signal`.
 */
export function openSocket(
  target: HopTarget,
  hop: number,
  options: ConnectOptions,
  signal: AbortSignal,
): Promise<Socket | TLSSocket> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    let current: Socket | TLSSocket;
    let settled = false;
    const finish = (error: unknown, socket?: Socket | TLSSocket) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error !== undefined || socket === undefined) {
        current.destroy();
        reject(error);
      } else {
        resolve(socket);
      }
    };
    const onAbort = () => finish(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });

    let tcp: Socket;
    try {
      tcp = options.connect({
        host: target.isLiteral ? target.addresses[0]!.address : target.host,
        port: target.port,
        lookup: pinnedLookup(target),
      });
    } catch (cause) {
      signal.removeEventListener('abort', onAbort);
      settled = true;
      reject(unreachable(target, hop, cause));
      return;
    }
    current = tcp;
    // Stays for the socket's lifetime: late errors are reported through the HTTP
    // request, and must not crash the process as unhandled 'error' events.
    tcp.on('error', () => undefined);
    tcp.once('error', (cause) => finish(unreachable(target, hop, cause)));
    tcp.once('connect', () => {
      const refusal = checkPeer(tcp, target, hop, options.allow);
      if (refusal) {
        finish(refusal);
        return;
      }
      if (!target.tls) {
        finish(undefined, tcp);
        return;
      }
      const secure = tlsConnect({
        socket: tcp,
        host: target.host,
        // SNI carries host names only (RFC 6066 section 3); an IP literal is
        // checked against the certificate's IP addresses through `host`.
        ...(target.isLiteral ? {} : { servername: target.host.replace(/\.$/, '') }),
        // `ca` replaces the system store, so extra authorities are added to it.
        ...(options.ca === undefined ? {} : { ca: [...rootCertificates, ...options.ca] }),
        rejectUnauthorized: true,
        ALPNProtocols: ['http/1.1'],
      });
      current = secure;
      secure.on('error', () => undefined);
      secure.once('error', (cause) =>
        finish(
          new RemoteFetchError(
            'source_unreachable',
            `the TLS handshake with the host of ${where(hop)} failed`,
            { detail: `${target.host}:${target.port}: ${errorCode(cause)}`, cause },
          ),
        ),
      );
      secure.once('secureConnect', () => finish(undefined, secure));
    });
  });
}

function unreachable(target: HopTarget, hop: number, cause: unknown): RemoteFetchError {
  return new RemoteFetchError(
    'source_unreachable',
    `could not connect to the host of ${where(hop)}`,
    {
      detail: `${target.host}:${target.port}: ${errorCode(cause)}`,
      cause,
    },
  );
}

/** The connected peer must be one of the judged addresses and still pass the rule. */
function checkPeer(
  socket: Socket,
  target: HopTarget,
  hop: number,
  allow: AllowList,
): RemoteFetchError | null {
  const peer = parseAddress(socket.remoteAddress ?? '');
  const pinned = peer !== null && target.addresses.some((a) => a.key === addressKey(peer));
  const verdict = peer === null ? null : judgeAddress(peer, target.hostAllowed, allow);
  if (pinned && verdict?.ok) return null;
  return new RemoteFetchError(
    'source_blocked',
    `${where(hop)} points to a private, loopback, link-local or reserved address`,
    { detail: `${target.host}: connected to unexpected peer ${socket.remoteAddress ?? '?'}` },
  );
}
