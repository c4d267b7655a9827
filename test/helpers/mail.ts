// Mail in tests: a real SMTP server on loopback (smtp-receiver.ts) and a mailer to it, so a
// test drives the outbox itself (deliverDueMail at the fake clock's time) and reads what
// arrived, parsed, with the one link a message offers.
import assert from 'node:assert/strict';
import type { ParsedMail } from 'mailparser';
import { deliverDueMail } from '../../src/dispatch/outbox-loop.ts';
import { smtpMailer, type Mailer } from '../../src/modules/outbox/index.ts';
import type { TestApp } from './app.ts';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.ts';

export interface Mailbox {
  smtp: SmtpReceiver;
  /** The env that makes a test app write mail for this server. */
  env: Record<string, string>;
  /** Sends what the app's outbox has due and answers the mails that arrived since the last call. */
  deliver(t: TestApp): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const smtp = await startSmtpReceiver();
  const mailer: Mailer = smtpMailer(smtp.url, 'Slotline <no-reply@slotline.test>', 'slotline.test');
  let seen = 0;
  return {
    smtp,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Slotline <no-reply@slotline.test>' },
    async deliver(t) {
      await deliverDueMail(t.ctx, mailer);
      const fresh = smtp.received.slice(seen);
      seen = smtp.received.length;
      return fresh;
    },
    async close() {
      mailer.close();
      await smtp.close();
    },
  };
}

/** The addresses a mail went to. */
export function recipients(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => v.address ?? ''));
}

/** The one mail among `mails` to `address`. */
export function mailTo(mails: readonly ParsedMail[], address: string): ParsedMail {
  const found = mails.filter((m) => recipients(m).includes(address.toLowerCase()));
  assert.equal(found.length, 1, `one mail to ${address}, got ${found.length}`);
  return found[0] as ParsedMail;
}

/** The path and query of the mail's link to `path` (in its text, as every reader shows it). */
export function linkIn(mail: ParsedMail, path: string): { path: string; token: string } {
  const m = new RegExp(`https?://[^\\s]+${path.replace(/\//g, '\\/')}\\?token=([^\\s]+)`).exec(
    mail.text ?? '',
  );
  assert.ok(m, `a link to ${path} in the mail:\n${mail.text ?? ''}`);
  const url = new URL(m[0]);
  return { path: `${url.pathname}${url.search}`, token: url.searchParams.get('token') ?? '' };
}
