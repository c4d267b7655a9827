// Whether PUBLIC_URL names this machine only. The worker's phone sign-in link and its QR
// code are made under PUBLIC_URL; on a loopback address they open the phone itself, so
// the console says what to set instead of handing out a link that cannot work.

/**
 * True when `url`'s host is a loopback or unspecified address a phone cannot reach:
 * `localhost` (and `*.localhost`), 127.0.0.0/8, 0.0.0.0, `::1`, `::` and IPv4-mapped
 * forms of these. False for any other host, and for text that is not a URL.
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  // URL normalises IPv6 (`::ffff:127.0.0.1` becomes `::ffff:7f00:1`) and IPv4 shorthands
  // (`127.1` becomes `127.0.0.1`), so the forms left to compare are few.
  if (host === '::1' || host === '::') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const high = parseInt(mapped[1] as string, 16);
    return high >> 8 === 127 || (high === 0 && parseInt(mapped[2] as string, 16) === 0);
  }
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!v4) return false;
  return v4[1] === '127' || host === '0.0.0.0';
}
