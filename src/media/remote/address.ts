// Which addresses the remote fetcher may connect to (DECISIONS 3, remote form: never
// private, loopback, link-local or metadata addresses unless the operator allows them).
// ipaddr.js `range()` names the special ranges; the explicit CIDR table below repeats
// the ones that matter most, so that a change in the library's tables cannot silently
// open a range, and adds what the library calls "unicast" although no public server
// lives there (IPv4-compatible IPv6, everything outside 2000::/3).
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = readonly [IpAddress, number];

function cidr(text: string): Cidr {
  return ipaddr.parseCIDR(text);
}

const V4_BLOCKED: readonly (readonly [string, Cidr])[] = [
  ['unspecified', cidr('0.0.0.0/8')],
  ['private', cidr('10.0.0.0/8')],
  ['carrierGradeNat', cidr('100.64.0.0/10')],
  ['loopback', cidr('127.0.0.0/8')],
  ['linkLocal', cidr('169.254.0.0/16')],
  ['private', cidr('172.16.0.0/12')],
  ['reserved', cidr('192.0.0.0/24')],
  ['documentation', cidr('192.0.2.0/24')],
  ['6to4Relay', cidr('192.88.99.0/24')],
  ['private', cidr('192.168.0.0/16')],
  ['benchmarking', cidr('198.18.0.0/15')],
  ['documentation', cidr('198.51.100.0/24')],
  ['documentation', cidr('203.0.113.0/24')],
  ['multicast', cidr('224.0.0.0/4')],
  ['reserved', cidr('240.0.0.0/4')],
];

const V6_BLOCKED: readonly (readonly [string, Cidr])[] = [
  ['ipv4Mapped', cidr('::ffff:0:0/96')],
  ['ipv4Translated', cidr('::ffff:0:0:0/96')],
  // Covers :: and ::1 too; ipaddr.js classifies ::a.b.c.d as unicast.
  ['ipv4Compatible', cidr('::/96')],
  ['nat64Local', cidr('64:ff9b:1::/48')],
  ['discard', cidr('100::/64')],
  ['teredo', cidr('2001::/32')],
  ['ietfProtocol', cidr('2001::/23')],
  ['documentation', cidr('2001:db8::/32')],
  ['6to4', cidr('2002::/16')],
  ['documentation', cidr('3fff::/20')],
  ['segmentRouting', cidr('5f00::/16')],
  ['uniqueLocal', cidr('fc00::/7')],
  ['linkLocal', cidr('fe80::/10')],
  ['siteLocal', cidr('fec0::/10')],
  ['multicast', cidr('ff00::/8')],
];

/** RFC 6052 well-known NAT64 prefix: the last 32 bits are an IPv4 address. */
const NAT64_WELL_KNOWN = cidr('64:ff9b::/96');
/** Only 2000::/3 is allocated for global unicast; nothing else is a public server. */
const V6_GLOBAL_UNICAST = cidr('2000::/3');

function inCidr(ip: IpAddress, [net, bits]: Cidr): boolean {
  return ip.kind() === net.kind() && ip.match(net, bits);
}

/** Parses an address as it appears in DNS answers or on a socket (zone ids dropped). */
export function parseAddress(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const withoutZone = bare.split('%')[0] ?? '';
  if (isIP(withoutZone) === 0) return null;
  try {
    return ipaddr.parse(withoutZone);
  } catch {
    return null;
  }
}

/**
 * Why an address is not a public unicast destination, or null when it is one.
 * IPv4-mapped, IPv4-compatible, 6to4, Teredo and local-use NAT64 addresses are
 * refused outright: a public server never needs them, and each can smuggle an
 * internal IPv4 address. Well-known-prefix NAT64 (64:ff9b::/96) is judged by its
 * embedded IPv4 address, since IPv6-only hosts behind DNS64 see every IPv4 site
 * that way.
 */
export function nonPublicReason(ip: IpAddress): string | null {
  if (ip.kind() === 'ipv4') {
    const v4 = ip as ipaddr.IPv4;
    const range = v4.range();
    if (range !== 'unicast') return range;
    for (const [name, block] of V4_BLOCKED) if (inCidr(v4, block)) return name;
    return null;
  }
  const v6 = ip as ipaddr.IPv6;
  if (inCidr(v6, NAT64_WELL_KNOWN)) {
    const bytes = v6.toByteArray().slice(12);
    const inner = nonPublicReason(ipaddr.fromByteArray(bytes));
    return inner === null ? null : `nat64(${inner})`;
  }
  for (const [name, block] of V6_BLOCKED) if (inCidr(v6, block)) return name;
  const range = v6.range();
  if (range !== 'unicast') return range;
  if (!inCidr(v6, V6_GLOBAL_UNICAST)) return 'notGlobalUnicast';
  return null;
}

/**
 * Addresses that are never a real destination, whatever the allow list says:
 * connecting to 0.0.0.0 or :: reaches the local host, and multicast or broadcast
 * have no single server behind them.
 */
function neverConnectable(ip: IpAddress): boolean {
  const plain = unwrapMapped(ip);
  const range = plain.range();
  return range === 'unspecified' || range === 'multicast' || range === 'broadcast';
}

function unwrapMapped(ip: IpAddress): IpAddress {
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (ip as ipaddr.IPv6).toIPv4Address();
  }
  return ip;
}

