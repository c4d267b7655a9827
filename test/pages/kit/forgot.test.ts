// "Forgot your password?" on the dashboard and the console, through HTTP with a real SMTP
// server, on both databases: the mailed link signs the person in after a new password and
// ends the old one and its sessions; an unknown or disabled address gets the same answer
// and no mail; a newer link ends the older; requests are limited per address asked for,
// known or not; an operator's second factor is still asked for afterwards, and an
// interrupted enrolment is finished through the same link. Without SMTP_URL the pages say
// whom to ask instead.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { listActivity } from '../../../src/modules/activity/index.ts';
import { disableCompanyUser } from '../../../src/modules/users/index.ts';
import { ADMIN_CLI, createOperator } from '../../../src/modules/operators/index.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { linkIn, mailTo, startMailbox } from '../../helpers/mail.ts';
import {
  OPERATOR_PASSWORD,
  codeAt,
  codeStep,
  enrolledOperator,
  freshAddress,
  inputValue,
  passwordStep,
  storedSecret,
} from '../../helpers/operator.ts';

const mailbox = await startMailbox();
after(() => mailbox.close());

const NEW_PASSWORD = 'a brand new passphrase';

async function askFor(b: Browser, base: string, email: string) {
  const form = await b.get(`${base}/forgot`);
  assert.equal(form.status, 200, form.body);
  return b.post(`${base}/forgot`, { _csrf: hidden(form.body, '_csrf'), email });
}

/** The sent page with the address taken out, to compare answers for different addresses. */
function answerShape(body: string, email: string): string {
  return body
    .split(email)
    .join('EMAIL')
    .replace(/value="[A-Za-z0-9_-]{20,}"/g, 'value="TOKEN"');
}

async function setPassword(b: Browser, base: string, path: string, token: string) {
  const welcome = await b.get(path);
  assert.equal(welcome.status, 200, welcome.body);
  return {
    welcome,
    done: await b.post(`${base}/welcome`, {
      _csrf: hidden(welcome.body, '_csrf'),
      token,
      password: NEW_PASSWORD,
      confirmation: NEW_PASSWORD,
    }),
  };
}

