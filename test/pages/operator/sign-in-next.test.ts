// Hostile `next` targets (control characters, line separators, other sites, backslashes,
// encoded line breaks, dot segments, overlong) through every way into the operator console,
// on both databases: the password step, the TOTP step, a recovery code, and the one-time
// link's password and authenticator steps. Each goes where the flow goes without a target
// (the companies, or the next step) with its cookie, one session, and one log entry where
// the flow keeps one; the TOTP step is spent only by a sign-in that answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestApp } from '../../helpers/app.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { browser, hidden, type Browser } from '../../helpers/dashboard.ts';
import { hostileTargets, withNext } from '../../helpers/next-targets.ts';
import {
  OPERATOR_PASSWORD,
  codeAt,
  enrolledOperator,
  freshAddress,
  inputValue,
  type EnrolledOperator,
} from '../../helpers/operator.ts';
import { ADMIN_CLI, createOperator } from '../../../src/modules/operators/index.ts';
import type { OperatorSessionStep } from '../../../src/db/types.ts';

const HOME = '/operator/companies';
const CODE_STEP = `/operator/sign-in/code?next=${encodeURIComponent(HOME)}`;
const HOSTILE = hostileTargets('/operator');

async function sessions(
  t: TestApp,
  operatorId: string,
  step: OperatorSessionStep,
): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('operator_sessions')
    .select((e) => e.fn.countAll().as('n'))
    .where('operator_id', '=', operatorId)
    .where('step', '=', step)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function logged(t: TestApp, operatorId: string, action: string): Promise<string[]> {
  const rows = await t.ctx.db
    .selectFrom('operator_log')
    .select('details')
    .where('operator_id', '=', operatorId)
    .where('action', '=', action)
    .execute();
  return rows.map((r) => r.details);
}

/** Both steps with `next` in every address and form; the browser and the second answer. */
async function signInWith(
  t: TestApp,
  op: EnrolledOperator,
  next: string,
  code: () => string,
): Promise<{ b: Browser; second: { status: number; location?: string } }> {
  const b = browser(t, freshAddress());
  const form = await b.get(withNext('/operator/sign-in', next));
  assert.equal(form.status, 200);
  assert.equal(hidden(form.body, 'next'), HOME);
  const passwordSessions = await sessions(t, op.operatorId, 'password');
  const first = await b.post('/operator/sign-in', {
    _csrf: hidden(form.body, '_csrf'),
    email: op.email,
    password: OPERATOR_PASSWORD,
    next,
  });
  assert.equal(first.status, 303, first.body);
  assert.equal(first.location, CODE_STEP);
  const stepCookie = b.cookies.get('slotline_operator');
  assert.ok(stepCookie);
  assert.equal((await sessions(t, op.operatorId, 'password')) - passwordSessions, 1);

  const codeForm = await b.get(withNext('/operator/sign-in/code', next));
  assert.equal(codeForm.status, 200, codeForm.body);
  assert.equal(hidden(codeForm.body, 'next'), HOME);
  const full = await sessions(t, op.operatorId, 'full');
  const second = await b.post('/operator/sign-in/code', {
    _csrf: hidden(codeForm.body, '_csrf'),
    code: code(),
    next,
  });
  assert.equal(second.status, 303, second.body);
  assert.equal(second.location, HOME);
  const cookie = b.cookies.get('slotline_operator');
  assert.ok(cookie && cookie !== stepCookie, 'the full session’s cookie is set');
  assert.equal((await sessions(t, op.operatorId, 'full')) - full, 1);
  assert.equal(await sessions(t, op.operatorId, 'password'), passwordSessions);
  return { b, second };
}

async function opens(b: Browser): Promise<void> {
  assert.equal((await b.get(HOME)).status, 200);
}

