// Invitations and resets by mail, through HTTP with a real SMTP server, on both databases:
// a company admin's invitation and reset, an operator's invitation of a company's first
// admin and a new operator are each mailed (the link is still shown once, and the page says
// it was mailed); the mailed link is the one shown and signs the person in; a refused
// invitation writes no mail.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_CLI, createOperator } from '../../../src/modules/operators/index.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { linkIn, mailTo, startMailbox } from '../../helpers/mail.ts';
import { enrolledOperator, freshAddress } from '../../helpers/operator.ts';

const mailbox = await startMailbox();
after(() => mailbox.close());

/** The link a page shows once in its read-only field `id`. */
function shownLink(body: string, id: string): string {
  const m = new RegExp(`id="${id}" type="text" readonly value="([^"]+)"`).exec(body);
  assert.ok(m, `the page shows #${id}`);
  return (m[1] as string).replace(/&amp;/g, '&');
}

async function admin(t: TestApp, name: string) {
  const co = await seedCompany(t, { name });
  const u = await userIn(t, co.companyId, 'admin');
  const b = browser(t, freshAddress());
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const page = await b.get('/dashboard/users');
  return { ...u, companyId: co.companyId, b, csrf: hidden(page.body, '_csrf'), page };
}

describeEachDialect(
  'sign-in links by mail',
  (get) => {
    test('a company admin’s invitation is mailed, shown once, and signs the person in', async () => {
      const t = get();
      const a = await admin(t, 'Mailed Co');
      assert.match(a.page.body, /We email the person a one-time sign-in link/);
      const invited = await a.b.post('/dashboard/users', {
        _csrf: a.csrf,
        email: 'New.Editor@Mailed.example',
        role: 'editor',
      });
      assert.equal(invited.status, 200, invited.body);
      assert.match(invited.body, /We emailed this link to new\.editor@mailed\.example/);
      const shown = shownLink(invited.body, 'user-link');

      const mail = mailTo(await mailbox.deliver(t), 'new.editor@mailed.example');
      assert.equal(mail.subject, `${a.email} invited you to Mailed Co on Slotline`);
      assert.match(mail.text ?? '', /Mailed Co’s Slotline dashboard as an editor/);
      assert.match(mail.html || '', /Choose your password<\/a>/);
      const link = linkIn(mail, '/dashboard/welcome');
      assert.equal(`http://slotline.test${link.path}`, shown, 'the mailed link is the one shown');

      const b = browser(t, freshAddress());
      const welcome = await b.get(link.path);
      assert.match(welcome.body, /You are invited as <strong>new\.editor@mailed\.example/);
      const password = 'the invited passphrase';
      const done = await b.post('/dashboard/welcome', {
        _csrf: hidden(welcome.body, '_csrf'),
        token: link.token,
        password,
        confirmation: password,
      });
      assert.equal(done.status, 303, done.body);

      // A refused invitation (the address is taken) writes nothing to the outbox.
      const dup = await a.b.post('/dashboard/users', {
        _csrf: a.csrf,
        email: 'new.editor@mailed.example',
        role: 'viewer',
      });
      assert.equal(dup.status, 409);
      assert.deepEqual(await mailbox.deliver(t), []);
    });

    test('a reset by an admin is mailed to the person', async () => {
      const t = get();
      const a = await admin(t, 'Reset Co');
      const other = await userIn(t, a.companyId, 'viewer');
      const reset = await a.b.post(`/dashboard/users/${other.user.userId}/reset`, {
        _csrf: a.csrf,
      });
      assert.equal(reset.status, 200, reset.body);
      assert.match(reset.body, /We emailed this link to/);
      const mail = mailTo(await mailbox.deliver(t), other.email);
      assert.equal(mail.subject, 'Your Slotline sign-in for Reset Co was reset');
      assert.match(mail.text ?? '', new RegExp(`${a.email} reset your sign-in`));
      assert.equal(
        `http://slotline.test${linkIn(mail, '/dashboard/welcome').path}`,
        shownLink(reset.body, 'user-link'),
      );
    });

    test('an operator’s invitation of a first admin, and a new operator, are mailed', async () => {
      const t = get();
      const op = await enrolledOperator(t, 'Milo');
      const co = await seedCompany(t, { name: 'First Admin Co' });
      const url = `/operator/companies/${co.companyId}`;
      const detail = await op.browser.get(url);
      assert.match(detail.body, /emailed to them, and shown to you once too/);
      const invited = await op.browser.post(`${url}/invite`, {
        _csrf: hidden(detail.body, '_csrf'),
        email: 'boss@first-admin.example',
      });
      assert.equal(invited.status, 200, invited.body);
      assert.match(invited.body, /We emailed this link to boss@first-admin\.example/);
      const mail = mailTo(await mailbox.deliver(t), 'boss@first-admin.example');
      assert.match(mail.subject ?? '', /Milo .* invited you to First Admin Co on Slotline/);
      assert.match(mail.text ?? '', /as an admin/);
      assert.equal(
        `http://slotline.test${linkIn(mail, '/dashboard/welcome').path}`,
        shownLink(invited.body, 'invite-link'),
      );

      const email = `new-op-${Date.now()}@slotline.example`;
      const made = await createOperator(t.ctx.db, t.ctx.clock, { email }, ADMIN_CLI, t.ctx.mailing);
      assert.equal(made.link.emailed, true);
      const opMail = mailTo(await mailbox.deliver(t), email);
      assert.equal(opMail.subject, 'Your Slotline operator console account');
      assert.equal(linkIn(opMail, '/operator/welcome').token, made.link.token);
    });
  },
  { env: mailbox.env },
);
