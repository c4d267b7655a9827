// Signed, expiring URLs for media the service serves itself. The signature
// covers the path and the expiry, so neither can be changed.
import { hmac, safeEqual, toBase64Url } from './crypto.ts';

export type SignatureCheck = 'ok' | 'expired' | 'invalid';

export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
  ) {}

  /** Absolute URL for `path` (starting with "/") valid until `expiresAt`. */
  sign(path: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${this.publicUrl}${path}?expires=${expires}&signature=${this.signature(path, expires)}`;
  }

  check(path: string, expires: number, signature: string, now: Date): SignatureCheck {
    // Compared as text: base64url's last character has spare bits, so decoded
    // bytes would accept a second spelling of the same signature.
    if (!safeEqual(Buffer.from(signature), Buffer.from(this.signature(path, expires)))) {
      return 'invalid';
    }
    if (expires * 1000 < now.getTime()) return 'expired';
    return 'ok';
  }

  private signature(path: string, expires: number): string {
    return toBase64Url(hmac(this.secret, `url\n${path}\n${expires}`));
  }
}
