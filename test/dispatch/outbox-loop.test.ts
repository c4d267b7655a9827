// The outbox's mail through a real SMTP server on both databases: a mail written in a
// transaction is sent once with its Message-ID, a rolled-back one never; a temporary
// refusal is retried after its backoff (readiness shows it waiting), a permanent one fails
// at once; a process that dies holding a claim leaves the mail to another once the lease
// runs out; the loop sends without waiting for a poll.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  deliverDueMail,
  OUTBOX_LEASE_MS,
  startOutboxLoop,
} from '../../src/dispatch/outbox-loop.ts';
import {
  claimMail,
  enqueueMail,
  getMessage,
  retryDelayMs,
  settleMail,
  smtpMailer,
  type Mailer,
  type OutgoingMail,
} from '../../src/modules/outbox/index.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver.ts';

function invite(to: string, extra: Partial<OutgoingMail> = {}): OutgoingMail {
  return {
    companyId: null,
    kind: 'invite',
    to,
    subject: 'You are invited to Slotline',
    text: 'Open the link to set your password.',
    html: '<p>Open the link to set your password.</p>',
    headers: {
      'List-Unsubscribe': '<https://slotline.test/unsubscribe/abc>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    ...extra,
  };
}

describeEachDialect('the outbox sends mail over SMTP', (get) => {
  let smtp: SmtpReceiver;
  let mailer: Mailer;

  before(async () => {
    smtp = await startSmtpReceiver();
    mailer = smtpMailer(smtp.url, 'Slotline <no-reply@slotline.test>', 'slotline.test');
  });
  after(async () => {
    mailer.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
    smtp.refuseWith = null;
  });

  test('a committed mail is sent once, with its Message-ID, text, HTML and headers', async () => {
    const t = get();
    const id = await t.ctx.db
      .transaction()
      .execute((tx) => enqueueMail(tx, invite('ada@example.com'), t.clock.now()));
    assert.ok(id);
    assert.equal(await deliverDueMail(t.ctx, mailer), 1);
    const [mail] = await smtp.waitFor(1);
    assert.equal(mail?.subject, 'You are invited to Slotline');
    assert.equal(mail?.messageId, `<${id}@slotline.test>`);
    assert.equal(mail?.text?.trim(), 'Open the link to set your password.');
    assert.match(String(mail?.html), /<p>Open the link/);
    const unsubscribe = mail?.headerLines.find((h) => h.key === 'list-unsubscribe');
    const oneClick = mail?.headerLines.find((h) => h.key === 'list-unsubscribe-post');
    assert.equal(oneClick?.line, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    assert.equal(unsubscribe?.line, 'List-Unsubscribe: <https://slotline.test/unsubscribe/abc>');
    assert.equal(mail?.from?.value[0]?.address, 'no-reply@slotline.test');
    const stored = await getMessage(t.ctx.db, id);
    assert.equal(stored?.status, 'sent');
    assert.equal(stored?.sentAt, t.clock.now().toISOString());
    // Nothing is sent twice.
    assert.equal(await deliverDueMail(t.ctx, mailer), 0);
    assert.equal(smtp.received.length, 1);
  });

  test('a rolled-back mail is never sent; a dedupe key is written once', async () => {
    const t = get();
    await assert.rejects(
      t.ctx.db.transaction().execute(async (tx) => {
        await enqueueMail(tx, invite('rolled@example.com'), t.clock.now());
        throw new Error('the cause failed');
      }),
      /the cause failed/,
    );
    const key = { dedupeKey: `reminder:item-1:${t.clock.now().toISOString()}` };
    const first = await enqueueMail(t.ctx.db, invite('bo@example.com', key), t.clock.now());
    const again = await enqueueMail(t.ctx.db, invite('bo@example.com', key), t.clock.now());
    assert.ok(first);
    assert.equal(again, null);
    assert.equal(await deliverDueMail(t.ctx, mailer), 1);
    const got = await smtp.waitFor(1);
    assert.deepEqual(
      got.map((m) => (Array.isArray(m.to) ? null : m.to?.value[0]?.address)),
      ['bo@example.com'],
    );
  });

  test('a temporary refusal is tried again after its backoff; a permanent one fails', async () => {
    const t = get();
    const id = await enqueueMail(t.ctx.db, invite('cy@example.com'), t.clock.now());
    assert.ok(id);
    smtp.refuseWith = 451;
    assert.equal(await deliverDueMail(t.ctx, mailer), 1);
    let stored = await getMessage(t.ctx.db, id);
    assert.equal(stored?.status, 'waiting');
    assert.equal(stored?.attempts, 1);
    assert.match(String(stored?.lastError), /451/);
    // Not before its backoff, then sent once the server accepts.
    smtp.refuseWith = null;
    t.clock.advance(retryDelayMs(1) - 1);
    assert.equal(await deliverDueMail(t.ctx, mailer), 0);
    // Readiness tells how long the oldest mail has waited, without failing for it.
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json().outbox, { waiting: 1, oldestWaitingSeconds: 30 });
    t.clock.advance(1);
    assert.equal(await deliverDueMail(t.ctx, mailer), 1);
    await smtp.waitFor(1);
    stored = await getMessage(t.ctx.db, id);
    assert.equal(stored?.status, 'sent');
    assert.equal(stored?.attempts, 2);
    assert.equal(stored?.lastError, null);

    const refused = await enqueueMail(t.ctx.db, invite('nobody@example.com'), t.clock.now());
    assert.ok(refused);
    smtp.refuseWith = 550;
    assert.equal(await deliverDueMail(t.ctx, mailer), 1);
    stored = await getMessage(t.ctx.db, refused);
    assert.equal(stored?.status, 'failed');
    assert.match(String(stored?.lastError), /550/);
  });

  test('a claim left by a process that died is sent by another once its lease runs out', async () => {
    const t = get();
    const id = await enqueueMail(t.ctx.db, invite('di@example.com'), t.clock.now());
    assert.ok(id);
    const dead = { owner: 'dead-process', ms: OUTBOX_LEASE_MS };
    const [held] = await claimMail(t.ctx.db, 10, dead, t.clock.now());
    assert.equal(held?.id, id);
    // While the lease holds, nobody else sends it.
    assert.equal(await deliverDueMail(t.ctx, mailer), 0);
    t.clock.advance(OUTBOX_LEASE_MS);
    assert.equal(await deliverDueMail(t.ctx, mailer), 1);
    await smtp.waitFor(1);
    assert.equal((await getMessage(t.ctx.db, id))?.status, 'sent');
    // The dead process's late settle changes nothing.
    assert.equal(await settleMail(t.ctx.db, held, dead.owner, { ok: true }, t.clock.now()), false);
    assert.equal((await getMessage(t.ctx.db, id))?.attempts, 2);
  });

  test('the loop sends a mail as soon as it is committed, without waiting for a poll', async () => {
    const t = get();
    const errors: unknown[] = [];
    const loop = startOutboxLoop(t.ctx, {
      pollMs: 3_600_000,
      mailer,
      onError: (err) => errors.push(err),
    });
    try {
      // Let the loop's first pass find nothing, so the kick is what sends.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await t.ctx.db
        .transaction()
        .execute((tx) => enqueueMail(tx, invite('ed@example.com'), t.clock.now()));
      const [mail] = await smtp.waitFor(1, 5_000);
      assert.equal(mail?.subject, 'You are invited to Slotline');
    } finally {
      await loop.stop();
    }
    assert.deepEqual(errors, []);
  });
});
