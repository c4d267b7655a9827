import { randomBytes } from 'node:crypto';

// Crockford base32: ids stay readable, case-insensitive safe and URL-safe.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= 0xff;
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/**
 * A prefixed identifier: 10 characters of millisecond time (so ids sort by
 * creation and index pages stay warm) followed by 16 random characters.
 */
export function newId(prefix: string, nowMs: number = Date.now()): string {
  const time = Buffer.alloc(6);
  time.writeUIntBE(Math.max(0, Math.floor(nowMs)), 0, 6);
  return `${prefix}_${base32(time).slice(0, 10)}${base32(randomBytes(10))}`;
}

/** Random URL-safe secret of the given number of bytes. */
export function randomToken(bytes: number): string {
  return base32(randomBytes(bytes));
}