/** A canonical text for comparing addresses (IPv4-mapped forms compare as IPv4). */
export function addressKey(ip: IpAddress): string {
  const plain = unwrapMapped(ip);
  return `${plain.kind()}:${plain.toNormalizedString()}`;
}

// ---------------------------------------------------------------------------------
// The operator allow list (REMOTE_FETCH_ALLOW).

export interface AllowList {
  /** Lower-case host names without a trailing dot. */
  readonly hosts: ReadonlySet<string>;
  readonly ranges: readonly Cidr[];
}

export const EMPTY_ALLOW_LIST: AllowList = Object.freeze({
  hosts: new Set<string>(),
  ranges: [],
});

export class AllowListError extends Error {}

/** A host name as the fetcher compares it: lower case, no trailing dot. */
export function normaliseHostName(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * Parses the operator setting: comma-separated host names, IP addresses and CIDR
 * ranges; blanks are ignored and '' allows nothing. Host names go through the same
 * WHATWG normalisation as sourceUrl (case, IDNA, numeric IPv4 forms), so an entry
 * matches exactly what a URL would name. A malformed entry throws, so a typo fails
 * configuration loudly instead of allowing nothing (or more) in silence.
 */
export function parseAllowList(text: string): AllowList {
  const hosts = new Set<string>();
  const ranges: Cidr[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry.includes('/')) {
      const [addr, bits] = parseCidrEntry(entry);
      ranges.push([addr, bits]);
      continue;
    }
    const literal = parseAddress(entry);
    if (literal !== null) {
      ranges.push(singleAddress(literal));
      continue;
    }
    const host = hostEntry(entry);
    const numeric = parseAddress(host);
    if (numeric !== null) {
      ranges.push(singleAddress(numeric));
      continue;
    }
    hosts.add(normaliseHostName(host));
  }
  return Object.freeze({ hosts, ranges: Object.freeze(ranges) });
}

function singleAddress(ip: IpAddress): Cidr {
  const plain = unwrapMapped(ip);
  return [plain, plain.kind() === 'ipv4' ? 32 : 128];
}

function hostEntry(entry: string): string {
  // A port, path or user name would be dropped by URL parsing and widen the entry.
  let host = '';
  if (/^[^\s:@/?#\\]+$/.test(entry)) {
    try {
      host = new URL(`http://${entry}/`).hostname;
    } catch {
      host = '';
    }
  }
  if (host === '' || !/^[a-z0-9_.-]+$/.test(host)) {
    throw new AllowListError(`remote fetch allow list: "${entry}" is not a host name, IP or CIDR`);
  }
  return host;
}

function parseCidrEntry(entry: string): Cidr {
  const [addr, bits, extra] = entry.split('/');
  const ip = parseAddress(addr ?? '');
  const prefix = Number(bits);
  const max = ip?.kind() === 'ipv4' ? 32 : 128;
  if (ip === null || extra !== undefined || !/^\d{1,3}$/.test(bits ?? '') || prefix > max) {
    throw new AllowListError(`remote fetch allow list: "${entry}" is not a valid CIDR range`);
  }
  const plain = unwrapMapped(ip);
  if (plain === ip) return [ip, prefix];
  // Connected addresses are compared in their IPv4 form (see addressKey).
  if (prefix < 96) {
    throw new AllowListError(`remote fetch allow list: "${entry}" mixes IPv4-mapped and IPv6`);
  }
  return [plain, prefix - 96];
}

/**
 * Why a host name can only name this machine or its local network, or null: `localhost`
 * and its subdomains (RFC 6761), `.local` (multicast DNS), `.internal` and `.home.arpa`
 * (RFC 8375), and this machine's own host name. They resolve to private addresses, which
 * every connection refuses anyway; this lets a URL be refused when it is given, in words.
 */
export function localHostReason(host: string, ownHostName = hostname()): string | null {
  const name = normaliseHostName(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return 'names this machine';
  const own = normaliseHostName(ownHostName);
  if (own !== '' && (name === own || name === own.split('.')[0] || name === `${own}.localdomain`)) {
    return "is this machine's own host name";
  }
  if (/\.(local|internal|home\.arpa|localdomain)$/.test(name) || name === 'localdomain') {
    return 'names a host of a local network';
  }
  return null;
}

export function hostIsAllowed(allow: AllowList, host: string): boolean {
  return allow.hosts.has(normaliseHostName(host));
}

function addressIsAllowed(allow: AllowList, ip: IpAddress): boolean {
  const plain = unwrapMapped(ip);
  return allow.ranges.some((range) => inCidr(plain, range));
}

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

/**
 * The single rule every hop applies to every resolved address and to the connected
 * address: public unicast, or let through by the operator (host name listed or the
 * address in a listed range). Unspecified, multicast and broadcast never pass.
 */
export function judgeAddress(
  ip: IpAddress,
  hostAllowed: boolean,
  allow: AllowList,
): AddressVerdict {
  if (neverConnectable(ip)) return { ok: false, reason: unwrapMapped(ip).range() };
  if (hostAllowed || addressIsAllowed(allow, ip)) return { ok: true };
  const reason = nonPublicReason(ip);
  return reason === null ? { ok: true } : { ok: false, reason };
}
