// How the service sends mail, from SMTP_URL and MAIL_FROM: without SMTP_URL nothing is
// mailed and every link is shown for copying, as before; with it, mail goes through the
// outbox to that server (smtp:// upgrades with STARTTLS where the server offers it,
// smtps:// speaks TLS from the start).

import { CliError } from './cli-error.ts';

export interface MailConfig {
  /** The SMTP server's URL, credentials included; null sends no mail. */
  readonly smtpUrl: string | null;
  /** The From header of every message. */
  readonly from: string;
  /** The domain of every Message-ID (the public URL's host). */
  readonly messageIdHost: string;
}

/** A bare address or `Name <address>`, with one @ and no spaces in the address. */
const FROM = /^(?:[^<>\r\n]+<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

export function parseMailConfig(
  env: { SMTP_URL?: string; MAIL_FROM?: string },
  publicUrl: string,
): MailConfig {
  const host = new URL(publicUrl).hostname;
  const raw = env.SMTP_URL || null;
  if (raw !== null) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new CliError('SMTP_URL must be a URL such as smtp://user:pass@host:587');
    }
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
      throw new CliError(`SMTP_URL must start with smtp:// or smtps:// (got "${url.protocol}//")`);
    }
    if (!url.hostname) throw new CliError('SMTP_URL names no host');
  }
  const from = (env.MAIL_FROM || `Slotline <no-reply@${host}>`).trim();
  if (!FROM.test(from)) {
    throw new CliError(`MAIL_FROM must be an address or "Name <address>" (got "${from}")`);
  }
  return Object.freeze({ smtpUrl: raw, from, messageIdHost: host });
}
