// The outbox pages through HTTP with a real SMTP server, on both databases: a company's
// admins see their company's messages only (waiting, delivered, failed with the server's
// reason), never a body or its link; other roles are refused; the console sees every
// message with its company's name; status filters and keyset pages.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { enqueueMail } from '../../../src/modules/outbox/index.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { startMailbox } from '../../helpers/mail.ts';
import { enrolledOperator, freshAddress } from '../../helpers/operator.ts';

const mailbox = await startMailbox();
after(() => mailbox.close());

async function signedIn(t: TestApp, companyId: string, role: 'admin' | 'editor') {
  const u = await userIn(t, companyId, role);
  const b = browser(t, freshAddress());
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return { ...u, b };
}

function rowsOf(body: string): string[] {
  return [...body.matchAll(/<tr data-status="(\w+)">([\s\S]*?)<\/tr>/g)].map(
    (m) => `${m[1]}: ${(m[2] as string).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')}`,
  );
}

describeEachDialect(
  'the outbox pages',
  (get) => {
    test('a company admin sees its own mail and where it stands; others see nothing', async () => {
      const t = get();
      const a = await seedCompany(t, { name: 'Outbox A' });
      const b = await seedCompany(t, { name: 'Outbox B' });
      const adminA = await signedIn(t, a.companyId, 'admin');
      const adminB = await signedIn(t, b.companyId, 'admin');
      const editor = await signedIn(t, a.companyId, 'editor');

      const users = await adminA.b.get('/dashboard/users');
      const csrf = hidden(users.body, '_csrf');
      assert.match(users.body, /href="\/dashboard\/outbox">outbox</);
      await adminA.b.post('/dashboard/users', {
        _csrf: csrf,
        email: 'ok@a.example',
        role: 'viewer',
      });
      const waiting = await adminA.b.get('/dashboard/outbox');
      assert.equal(waiting.status, 200);
      const [row] = rowsOf(waiting.body);
      assert.match(row ?? '', /^waiting: .*ok@a\.example .*Invitation: .* Waiting to be sent/);

      await mailbox.deliver(t);
      mailbox.smtp.refuseWith = 550;
      await adminA.b.post('/dashboard/users', {
        _csrf: csrf,
        email: 'refused@a.example',
        role: 'viewer',
      });
      await mailbox.deliver(t);
      mailbox.smtp.refuseWith = null;

      const page = await adminA.b.get('/dashboard/outbox');
      const rows = rowsOf(page.body);
      assert.equal(rows.length, 2);
      assert.match(rows[0] ?? '', /^failed: .*refused@a\.example .*Failed after 1 try: .*550/);
      assert.match(rows[1] ?? '', /^sent: .*ok@a\.example .*Delivered/);
      assert.doesNotMatch(page.body, /token=/, 'no body, no link');

      const failed = await adminA.b.get('/dashboard/outbox?status=failed');
      assert.equal(rowsOf(failed.body).length, 1);
      assert.match(failed.body, /aria-current="page">Failed</);
      const sentOnly = rowsOf((await adminA.b.get('/dashboard/outbox?status=sent')).body);
      assert.equal(sentOnly.length, 1);

      const other = await adminB.b.get('/dashboard/outbox');
      assert.equal(other.status, 200);
      assert.deepEqual(rowsOf(other.body), []);
      assert.match(other.body, /No mail has been written yet/);
      assert.equal((await editor.b.get('/dashboard/outbox')).status, 403);
    });

    test('the console sees every message, named by company, a page at a time', async () => {
      const t = get();
      const co = await seedCompany(t, { name: 'Paged Co' });
      const now = t.clock.now();
      for (let i = 0; i < 51; i++) {
        await enqueueMail(
          t.ctx.db,
          {
            companyId: co.companyId,
            kind: 'invite',
            to: `p${i}@paged.example`,
            subject: `Message ${i}`,
            text: 'body',
          },
          new Date(now.getTime() + i * 1000),
        );
      }
      await enqueueMail(
        t.ctx.db,
        {
          companyId: null,
          kind: 'operator_invite',
          to: 'ops@side.example',
          subject: 'Ops',
          text: 'b',
        },
        new Date(now.getTime() + 60_000),
      );
      const op = await enrolledOperator(t, 'Otto');
      const first = await op.browser.get('/operator/outbox');
      assert.equal(first.status, 200);
      const rows = rowsOf(first.body);
      assert.equal(rows.length, 50);
      assert.match(rows[0] ?? '', /ops@side\.example .*Operator account: Ops .*Operator side/);
      assert.match(rows[1] ?? '', /p50@paged\.example .*Paged Co/);
      const next = /<a href="([^"]+)">Older messages<\/a>/.exec(first.body)?.[1];
      assert.ok(next);
      const second = await op.browser.get(next.replace(/&amp;/g, '&'));
      const rest = rowsOf(second.body);
      assert.ok(rest.length >= 2, 'the older messages, this test’s and any before it');
      assert.ok(rest.some((r) => /p1@paged\.example/.test(r)));
      assert.ok(rest.some((r) => /p0@paged\.example/.test(r)));
      assert.match(second.body, /Newest messages/);
      await mailbox.deliver(t);
    });
  },
  { env: mailbox.env },
);
