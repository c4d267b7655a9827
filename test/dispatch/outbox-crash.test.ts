// Mail survives a crash: a service process writes a forgotten password's mail (a real
// request to `slotline serve`), starts sending it to a real SMTP server that takes the data
// and never answers, and is killed with SIGKILL mid-send. Nothing is lost: the message waits
// under the dead process's lease, and once the lease runs out another process sends it,
// once, with the same Message-ID, and the link in it works. On both databases.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { deliverDueMail, OUTBOX_LEASE_MS } from '../../src/dispatch/outbox-loop.ts';
import { smtpMailer } from '../../src/modules/outbox/index.ts';
import { seedCompany } from '../helpers/app.ts';
import { hidden, httpBrowser, userIn, browser } from '../helpers/dashboard.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { linkIn, mailTo } from '../helpers/mail.ts';
import { startReplicas, type Replica } from '../helpers/replicas.ts';
import { startSmtpReceiver } from '../helpers/smtp-receiver.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.close());

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeEachDialect(
  'mail across a crash',
  (get) => {
    test('SIGKILL mid-send: the mail waits, then another process sends it once', async () => {
      const t = get();
      const co = await seedCompany(t);
      const u = await userIn(t, co.companyId, 'editor');
      const { replicas, stop } = await startReplicas(1, {
        DATA_DIR: t.config.dataDir,
        DATABASE_URL: t.config.databaseUrl ?? '',
        SLOTLINE_SECRET: t.config.secret ?? '',
        PUBLIC_URL: t.config.publicUrl,
        DISPATCH_INTERVAL_MS: '0',
        WEBHOOK_POLL_MS: '0',
        SIMULATOR: 'off',
        LOG_LEVEL: 'fatal',
        SMTP_URL: smtp.url,
        OUTBOX_POLL_MS: '100',
      });
      const service = replicas[0] as Replica;
      try {
        smtp.holdData = true;
        const heldBefore = smtp.held;
        const b = httpBrowser(service.url);
        const form = await b.get('/dashboard/forgot');
        assert.equal(form.status, 200, service.stderr());
        const sent = await b.post('/dashboard/forgot', {
          _csrf: hidden(form.body, '_csrf'),
          email: u.email,
        });
        assert.equal(sent.status, 200, sent.body);
        await until(() => smtp.held === heldBefore + 1, 'the service to be mid-send');
        const exited = new Promise<void>((resolve) => service.child.once('exit', () => resolve()));
        service.child.kill('SIGKILL');
        await exited;
      } finally {
        await stop();
        smtp.holdData = false;
      }

      const rows = await t.ctx.db
        .selectFrom('outbox_messages')
        .selectAll()
        .where('recipient', '=', u.email)
        .execute();
      assert.equal(rows.length, 1, 'written once, in the request’s transaction');
      const row = rows[0];
      assert.ok(row);
      assert.equal(row.status, 'waiting', 'not lost, not marked sent');
      assert.equal(row.attempts, 1);
      assert.ok(row.lease_until, 'still under the dead process’s lease');
      assert.equal(smtp.received.length, 0, 'nothing accepted by the server');

      // Another process, while the lease holds, leaves it alone; after it, sends it.
      const mailer = smtpMailer(smtp.url, 'Slotline <no-reply@slotline.test>', 'slotline.test');
      try {
        const leaseEnds = Date.parse(row.lease_until);
        t.clock.set(new Date(leaseEnds - 1_000));
        assert.equal(await deliverDueMail(t.ctx, mailer), 0);
        t.clock.set(new Date(leaseEnds + 1_000));
        assert.equal(await deliverDueMail(t.ctx, mailer), 1);
        assert.equal(await deliverDueMail(t.ctx, mailer), 0, 'sent once');
      } finally {
        mailer.close();
      }
      const mail = mailTo(smtp.received, u.email);
      assert.equal(mail.messageId, `<${row.id}@slotline.test>`);
      const after = await t.ctx.db
        .selectFrom('outbox_messages')
        .select(['status', 'attempts'])
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(after, { status: 'sent', attempts: 2 });
      assert.ok(
        Date.parse(row.lease_until) - Date.parse(row.created_at) <= OUTBOX_LEASE_MS + 5_000,
      );

      // The link the crashed process made works.
      const link = linkIn(mail, '/dashboard/welcome');
      assert.equal((await browser(t, '198.51.100.201').get(link.path)).status, 200);
      smtp.received.length = 0;
    });
  },
  { env: { SMTP_URL: smtp.url } },
);