describeEachDialect(
  'forgot your password, with mail',
  (get) => {
    async function user(t: TestApp) {
      const co = await seedCompany(t);
      return { ...(await userIn(t, co.companyId, 'editor')), companyId: co.companyId };
    }

    test('the dashboard: the mailed link sets a new password, once, and ends old sessions', async () => {
      const t = get();
      const u = await user(t);
      const before = browser(t, freshAddress());
      assert.equal((await signIn(before, u.email, u.password)).status, 303);

      const b = browser(t, freshAddress());
      const sent = await askFor(b, '/dashboard', u.email);
      assert.equal(sent.status, 200, sent.body);
      assert.match(sent.body, /a link to choose a new password is on its way/);
      const mail = mailTo(await mailbox.deliver(t), u.email);
      assert.equal(mail.subject, 'Reset your Slotline password');
      assert.match(mail.text ?? '', /works once, for 60 minutes/);
      assert.match(mail.text ?? '', /cannot be turned off/);
      assert.equal(mail.headers.get('list-unsubscribe'), undefined, 'a security message');
      const link = linkIn(mail, '/dashboard/welcome');

      // The password in use keeps working until the link is used.
      assert.equal((await signIn(browser(t, freshAddress()), u.email, u.password)).status, 303);
      const { welcome, done } = await setPassword(b, '/dashboard', link.path, link.token);
      assert.match(welcome.body, /<h1>Choose a new password<\/h1>/);
      assert.equal(done.status, 303, done.body);
      assert.equal((await b.get('/dashboard/usage')).status, 200, 'signed in by the link');

      assert.equal((await before.get('/dashboard/usage')).status, 303, 'old session ended');
      assert.equal((await signIn(browser(t, freshAddress()), u.email, u.password)).status, 401);
      assert.equal((await signIn(browser(t, freshAddress()), u.email, NEW_PASSWORD)).status, 303);
      assert.equal((await browser(t, freshAddress()).get(link.path)).status, 404, 'used once');

      const log = await listActivity(t.ctx.db, u.companyId, { limit: 5 });
      assert.ok(log.some((e) => e.action === 'user.password_recovered'));
    });

    test('unknown and disabled addresses get the same answer and no mail', async () => {
      const t = get();
      const u = await user(t);
      const known = await askFor(browser(t, freshAddress()), '/dashboard', u.email);
      await mailbox.deliver(t);
      const unknown = 'nobody-here@example.com';
      const none = await askFor(browser(t, freshAddress()), '/dashboard', unknown);
      assert.equal(none.status, known.status);
      assert.equal(answerShape(none.body, unknown), answerShape(known.body, u.email));

      const other = await userIn(t, u.companyId, 'viewer');
      const admin = await userIn(t, u.companyId, 'admin');
      await disableCompanyUser(
        t.ctx.db,
        t.ctx.clock,
        u.companyId,
        other.user.userId,
        { id: `user:${admin.user.userId}`, label: admin.email },
        admin.user.userId,
      );
      const disabled = await askFor(browser(t, freshAddress()), '/dashboard', other.email);
      assert.equal(disabled.status, 200);
      assert.deepEqual(await mailbox.deliver(t), [], 'no mail for unknown or disabled');
    });

    test('a newer link ends the older one', async () => {
      const t = get();
      const u = await user(t);
      await askFor(browser(t, freshAddress()), '/dashboard', u.email);
      const first = linkIn(mailTo(await mailbox.deliver(t), u.email), '/dashboard/welcome');
      await askFor(browser(t, freshAddress()), '/dashboard', u.email);
      const second = linkIn(mailTo(await mailbox.deliver(t), u.email), '/dashboard/welcome');
      const b = browser(t, freshAddress());
      assert.equal((await b.get(first.path)).status, 404);
      assert.equal((await b.get(second.path)).status, 200);
    });

    test('bad input is named; requests are limited per address asked for, known or not', async () => {
      const t = get();
      const b = browser(t, freshAddress());
      const empty = await askFor(b, '/dashboard', '');
      assert.equal(empty.status, 400);
      assert.match(empty.body, /Email: enter the address you sign in with/);
      const bad = await askFor(b, '/dashboard', 'not-an-address');
      assert.equal(bad.status, 400);
      assert.match(bad.body, /Email: must be an email address/);

      const u = await user(t);
      for (const email of [u.email, 'unknown-limit@example.com']) {
        for (let i = 0; i < 5; i++) {
          assert.equal((await askFor(browser(t, freshAddress()), '/dashboard', email)).status, 200);
        }
        const limited = await askFor(browser(t, freshAddress()), '/dashboard', email);
        assert.equal(limited.status, 429, email);
        assert.match(limited.body, /Too many requests for a new password/);
      }
      assert.equal((await mailbox.deliver(t)).length, 5, 'one mail per answered request');
      t.clock.advance(15 * 60_000 + 1_000);
      assert.equal((await askFor(browser(t, freshAddress()), '/dashboard', u.email)).status, 200);
      await mailbox.deliver(t);
    });

    test('the console: a new password, then the second factor is still asked for', async () => {
      const t = get();
      const op = await enrolledOperator(t, 'Fern');
      const secret = await storedSecret(t, op.email);
      const b = browser(t, freshAddress());
      assert.equal((await askFor(b, '/operator', op.email)).status, 200);
      const mail = mailTo(await mailbox.deliver(t), op.email);
      assert.equal(mail.subject, 'Reset your Slotline operator password');
      assert.match(mail.text ?? '', /authenticator app is still asked for/);
      const link = linkIn(mail, '/operator/welcome');

      const { welcome, done } = await setPassword(b, '/operator', link.path, link.token);
      assert.match(welcome.body, /then type a code from your authenticator app/);
      assert.equal(done.status, 303, done.body);
      assert.equal(done.location, '/operator/sign-in/code');
      assert.equal((await b.get('/operator/companies')).status, 303, 'not in without a code');
      t.clock.advance(30_000);
      const passed = await codeStep(b, codeAt(t, secret));
      assert.equal(passed.status, 303, passed.body);
      assert.equal((await b.get('/operator/companies')).status, 200);
      assert.equal(await storedSecret(t, op.email), secret, 'the authenticator stays');
      assert.equal((await op.browser.get('/operator/companies')).status, 303, 'old session ended');

      const old = await passwordStep(browser(t, freshAddress()), op.email, OPERATOR_PASSWORD);
      assert.equal(old.status, 401);
    });

    test('the console: an interrupted enrolment is finished through the emailed link', async () => {
      const t = get();
      const email = `halfway-${Date.now()}@slotline.example`;
      const { link } = await createOperator(t.ctx.db, t.ctx.clock, { email }, ADMIN_CLI, null);
      const first = browser(t, freshAddress());
      const { done: set } = await setPassword(
        first,
        '/operator',
        `/operator/welcome?token=${link.token}`,
        link.token,
      );
      assert.equal(set.location, '/operator/welcome/authenticator');
      // The tab is closed here: the password alone does not sign in.
      const refused = await passwordStep(browser(t, freshAddress()), email, NEW_PASSWORD);
      assert.equal(refused.status, 403);
      assert.match(refused.body, /Forgot your password/);

      const b = browser(t, freshAddress());
      await askFor(b, '/operator', email);
      const mail = mailTo(await mailbox.deliver(t), email);
      assert.match(mail.text ?? '', /finish setting up your authenticator app/);
      const resumed = linkIn(mail, '/operator/welcome');
      const { done } = await setPassword(b, '/operator', resumed.path, resumed.token);
      assert.equal(done.location, '/operator/welcome/authenticator');
      const enrol = await b.get('/operator/welcome/authenticator');
      const secret = inputValue(enrol.body, 'manual-key').replace(/\s/g, '');
      const confirmed = await b.post('/operator/welcome/authenticator', {
        _csrf: hidden(enrol.body, '_csrf'),
        code: codeAt(t, secret),
      });
      assert.equal(confirmed.status, 200, confirmed.body);
      assert.match(confirmed.body, /recovery codes/i);
    });
  },
  { env: mailbox.env },
);

describeEachDialect('forgot your password, without mail', (get) => {
  test('both sign-in pages link to it, and it says whom to ask instead', async () => {
    const t = get();
    for (const [base, ask] of [
      ['/dashboard', /Ask an admin of your company to reset your sign-in/],
      ['/operator', /Ask another operator to start your sign-in over/],
    ] as const) {
      const b = browser(t, freshAddress());
      const signInPage = await b.get(`${base}/sign-in`);
      assert.match(signInPage.body, new RegExp(`href="${base}/forgot">Forgot your password\\?`));
      const page = await b.get(`${base}/forgot`);
      assert.equal(page.status, 200);
      assert.match(page.body, ask);
      assert.doesNotMatch(page.body, /name="email"/);
    }
    const rows = await t.ctx.db.selectFrom('outbox_messages').select('id').execute();
    assert.deepEqual(rows, [], 'nothing written to the outbox');
  });
});
