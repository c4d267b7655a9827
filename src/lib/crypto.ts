import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function hmac(secret: string, value: string): Buffer {
  return createHmac('sha256', secret).update(value).digest();
}

/** Constant-time comparison of two byte strings of any length. */
export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function toBase64Url(buf: Buffer | string): string {
  return Buffer.from(buf).toString('base64url');
}

export function fromBase64Url(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  return Buffer.from(text, 'base64url');
}
