// The operator console through a browser without JavaScript (app.inject): an operator
// made by the CLI's service, its sign-in link followed to the end (password, authenticator,
// recovery codes), and signing in again with a code from the stored secret.
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { TestApp } from './app.ts';
import { browser, hidden, type Browser } from './dashboard.ts';
import { ADMIN_CLI, createOperator } from '../../src/modules/operators/index.ts';

export const OPERATOR_PASSWORD = 'a long operator passphrase';

let serial = 0;
/** A client address no other sign-in of the suite uses (the tests share one database). */
export function freshAddress(): string {
  serial += 1;
  return `198.51.100.${serial % 250}`;
}

/** The TOTP code of a base32 secret at the app's clock. */
export function codeAt(t: TestApp, secret: string, offsetMs = 0): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret.replace(/\s/g, '')),
    timestamp: t.clock.now().getTime() + offsetMs,
  });
}

/** The operator's TOTP secret, read from the database and opened with the server's sealer. */
export async function storedSecret(t: TestApp, email: string): Promise<string> {
  const row = await t.ctx.db
    .selectFrom('operators')
    .select('totp_secret')
    .where('email', '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
  assert.ok(row.totp_secret, 'no TOTP secret stored');
  return t.ctx.sealer.open(row.totp_secret);
}

/** A page's value of the input with this id. */
export function inputValue(html: string, id: string): string {
  const m = new RegExp(`id="${id}"[^>]*value="([^"]*)"`).exec(html);
  assert.ok(m, `no input #${id}`);
  return m[1] as string;
}

export interface EnrolledOperator {
  email: string;
  name: string;
  operatorId: string;
  secret: string;
  recoveryCodes: string[];
  /** Signed in, both factors passed. */
  browser: Browser;
}

let operators = 0;

/**
 * A new operator who followed its sign-in link: chose the password, set up the app with
 * the key the page shows, confirmed a code and was shown its recovery codes.
 */
export async function enrolledOperator(t: TestApp, name = 'Olga'): Promise<EnrolledOperator> {
  operators += 1;
  const email = `ops-${operators}-${Date.now()}@slotline.example`;
  const { operator, link } = await createOperator(
    t.ctx.db,
    t.ctx.clock,
    { email, name },
    ADMIN_CLI,
    null,
  );
  const b = browser(t, freshAddress());
  const welcome = await b.get(`/operator/welcome?token=${link.token}`);
  assert.equal(welcome.status, 200, welcome.body);
  const set = await b.post('/operator/welcome', {
    _csrf: hidden(welcome.body, '_csrf'),
    token: link.token,
    password: OPERATOR_PASSWORD,
    confirmation: OPERATOR_PASSWORD,
  });
  assert.equal(set.status, 303, set.body);
  assert.equal(set.location, '/operator/welcome/authenticator');
  const enrol = await b.get('/operator/welcome/authenticator');
  assert.equal(enrol.status, 200, enrol.body);
  const secret = inputValue(enrol.body, 'manual-key').replace(/\s/g, '');
  const done = await b.post('/operator/welcome/authenticator', {
    _csrf: hidden(enrol.body, '_csrf'),
    code: codeAt(t, secret),
  });
  assert.equal(done.status, 200, done.body);
  const codes = /<textarea id="recovery-codes"[^>]*>([^<]*)<\/textarea>/.exec(done.body);
  assert.ok(codes, 'no recovery codes shown');
  return {
    email,
    name,
    operatorId: operator.operatorId,
    secret,
    recoveryCodes: (codes[1] as string).split('\n'),
    browser: b,
  };
}

/** Posts the sign-in form (email and password) in `b`; the answer. */
export async function passwordStep(b: Browser, email: string, password = OPERATOR_PASSWORD) {
  const form = await b.get('/operator/sign-in');
  assert.equal(form.status, 200);
  return b.post('/operator/sign-in', { _csrf: hidden(form.body, '_csrf'), email, password });
}

/** Posts a code on the second step in `b`; the answer. */
export async function codeStep(b: Browser, code: string) {
  const form = await b.get('/operator/sign-in/code');
  assert.equal(form.status, 200, form.body);
  return b.post('/operator/sign-in/code', { _csrf: hidden(form.body, '_csrf'), code });
}

/**
 * Signs the operator in afresh in a new browser, with the code of the next TOTP step (the
 * clock moves on 30 seconds, since a step's code works once).
 */
export async function operatorSignIn(t: TestApp, op: EnrolledOperator): Promise<Browser> {
  const b = browser(t, freshAddress());
  const first = await passwordStep(b, op.email);
  assert.equal(first.status, 303, first.body);
  t.clock.advance(30_000);
  const second = await codeStep(b, codeAt(t, op.secret));
  assert.equal(second.status, 303, second.body);
  return b;
}
