// How the service signs its Web Push requests (VAPID, RFC 8292), from VAPID_PUBLIC_KEY,
// VAPID_PRIVATE_KEY and VAPID_SUBJECT. Both keys or neither: without them a key pair is
// made once and kept in the database, like the signing secret, so every replica signs
// alike. The subject is the contact a push service may write to about the pushes.
import { CliError } from './cli-error.ts';

export interface PushConfig {
  /** The application server's key pair, base64url; null makes one and keeps it. */
  readonly keys: { publicKey: string; privateKey: string } | null;
  /** A `mailto:` or `https:` contact for the push services. */
  readonly subject: string;
}

function bytes(value: string, name: string, length: number): string {
  const text = value.trim();
  if (!/^[A-Za-z0-9_-]+$/.test(text) || Buffer.from(text, 'base64url').length !== length) {
    throw new CliError(
      `${name} must be ${length} bytes in base64url (web-push generate-vapid-keys)`,
    );
  }
  return text;
}

export function parsePushConfig(
  env: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string; VAPID_SUBJECT?: string },
  mailFrom: string,
): PushConfig {
  const pub = env.VAPID_PUBLIC_KEY || null;
  const priv = env.VAPID_PRIVATE_KEY || null;
  if ((pub === null) !== (priv === null)) {
    throw new CliError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both or neither');
  }
  const keys =
    pub !== null && priv !== null
      ? {
          publicKey: bytes(pub, 'VAPID_PUBLIC_KEY', 65),
          privateKey: bytes(priv, 'VAPID_PRIVATE_KEY', 32),
        }
      : null;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  const subject = (env.VAPID_SUBJECT || `mailto:${address}`).trim();
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(subject)) {
    throw new CliError(
      `VAPID_SUBJECT must be a mailto: address or an https: URL (got "${subject}")`,
    );
  }
  return Object.freeze({ keys, subject });
}
