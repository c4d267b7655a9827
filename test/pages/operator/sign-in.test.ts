// The operator console's sign-in through HTTP, on both databases: the one-time link
// (password, authenticator with QR code and key, recovery codes shown once), the two-step
// sign-in and its refusals (wrong password, no second factor set up, wrong, reused and
// older codes, used recovery codes, a disabled operator, the limits), session expiry, and
// cookies that never open the other side (a company user's on the console, an operator's
// on the dashboard).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { seedCompany } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn } from '../../helpers/dashboard.ts';
import {
  OPERATOR_PASSWORD,
  codeAt,
  codeStep,
  enrolledOperator,
  freshAddress,
  inputValue,
  operatorSignIn,
  passwordStep,
  storedSecret,
} from '../../helpers/operator.ts';
import {
  ADMIN_CLI,
  createOperator,
  disableOperator,
  listOperatorLog,
  resetOperator,
} from '../../../src/modules/operators/index.ts';
import { SESSION_IDLE_MS } from '../../../src/lib/session-times.ts';

describeEachDialect('operator sign-in', (get) => {
  test('the sign-in link: password, authenticator, recovery codes; the link works once', async () => {
    const t = get();
    const { operator, link } = await createOperator(
      t.ctx.db,
      t.ctx.clock,
      { email: 'Welcome.Ops@Slotline.example', name: 'Wendy' },
      ADMIN_CLI,
      null,
    );
    assert.equal(operator.email, 'welcome.ops@slotline.example');
    assert.equal(operator.status, 'invited');
    const b = browser(t, freshAddress());
    const welcome = await b.get(`/operator/welcome?token=${link.token}`);
    assert.equal(welcome.status, 200);
    assert.match(welcome.body, /Hello Wendy/);
    assert.match(welcome.body, /welcome\.ops@slotline\.example/);

    const post = (form: Record<string, string>) =>
      b.post('/operator/welcome', {
        _csrf: hidden(welcome.body, '_csrf'),
        token: link.token,
        ...form,
      });
    const short = await post({ password: 'short', confirmation: 'short' });
    assert.equal(short.status, 400);
    assert.match(short.body, /at least 12 characters/);
    const again = await b.get(`/operator/welcome?token=${link.token}`);
    const mismatch = await b.post('/operator/welcome', {
      _csrf: hidden(again.body, '_csrf'),
      token: link.token,
      password: OPERATOR_PASSWORD,
      confirmation: `${OPERATOR_PASSWORD}!`,
    });
    assert.equal(mismatch.status, 400);
    assert.match(mismatch.body, /not the same/);
    const form = await b.get(`/operator/welcome?token=${link.token}`);
    const set = await b.post('/operator/welcome', {
      _csrf: hidden(form.body, '_csrf'),
      token: link.token,
      password: OPERATOR_PASSWORD,
      confirmation: OPERATOR_PASSWORD,
    });
    assert.equal(set.status, 303);
    assert.equal(set.location, '/operator/welcome/authenticator');
    assert.ok(b.cookies.has('slotline_operator'));

    // The link is used up; the half-enrolled browser opens no page of the console.
    const used = await browser(t).get(`/operator/welcome?token=${link.token}`);
    assert.equal(used.status, 404);
    assert.match(used.body, /does not work any more/);
    const early = await b.get('/operator/companies');
    assert.equal(early.status, 303);
    assert.equal(early.location, '/operator/welcome/authenticator');

    const enrol = await b.get('/operator/welcome/authenticator');
    assert.equal(enrol.status, 200);
    assert.match(enrol.body, /<svg class="qr" role="img" aria-label="QR code of the Slotline key/);
    assert.doesNotMatch(enrol.body, /(src|href)="https?:/, 'nothing is loaded from elsewhere');
    const key = inputValue(enrol.body, 'manual-key').replace(/\s/g, '');
    assert.equal(key, await storedSecret(t, operator.email), 'the key shown is the stored one');
    const row = await t.ctx.db
      .selectFrom('operators')
      .selectAll()
      .where('id', '=', operator.operatorId)
      .executeTakeFirstOrThrow();
    assert.ok(row.totp_secret && !row.totp_secret.includes(key), 'the secret is sealed at rest');
    assert.equal(row.totp_enabled_at, null);

    const wrong = await b.post('/operator/welcome/authenticator', {
      _csrf: hidden(enrol.body, '_csrf'),
      code: codeAt(t, key, 5 * 60_000),
    });
    assert.equal(wrong.status, 400);
    assert.match(wrong.body, /That code is not right/);
    const done = await b.post('/operator/welcome/authenticator', {
      _csrf: hidden(enrol.body, '_csrf'),
      code: codeAt(t, key),
    });
    assert.equal(done.status, 200);
    const shown = /<textarea id="recovery-codes"[^>]*>([^<]*)<\/textarea>/.exec(done.body);
    assert.ok(shown);
    const codes = (shown[1] as string).split('\n');
    assert.equal(codes.length, 10);
    for (const c of codes) assert.match(c, /^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    assert.equal(new Set(codes).size, 10);
    const stored = await t.ctx.db
      .selectFrom('operator_recovery_codes')
      .selectAll()
      .where('operator_id', '=', operator.operatorId)
      .execute();
    assert.equal(stored.length, 10);
    const text = JSON.stringify(stored);
    for (const c of codes) {
      assert.ok(
        !text.includes(c) && !text.includes(c.replace(/-/g, '')),
        'codes are stored hashed',
      );
    }

    // Signed in: the console opens, and the codes are not shown again anywhere.
    const companies = await b.get('/operator/companies');
    assert.equal(companies.status, 200);
    assert.match(companies.body, /Wendy · operator/);
    assert.ok(!companies.body.includes(codes[0] as string));
    const back = await b.get('/operator/welcome/authenticator');
    assert.equal(back.status, 303, 'enrolment is over');
    const enabled = await t.ctx.db
      .selectFrom('operators')
      .select(['totp_enabled_at', 'last_sign_in_at'])
      .where('id', '=', operator.operatorId)
      .executeTakeFirstOrThrow();
    assert.equal(enabled.totp_enabled_at, t.clock.now().toISOString());

    const log = await listOperatorLog(t.ctx.db, { limit: 100 });
    const mine = log.filter((e) => e.target === operator.operatorId).map((e) => e.action);
    assert.deepEqual(mine, ['operator.enrolled', 'operator.created']);
  });

  test('the session cookie is HttpOnly, SameSite=Lax, scoped to /operator', async () => {
    const t = get();
    const op = await enrolledOperator(t);
    const b = browser(t, freshAddress());
    const form = await t.app.inject({ method: 'GET', url: '/operator/sign-in' });
    const token = /name="_csrf" value="([^"]*)"/.exec(form.body)?.[1] as string;
    const res = await t.app.inject({
      method: 'POST',
      url: '/operator/sign-in',
      remoteAddress: freshAddress(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `slotline_operator_form=${token}`,
      },
      payload: new URLSearchParams({
        _csrf: token,
        email: op.email,
        password: OPERATOR_PASSWORD,
      }).toString(),
    });
    assert.equal(res.statusCode, 303);
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const session = set.find((c) => c.startsWith('slotline_operator='));
    assert.ok(session);
    assert.match(session, /HttpOnly/i);
    assert.match(session, /SameSite=Lax/i);
    assert.match(session, /Path=\/operator/);
    assert.doesNotMatch(session, /Secure/);
    assert.equal(b.cookies.size, 0);
  });

  test('refusals: wrong password, no second factor set up, wrong, reused and older codes', async () => {
    const t = get();
    const op = await enrolledOperator(t);

    const b = browser(t, freshAddress());
    const unknown = await passwordStep(b, 'nobody@slotline.example', OPERATOR_PASSWORD);
    const wrong = await passwordStep(b, op.email, 'not the right password');
    assert.equal(unknown.status, 401);
    assert.equal(wrong.status, 401);
    assert.match(wrong.body, /Wrong email or password/);
    assert.ok(!b.cookies.has('slotline_operator'));

    // An operator whose link set a password but whose app was never confirmed.
    const half = await createOperator(
      t.ctx.db,
      t.ctx.clock,
      { email: 'half@slotline.example' },
      ADMIN_CLI,
      null,
    );
    const hb = browser(t, freshAddress());
    const hw = await hb.get(`/operator/welcome?token=${half.link.token}`);
    await hb.post('/operator/welcome', {
      _csrf: hidden(hw.body, '_csrf'),
      token: half.link.token,
      password: OPERATOR_PASSWORD,
      confirmation: OPERATOR_PASSWORD,
    });
    const noTotp = await passwordStep(browser(t, freshAddress()), 'half@slotline.example');
    assert.equal(noTotp.status, 403);
    assert.match(noTotp.body, /Two-factor sign-in was never set up/);
    // One whose link was never followed has no password at all.
    await createOperator(
      t.ctx.db,
      t.ctx.clock,
      { email: 'never@slotline.example' },
      ADMIN_CLI,
      null,
    );
    assert.equal(
      (await passwordStep(browser(t, freshAddress()), 'never@slotline.example')).status,
      401,
    );

    // The password alone opens nothing but the code form.
    const pb = browser(t, freshAddress());
    assert.equal((await passwordStep(pb, op.email.toUpperCase())).status, 303);
    for (const path of ['/operator/companies', '/operator/log', '/operator/companies/new']) {
      const res = await pb.get(path);
      assert.equal(res.status, 303, path);
      assert.equal(res.location, '/operator/sign-in/code', path);
    }
    t.clock.advance(30_000);
    const bad = await codeStep(pb, codeAt(t, op.secret, 10 * 60_000));
    assert.equal(bad.status, 401);
    assert.match(bad.body, /That code is not right/);
    const garbage = await codeStep(pb, 'not-a-code');
    assert.equal(garbage.status, 401);
    const code = codeAt(t, op.secret);
    const ok = await codeStep(pb, code);
    assert.equal(ok.status, 303);
    assert.equal(ok.location, '/operator/companies');
    assert.equal((await pb.get('/operator/companies')).status, 200);

    // The same code again, in the same 30 seconds, from another browser: refused.
    const rb = browser(t, freshAddress());
    assert.equal((await passwordStep(rb, op.email)).status, 303);
    const reused = await codeStep(rb, code);
    assert.equal(reused.status, 401);
    assert.match(reused.body, /used already/);
    // The code of the step before, still within the accepted window: older than one used.
    const older = await codeStep(rb, codeAt(t, op.secret, -30_000));
    assert.equal(older.status, 401);
    assert.match(older.body, /used already/);
    t.clock.advance(30_000);
    assert.equal((await codeStep(rb, codeAt(t, op.secret))).status, 303);
    // Codes one step either side of the current one are accepted (clock drift).
    const db2 = browser(t, freshAddress());
    await passwordStep(db2, op.email);
    t.clock.advance(60_000);
    assert.equal((await codeStep(db2, codeAt(t, op.secret, 30_000))).status, 303);
  });

  test('recovery codes: each signs in once, in place of a code', async () => {
    const t = get();
    const op = await enrolledOperator(t);
    const recovery = op.recoveryCodes[3] as string;
    const b = browser(t, freshAddress());
    await passwordStep(b, op.email);
    // Typed in capitals without dashes: the same code.
    const ok = await codeStep(b, recovery.replace(/-/g, ' ').toUpperCase());
    assert.equal(ok.status, 303);
    const page = await b.get('/operator/companies');
    assert.equal(page.status, 200);
    assert.match(page.body, /You signed in with a recovery code; 9 of them are left/);

    const signIns = (await listOperatorLog(t.ctx.db, { limit: 20 })).filter(
      (e) => e.target === op.operatorId && e.action === 'operator.signed_in',
    );
    assert.deepEqual(signIns[0]?.details, {
      email: op.email,
      method: 'recovery_code',
      recoveryCodesLeft: 9,
    });
    assert.match(
      (await b.get('/operator/log')).body,
      /Signed in with a recovery code \(9 left\)\./,
    );

    const again = browser(t, freshAddress());
    await passwordStep(again, op.email);
    const used = await codeStep(again, recovery);
    assert.equal(used.status, 401);
    assert.match(used.body, /That code is not right/);
    // Another operator's code is no code of this one.
    const other = await enrolledOperator(t, 'Otto');
    assert.equal((await codeStep(again, other.recoveryCodes[0] as string)).status, 401);
    assert.equal((await codeStep(again, op.recoveryCodes[4] as string)).status, 303);
  });

  test('failures are limited: five wrong codes, then 429 until the window ends', async () => {
    const t = get();
    const op = await enrolledOperator(t);
    const b = browser(t, freshAddress());
    await passwordStep(b, op.email);
    for (let i = 0; i < 5; i++) {
      assert.equal((await codeStep(b, '000000')).status, 401);
    }
    t.clock.advance(30_000);
    const limited = await codeStep(b, codeAt(t, op.secret));
    assert.equal(limited.status, 429);
    assert.match(limited.body, /Too many failed attempts/);

    // Passwords alike, per account: five wrong ones, then even the right one waits.
    const other = await enrolledOperator(t, 'Paula');
    const pb = browser(t, freshAddress());
    for (let i = 0; i < 5; i++) {
      assert.equal((await passwordStep(pb, other.email, 'wrong password here')).status, 401);
    }
    const held = await passwordStep(pb, other.email);
    assert.equal(held.status, 429);
    t.clock.advance(16 * 60_000);
    assert.equal((await passwordStep(pb, other.email)).status, 303);
  });

  test('disable ends sessions and sign-ins; reset starts the operator over', async () => {
    const t = get();
    const op = await enrolledOperator(t);
    assert.equal((await op.browser.get('/operator/companies')).status, 200);
    await disableOperator(t.ctx.db, t.ctx.clock, op.email, ADMIN_CLI);
    const out = await op.browser.get('/operator/companies');
    assert.equal(out.status, 303);
    assert.match(out.location ?? '', /^\/operator\/sign-in/);
    assert.equal((await passwordStep(browser(t, freshAddress()), op.email)).status, 401);

    const { link } = await resetOperator(t.ctx.db, t.ctx.clock, op.email, ADMIN_CLI, null);
    // The old password and second factor are gone: only the new link leads in.
    assert.equal((await passwordStep(browser(t, freshAddress()), op.email)).status, 401);
    const b = browser(t, freshAddress());
    const w = await b.get(`/operator/welcome?token=${link.token}`);
    assert.equal(w.status, 200);
    const set = await b.post('/operator/welcome', {
      _csrf: hidden(w.body, '_csrf'),
      token: link.token,
      password: OPERATOR_PASSWORD,
      confirmation: OPERATOR_PASSWORD,
    });
    assert.equal(set.status, 303);
    const enrol = await b.get('/operator/welcome/authenticator');
    const key = inputValue(enrol.body, 'manual-key').replace(/\s/g, '');
    assert.notEqual(key, op.secret, 'a new secret');
    const done = await b.post('/operator/welcome/authenticator', {
      _csrf: hidden(enrol.body, '_csrf'),
      code: codeAt(t, key),
    });
    assert.equal(done.status, 200);
    // The old recovery codes went with the old second factor.
    const rb = browser(t, freshAddress());
    await passwordStep(rb, op.email);
    assert.equal((await codeStep(rb, op.recoveryCodes[0] as string)).status, 401);
  });

  test('sessions end after two idle hours, like the dashboard’s', async () => {
    const t = get();
    const op = await enrolledOperator(t);
    const b = await operatorSignIn(t, op);
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    assert.equal((await b.get('/operator/log')).status, 200);
    t.clock.advance(SESSION_IDLE_MS + 1000);
    const out = await b.get('/operator/log');
    assert.equal(out.status, 303);
    assert.equal(out.location, '/operator/sign-in?next=%2Foperator%2Flog');
    // A password step left waiting expires within minutes.
    const pb = browser(t, freshAddress());
    await passwordStep(pb, op.email);
    t.clock.advance(11 * 60_000);
    const late = await pb.get('/operator/sign-in/code');
    assert.equal(late.status, 303);
    assert.match(late.location ?? '', /^\/operator\/sign-in/);
  });

  test('a company user’s cookie never opens the console, nor an operator’s the dashboard', async () => {
    const t = get();
    const co = await seedCompany(t);
    const user = await userIn(t, co.companyId, 'admin');
    const ub = browser(t, freshAddress());
    assert.equal((await signIn(ub, user.email, user.password)).status, 303);
    const userSecret = ub.cookies.get('slotline_session') as string;
    assert.ok(userSecret);
    const op = await enrolledOperator(t);
    const opSecret = op.browser.cookies.get('slotline_operator') as string;
    assert.ok(opSecret);

    for (const cookie of [`slotline_operator=${userSecret}`, `slotline_session=${userSecret}`]) {
      for (const url of ['/operator/companies', '/operator/log', '/operator/sign-in/code']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
        assert.equal(res.statusCode, 303, `${cookie} ${url}`);
        assert.match(String(res.headers.location), /^\/operator\/sign-in/);
      }
    }
    for (const cookie of [`slotline_session=${opSecret}`, `slotline_operator=${opSecret}`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/dashboard/approvals',
        headers: { cookie },
      });
      assert.equal(res.statusCode, 303, cookie);
      assert.match(String(res.headers.location), /^\/dashboard\/sign-in/);
    }
    // An API key is no way in either.
    const keyed = await t.app.inject({
      method: 'GET',
      url: '/operator/companies',
      headers: { authorization: `Bearer ${co.key}` },
    });
    assert.equal(keyed.statusCode, 303);
    // Nor is an operator's password on the dashboard, or a user's on the console.
    assert.equal(
      (await passwordStep(browser(t, freshAddress()), user.email, user.password)).status,
      401,
    );
    assert.equal(
      (await signIn(browser(t, freshAddress()), op.email, OPERATOR_PASSWORD)).status,
      401,
    );
  });
});
