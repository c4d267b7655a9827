import { randomBytes, randomFillSync } from 'node:crypto';

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

let lastMs = -1;
let sequence = 0;

/**
 * A prefixed identifier: 10 characters of millisecond time, 4 of a per-process
 * sequence within that millisecond, then 12 random characters. Ids sort by
 * creation (within a process even inside one millisecond), which keeps index
 * pages warm and makes (created_at, id) a creation-ordered key.
 */
export function newId(prefix: string, nowMs: number = Date.now()): string {
  const ms = Math.max(0, Math.floor(nowMs));
  sequence = ms === lastMs ? sequence + 1 : 0;
  lastMs = ms;
  const time = Buffer.alloc(6);
  time.writeUIntBE(ms, 0, 6);
  let seq = '';
  for (let i = 3, n = sequence % 32 ** 4; i >= 0; i--)
    seq += ALPHABET[Math.floor(n / 32 ** i) % 32];
  return `${prefix}_${base32(time).slice(0, 10)}${seq}${base32(idRandom()).slice(0, 12)}`;
}

// The random part of ids comes from a pool filled 512 ids at a time: a call to the random
// source costs far more than the 8 bytes it returns, and a create makes several ids (the
// post and each of its queue items). Every byte is used once.
const POOL_BYTES = 8 * 512;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function idRandom(): Buffer {
  if (poolOffset === POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 8;
  return pool.subarray(poolOffset - 8, poolOffset);
}

/** Random URL-safe secret of the given number of bytes. */
export function randomToken(bytes: number): string {
  return base32(randomBytes(bytes));
}
