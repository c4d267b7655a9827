// Mail in tests: a real SMTP server on loopback (smtp-receiver.ts) and a mailer to it, so a
// test drives the outbox itself (deliverDueMail at the fake clock's time) and reads what
// arrived, parsed, with the one link a message offers. With SLOTLINE_TEST_SMTP_URL and
// SLOTLINE_TEST_MAILDIR set (npm run test:mta), the server is a real MTA instead, and what
// arrived is read from the maildir it delivers into.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
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

/** The messages an MTA delivered into `maildir` (its new/ folder), oldest first. */
async function maildirMessages(maildir: string): Promise<string[]> {
  const dir = join(maildir, 'new');
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.sort().map((name) => join(dir, name));
}

export async function startMailbox(): Promise<Mailbox> {
  const smtp = await startSmtpReceiver();
  const mta = process.env.SLOTLINE_TEST_SMTP_URL;
  const maildir = process.env.SLOTLINE_TEST_MAILDIR;
  const url = mta && maildir ? mta : smtp.url;
  const mailer: Mailer = smtpMailer(url, 'Slotline <no-reply@slotline.test>', 'slotline.test');
  let seen = 0;
  /** Maildir files already answered. */
  const taken = new Set<string>();
  return {
    smtp,
    env: { SMTP_URL: url, MAIL_FROM: 'Slotline <no-reply@slotline.test>' },
    async deliver(t) {
      const sent = await deliverDueMail(t.ctx, mailer);
      if (mta && maildir) {
        // The MTA delivers after it accepts, into one maildir for every test process: wait
        // for this app's messages (their Message-ID is one of its outbox rows).
        const mine: ParsedMail[] = [];
        const deadline = Date.now() + 15_000;
        while (mine.length < sent && Date.now() < deadline) {
          for (const file of await maildirMessages(maildir)) {
            if (taken.has(file)) continue;
            const mail = await simpleParser(await readFile(file));
            const id = /^<([^@]+)@/.exec(mail.messageId ?? '')?.[1] ?? '';
            const row = await t.ctx.db
              .selectFrom('outbox_messages')
              .select('id')
              .where('id', '=', id)
              .executeTakeFirst();
            if (row) {
              taken.add(file);
              mine.push(mail);
            }
          }
          if (mine.length < sent) await new Promise((r) => setTimeout(r, 50));
        }
        return mine;
      }
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
