// Secrets the service must read back (webhook signing secrets) are sealed at rest with
// AES-256-GCM under a key derived from the server secret: a copy of the database alone
// does not give them away, and a changed ciphertext fails to open instead of signing
// with garbage.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export class Sealer {
  private readonly key: Buffer;

  /** `key`: 32 bytes, or any text hashed down to them by the caller's derivation. */
  constructor(key: Buffer) {
    if (key.length !== 32) throw new RangeError('a sealing key has 32 bytes');
    this.key = key;
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The plain text, or throws when the value was not sealed by this key. */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('not a sealed value');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}
