// One hop of a remote fetch: the URL is checked (DECISIONS 3: http or https only, no
// credentials), its host resolved by our own lookup, and every address judged before
// anything connects. The answer is then pinned: the socket may only reach these
// addresses, so a second, different DNS answer (rebinding) is never used.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  addressKey,
  hostIsAllowed,
  judgeAddress,
  parseAddress,
  type AllowList,
  type IpAddress,
} from './address.ts';
import { RemoteFetchError } from './errors.ts';

export interface LookupAnswer {
  address: string;
  family: number;
}
/** Resolves a host name to all of its addresses (A and AAAA). */
export type LookupFn = (hostname: string) => Promise<readonly LookupAnswer[]>;

export const systemLookup: LookupFn = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true });

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
  key: string;
}

export interface HopTarget {
  url: URL;
  /** Host name, or the IP literal without brackets. */
  host: string;
  isLiteral: boolean;
  port: number;
  tls: boolean;
  /** The host name is on the operator allow list. */
  hostAllowed: boolean;
  /** Every address the host resolved to; all of them passed `judgeAddress`. */
  addresses: readonly PinnedAddress[];
}

/** "sourceUrl" for the first hop, "redirect N of sourceUrl" after that. */
export function where(hop: number): string {
  return hop === 0 ? 'sourceUrl' : `redirect ${hop} of sourceUrl`;
}

/**
 * Parses a URL the way the fetcher will use it. WHATWG parsing normalises every
 * IPv4 spelling (decimal, octal, hex, short forms, full-width digits) and IPv6
 * literal to one canonical text, so the checks below see what the socket would.
 * Any port is accepted: blocking by address already keeps internal services out,
 * and media hosts do serve from non-standard ports.
 */
export function parseHopUrl(input: string, base: URL | undefined, hop: number): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    const what = hop === 0 ? 'sourceUrl is not a valid absolute URL' : `${where(hop)} is invalid`;
    throw new RemoteFetchError(hop === 0 ? 'invalid_source_url' : 'source_http_error', what);
  }
  const code = hop === 0 ? 'invalid_source_url' : 'source_blocked';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RemoteFetchError(code, `${where(hop)} must use http or https`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new RemoteFetchError(code, `${where(hop)} must not contain a user name or password`);
  }
  if (url.hostname === '') {
    throw new RemoteFetchError(code, `${where(hop)} has no host`);
  }
  url.hash = '';
  return url;
}

export interface ResolveOptions {
  allow: AllowList;
  lookup: LookupFn;
}

/** Resolves and judges one hop. Throws `source_blocked` if any address is refused. */
export async function resolveHop(
  url: URL,
  hop: number,
  options: ResolveOptions,
): Promise<HopTarget> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const tls = url.protocol === 'https:';
  const port = url.port === '' ? (tls ? 443 : 80) : Number(url.port);
  const literal = isIP(host) === 0 ? null : parseAddress(host);
  const hostAllowed = literal === null && hostIsAllowed(options.allow, host);

  let candidates: IpAddress[];
  if (literal !== null) {
    candidates = [literal];
  } else {
    candidates = await resolveName(host, hop, options.lookup);
  }

  const addresses: PinnedAddress[] = [];
  for (const ip of candidates) {
    const verdict = judgeAddress(ip, hostAllowed, options.allow);
    if (!verdict.ok) {
      throw new RemoteFetchError(
        'source_blocked',
        `${where(hop)} points to a private, loopback, link-local or reserved address`,
        { detail: `${host} -> ${ip.toString()} (${verdict.reason})` },
      );
    }
    addresses.push({
      address: ip.toString(),
      family: ip.kind() === 'ipv4' ? 4 : 6,
      key: addressKey(ip),
    });
  }
  return { url, host, isLiteral: literal !== null, port, tls, hostAllowed, addresses };
}

async function resolveName(host: string, hop: number, lookup: LookupFn): Promise<IpAddress[]> {
  let answers: readonly LookupAnswer[];
  try {
    answers = await lookup(host);
  } catch (cause) {
    throw new RemoteFetchError(
      'source_unreachable',
      `the host of ${where(hop)} could not be resolved`,
      { detail: `${host}: ${errorCode(cause)}`, cause },
    );
  }
  if (answers.length === 0) {
    throw new RemoteFetchError(
      'source_unreachable',
      `the host of ${where(hop)} could not be resolved`,
      { detail: `${host}: no addresses` },
    );
  }
  return answers.map((answer) => {
    const ip = parseAddress(String(answer.address));
    // A resolver answer that is not an address is refused, never guessed at.
    if (ip === null) {
      throw new RemoteFetchError(
        'source_blocked',
        `${where(hop)} points to a private, loopback, link-local or reserved address`,
        { detail: `${host}: resolver answered a non-address` },
      );
    }
    return ip;
  });
}

export function errorCode(cause: unknown): string {
  if (cause && typeof cause === 'object' && 'code' in cause) return String(cause.code);
  return cause instanceof Error ? cause.name : 'unknown';
}
