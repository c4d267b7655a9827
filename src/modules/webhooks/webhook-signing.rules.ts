// Standard Webhooks 1.0 signatures: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`
// under the secret's key bytes; secrets are `whsec_` + base64 of 32 random bytes.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export function newSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header: one signature per secret, space-separated. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets
    .map(
      (secret) =>
        'v1,' +
        createHmac('sha256', keyOf(secret))
          .update(`${id}.${timestampSeconds}.${body}`)
          .digest('base64'),
    )
    .join(' ');
}
