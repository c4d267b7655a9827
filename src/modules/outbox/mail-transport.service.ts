// Sends a claimed mail over SMTP with nodemailer (SMTP_URL, STARTTLS where the server
// offers it; MAIL_FROM as the sender). The outbox message id is the Message-ID, so a retry
// after a lost answer carries the same id as the first try. The server's answer decides
// what happens next: 2xx sent, 5xx refused for good, anything else worth another try.
import { createTransport } from 'nodemailer';
import type { ClaimedMail, SendResult } from './outbox.service.ts';

export interface Mailer {
  send(mail: ClaimedMail): Promise<SendResult>;
  close(): void;
}

/** Wall time of one SMTP conversation, connect to the server's answer to the data. */
const SMTP_TIMEOUT_MS = 30_000;

interface SmtpFailure {
  responseCode?: number;
  response?: string;
  code?: string;
  message?: string;
}

/** Why an attempt failed, in words for the outbox page (the server's own where it spoke). */
function describe(err: SmtpFailure): string {
  if (err.response) return err.response.slice(0, 500);
  if (err.code) return `${err.code}: ${err.message ?? 'the attempt failed'}`.slice(0, 500);
  return (err.message ?? 'the attempt failed before the server answered').slice(0, 500);
}

/** Connections kept open to the server: one per send the outbox loop makes at once. */
const POOLED_CONNECTIONS = 4;

/**
 * A mailer sending through `smtpUrl` as `from`; `host` names the Message-ID's domain. Its
 * connections are pooled, so a burst of mail is not one handshake per message.
 */
export function smtpMailer(smtpUrl: string, from: string, host: string): Mailer {
  const transport = createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: POOLED_CONNECTIONS,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(mail) {
      try {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          messageId: `<${mail.id}@${host}>`,
          headers: mail.headers,
        });
        return { ok: true };
      } catch (err) {
        const failure = err as SmtpFailure;
        const permanent =
          typeof failure.responseCode === 'number' &&
          failure.responseCode >= 500 &&
          failure.responseCode < 600;
        return { ok: false, permanent, error: describe(failure) };
      }
    },
    close() {
      transport.close();
    },
  };
}
