// TRUST_PROXY: the peers whose forwarding headers (X-Forwarded-For, X-Request-Id) the
// service believes. Addresses and CIDR ranges only, IPv4 or IPv6: a host name would
// make trust depend on DNS at the moment a request arrives.
import { BlockList, isIP } from 'node:net';

export interface TrustedProxies {
  /** The entries as written, for Fastify's trustProxy (which reads the same forms). */
  readonly entries: readonly string[];
  /** Whether a socket's peer address is one of the trusted proxies. */
  trusts(address: string | undefined): boolean;
}

export class TrustedProxiesError extends Error {}

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** Parses a comma-separated list; null for an empty list or "off". */
export function parseTrustedProxies(raw: string): TrustedProxies | null {
  const text = raw.trim();
  if (text === '' || text === 'off') return null;
  const list = new BlockList();
  const entries: string[] = [];
  for (const part of text.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) {
      throw new TrustedProxiesError(`"${entry}" is not an IP address or CIDR range`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(address, type);
    } else {
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
        throw new TrustedProxiesError(`"${entry}" has an invalid prefix length`);
      }
      list.addSubnet(address, bits, type);
    }
    entries.push(entry);
  }
  if (entries.length === 0) return null;
  return Object.freeze({
    entries: Object.freeze(entries),
    trusts(peer: string | undefined): boolean {
      if (!peer) return false;
      // A dual-stack socket shows IPv4 peers as ::ffff:a.b.c.d.
      const v4 = MAPPED_V4.exec(peer)?.[1];
      if (v4) return list.check(v4, 'ipv4') || list.check(peer, 'ipv6');
      const family = isIP(peer);
      if (family === 0) return false;
      return list.check(peer, family === 4 ? 'ipv4' : 'ipv6');
    },
  });
}
