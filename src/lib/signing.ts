// Signed, expiring URLs for media the service serves itself. The signature
// covers the path and the expiry, so neither can be changed.
import { hmac, safeEqual, toBase64Url } from './crypto.ts';

export type SignatureCheck = 'ok' | 'expired' | 'invalid';

export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly publicUrl: string,
  ) {}

  /**
   * Absolute URL for `path` (starting with "/") valid until `expiresAt`.
   * `binding` is signed but not shown: facts the request must match, checked by
   * the verifier from its own records (an upload's declared size and type).
   */
  sign(path: string, expiresAt: Date, binding = ''): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    const signature = this.signature(path, expires, binding);
    return `${this.publicUrl}${path}?expires=${expires}&signature=${signature}`;
  }

  check(path: string, expires: number, signature: string, now: Date, binding = ''): SignatureCheck {
    // Compared as text: base64url's last character has spare bits, so decoded
    // bytes would accept a second spelling of the same signature.
    if (!safeEqual(Buffer.from(signature), Buffer.from(this.signature(path, expires, binding)))) {
      return 'invalid';
    }
    if (expires * 1000 < now.getTime()) return 'expired';
    return 'ok';
  }

  private signature(path: string, expires: number, binding: string): string {
    return toBase64Url(hmac(this.secret, `url\n${path}\n${expires}\n${binding}`));
  }
}
