// Hostile `next` targets (control characters, line separators, other sites, backslashes,
// encoded line breaks, dot segments, overlong) through every way into the dashboard and the
// workers' app, on both databases: the password sign-in, an invitation's welcome page, the
// worker token and the worker's sign-in link. Each answers the redirect to the app's default
// page with its session cookie, and writes one session (and one log entry where the flow
// keeps one), the target sent in the address and in the form alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestApp } from '../../helpers/app.ts';
import { seedCompany } from '../../helpers/app.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { browser, hidden, userIn } from '../../helpers/dashboard.ts';
import { hostileTargets, withNext } from '../../helpers/next-targets.ts';
import { freshAddress } from '../../helpers/operator.ts';
import { OPERATOR } from '../../../src/modules/activity/index.ts';
import { inviteUser } from '../../../src/modules/users/index.ts';
import { createWorker, createWorkerSignInLink } from '../../../src/modules/workers/index.ts';

const INBOX = '/dashboard/approvals';
const TASKS = '/dashboard/worker/tasks';
let invited = 0;

async function count(
  t: TestApp,
  table: 'sessions' | 'worker_sessions',
  column: 'user_id' | 'worker_id',
  id: string,
): Promise<number> {
  const row = await t.ctx.db
    .selectFrom(table)
    .select((e) => e.fn.countAll().as('n'))
    .where(column, '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function activity(t: TestApp, target: string, action: string): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('activity_log')
    .select((e) => e.fn.countAll().as('n'))
    .where('target', '=', target)
    .where('action', '=', action)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDialect('dashboard sign-in next targets', (get) => {
  test('the password sign-in goes to the inbox whatever the target, signed in once', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    for (const [label, next] of hostileTargets('/dashboard')) {
      const b = browser(t, freshAddress());
      const form = await b.get(withNext('/dashboard/sign-in', next));
      assert.equal(form.status, 200, label);
      // Checked as it is read: the form carries the default page, not the target.
      assert.equal(hidden(form.body, 'next'), INBOX, label);
      const before = await count(t, 'sessions', 'user_id', u.user.userId);
      const res = await b.post('/dashboard/sign-in', {
        _csrf: hidden(form.body, '_csrf'),
        email: u.email,
        password: u.password,
        next,
      });
      assert.equal(res.status, 303, `${label}: ${res.body}`);
      assert.equal(res.location, INBOX, label);
      assert.ok(b.cookies.get('slotline_session'), label);
      assert.equal((await count(t, 'sessions', 'user_id', u.user.userId)) - before, 1, label);
      assert.equal((await b.get(INBOX)).status, 200, label);
    }
  });

  test('a safe target of the dashboard is kept, through the sign-in form', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    const b = browser(t, freshAddress());
    const target = '/dashboard/posts?status=failed';
    const out = await b.get(target);
    assert.equal(out.location, withNext('/dashboard/sign-in', target));
    const form = await b.get(out.location ?? '');
    assert.equal(hidden(form.body, 'next'), target);
    const res = await b.post('/dashboard/sign-in', {
      _csrf: hidden(form.body, '_csrf'),
      email: u.email,
      password: u.password,
      next: hidden(form.body, 'next'),
    });
    assert.equal(res.status, 303);
    assert.equal(res.location, target);
  });

  test('an invitation’s welcome page goes to the inbox whatever the target', async () => {
    const t = get();
    const co = await seedCompany(t);
    const password = 'a long welcome passphrase';
    for (const [label, next] of hostileTargets('/dashboard')) {
      const { user, link } = await inviteUser(
        t.ctx.db,
        t.ctx.clock,
        { companyId: co.companyId, email: `welcome-next-${++invited}@example.com`, role: 'viewer' },
        OPERATOR,
        null,
      );
      const b = browser(t, freshAddress());
      const welcome = await b.get(withNext(`/dashboard/welcome?token=${link.token}`, next));
      assert.equal(welcome.status, 200, label);
      const res = await b.post(withNext('/dashboard/welcome', next), {
        _csrf: hidden(welcome.body, '_csrf'),
        token: link.token,
        password,
        confirmation: password,
        next,
      });
      assert.equal(res.status, 303, `${label}: ${res.body}`);
      assert.equal(res.location, INBOX, label);
      assert.ok(b.cookies.get('slotline_session'), label);
      assert.equal(await count(t, 'sessions', 'user_id', user.userId), 1, label);
      assert.equal(await activity(t, user.userId, 'user.password_set'), 1, label);
      assert.equal((await b.get(INBOX)).status, 200, label);
    }
  });

  test('the worker token and the worker’s sign-in link go to the tasks whatever the target', async () => {
    const t = get();
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Nia', timezone: 'UTC' });
    const sessions = () => count(t, 'worker_sessions', 'worker_id', worker.workerId);
    for (const [label, next] of hostileTargets('/dashboard/worker')) {
      const b = browser(t, freshAddress());
      const form = await b.get(withNext('/dashboard/worker/sign-in', next));
      assert.equal(form.status, 200, label);
      const before = await sessions();
      const res = await b.post(withNext('/dashboard/worker/sign-in', next), {
        _csrf: hidden(form.body, '_csrf'),
        token: worker.token,
        next,
      });
      assert.equal(res.status, 303, `${label}: ${res.body}`);
      assert.equal(res.location, TASKS, label);
      assert.ok(b.cookies.get('slotline_worker_session'), label);
      assert.equal((await sessions()) - before, 1, label);

      const { url } = await createWorkerSignInLink(t.ctx.db, t.ctx.clock, worker.workerId, '');
      const token = new URL(url, 'http://x').searchParams.get('token') as string;
      const phone = browser(t, freshAddress());
      const page = await phone.get(withNext(url, next));
      assert.equal(page.status, 200, label);
      const linked = await sessions();
      const byLink = await phone.post(withNext('/dashboard/worker/link', next), {
        _csrf: hidden(page.body, '_csrf'),
        token,
        next,
      });
      assert.equal(byLink.status, 303, `${label}: ${byLink.body}`);
      assert.equal(byLink.location, TASKS, label);
      assert.ok(phone.cookies.get('slotline_worker_session'), label);
      assert.equal((await sessions()) - linked, 1, label);
      assert.equal((await phone.get(TASKS)).status, 200, label);
    }
  });
});