describeEachDialect('operator sign-in next targets', (get) => {
  test('the TOTP step goes to the companies whatever the target, logged once', async () => {
    const t = get();
    const op = await enrolledOperator(t, 'Tess');
    for (const [label, next] of HOSTILE) {
      // Each sign-in spends the step's code: the next one waits for the next step.
      t.clock.advance(30_000);
      const before = (await logged(t, op.operatorId, 'operator.signed_in')).length;
      const { b } = await signInWith(t, op, next, () => codeAt(t, op.secret)).catch((err) => {
        throw new Error(`${label}: ${(err as Error).message}`);
      });
      const entries = await logged(t, op.operatorId, 'operator.signed_in');
      assert.equal(entries.length - before, 1, label);
      assert.ok(
        entries.every((e) => /"method":"totp"/.test(e)),
        label,
      );
      await opens(b);
    }
  });

  test('a recovery code goes to the companies whatever the target, logged once', async () => {
    const t = get();
    let op: EnrolledOperator | null = null;
    for (const [label, next] of HOSTILE) {
      // Ten codes an operator: a new one once they are used.
      if (!op || op.recoveryCodes.length === 0) op = await enrolledOperator(t, 'Rhea');
      const current: EnrolledOperator = op;
      const recovery = current.recoveryCodes.shift() as string;
      const before = (await logged(t, current.operatorId, 'operator.signed_in')).length;
      const { b, second } = await signInWith(t, current, next, () => recovery).catch((err) => {
        throw new Error(`${label}: ${(err as Error).message}`);
      });
      assert.equal(second.location, HOME, label);
      const entries = await logged(t, current.operatorId, 'operator.signed_in');
      assert.equal(entries.length - before, 1, label);
      assert.ok(
        entries.every((e) => /"method":"recovery_code"/.test(e)),
        label,
      );
      await opens(b);
    }
  });

  test('a safe console target is kept through both steps', async () => {
    const t = get();
    const op = await enrolledOperator(t, 'Sage');
    t.clock.advance(30_000);
    const b = browser(t, freshAddress());
    const target = '/operator/log?page=2';
    const out = await b.get(target);
    assert.equal(out.location, withNext('/operator/sign-in', target));
    const form = await b.get(out.location ?? '');
    const first = await b.post('/operator/sign-in', {
      _csrf: hidden(form.body, '_csrf'),
      email: op.email,
      password: OPERATOR_PASSWORD,
      next: hidden(form.body, 'next'),
    });
    assert.equal(first.location, withNext('/operator/sign-in/code', target));
    const codeForm = await b.get(first.location ?? '');
    const second = await b.post('/operator/sign-in/code', {
      _csrf: hidden(codeForm.body, '_csrf'),
      code: codeAt(t, op.secret),
      next: hidden(codeForm.body, 'next'),
    });
    assert.equal(second.status, 303, second.body);
    assert.equal(second.location, target);
  });

  test('the sign-in link’s steps go where they go whatever the target', async () => {
    const t = get();
    let made = 0;
    for (const [label, next] of HOSTILE) {
      made += 1;
      const { operator, link } = await createOperator(
        t.ctx.db,
        t.ctx.clock,
        { email: `next-${made}-${Date.now()}@slotline.example`, name: 'Nell' },
        ADMIN_CLI,
        null,
      );
      const b = browser(t, freshAddress());
      const welcome = await b.get(withNext(`/operator/welcome?token=${link.token}`, next));
      assert.equal(welcome.status, 200, label);
      const set = await b.post(withNext('/operator/welcome', next), {
        _csrf: hidden(welcome.body, '_csrf'),
        token: link.token,
        password: OPERATOR_PASSWORD,
        confirmation: OPERATOR_PASSWORD,
        next,
      });
      assert.equal(set.status, 303, `${label}: ${set.body}`);
      assert.equal(set.location, '/operator/welcome/authenticator', label);
      const enrolCookie = b.cookies.get('slotline_operator');
      assert.ok(enrolCookie, label);
      assert.equal(await sessions(t, operator.operatorId, 'enrol'), 1, label);

      const enrol = await b.get(withNext('/operator/welcome/authenticator', next));
      assert.equal(enrol.status, 200, label);
      const secret = inputValue(enrol.body, 'manual-key').replace(/\s/g, '');
      const done = await b.post(withNext('/operator/welcome/authenticator', next), {
        _csrf: hidden(enrol.body, '_csrf'),
        code: codeAt(t, secret),
        next,
      });
      // The recovery codes are the answer itself (shown once), not a redirect.
      assert.equal(done.status, 200, `${label}: ${done.body}`);
      assert.match(done.body, /id="recovery-codes"/, label);
      const cookie = b.cookies.get('slotline_operator');
      assert.ok(cookie && cookie !== enrolCookie, label);
      assert.equal(await sessions(t, operator.operatorId, 'full'), 1, label);
      assert.equal(await sessions(t, operator.operatorId, 'enrol'), 0, label);
      assert.equal((await logged(t, operator.operatorId, 'operator.enrolled')).length, 1, label);
      await opens(b);
    }
  });
});
