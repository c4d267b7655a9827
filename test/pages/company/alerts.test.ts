// The dashboard's chat alerts pages through HTTP, on both databases: only admins open and
// change them (the settings page links there for admins); the empty state explains them;
// a hook added through the form shows its masked URL and never the URL; refusals stay on
// the form beside their fields; "Send a test" reaches a receiver on 127.0.0.1 as
// {"text": ...}; a receiver answering 410 shows the hook failing; kinds are changed and a
// hook removed after a confirmation; the outbox names the hook; another company's hooks
// answer like unknown ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UserRole } from '../../../src/db/types.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, pageShape, signIn, userIn } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { deliverChat, queueAlert } from '../../helpers/chat-alerts.ts';
import { useReceiver } from '../../helpers/webhook-receiver.ts';

const START = '2026-03-02T10:00:00.000Z';
let ips = 0;

async function signedIn(t: TestApp, companyId: string, role: UserRole) {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const csrf = hidden((await b.get('/dashboard/settings')).body, '_csrf');
  return { b, csrf, email: u.email };
}
type Admin = Awaited<ReturnType<typeof signedIn>>;

/** Adds a hook through the form; answers its id, read from the list's links. */
async function addIn(admin: Admin, label: string, url: string, kinds?: string[]) {
  const res = await admin.b.post('/dashboard/alerts', {
    _csrf: admin.csrf,
    label,
    url,
    kind: kinds ?? ['approval_due', 'task_failed'],
  });
  assert.equal(res.status, 303, res.body);
  assert.equal(res.location, '/dashboard/alerts');
  const list = await admin.b.get('/dashboard/alerts');
  const ids = [...list.body.matchAll(/\/dashboard\/alerts\/(chk_[0-9a-z]+)\/edit/g)].map(
    (m) => m[1] as string,
  );
  const hookId = ids[ids.length - 1];
  assert.ok(hookId);
  return { hookId, list: list.body };
}

describeEachDialect(
  'dashboard chat alerts',
  (get) => {
    const rx = useReceiver(() => get().clock.set(START));
    const send = deliverChat;

    test('only admins open the pages; the settings page links there for them', async () => {
      const t = get();
      const co = await seedCompany(t);
      const admin = await signedIn(t, co.companyId, 'admin');
      const settings = await admin.b.get('/dashboard/settings');
      assert.match(settings.body, /href="\/dashboard\/alerts">Chat alerts<\/a>/);
      const empty = await admin.b.get('/dashboard/alerts');
      assert.equal(empty.status, 200);
      assert.match(empty.body, /<h1>Chat alerts<\/h1>/);
      assert.match(empty.body, /No chat alerts yet/);
      assert.match(empty.body, /Slack, Mattermost or Rocket\.Chat/);
      // The new form ticks every kind but the daily summary.
      assert.match(empty.body, /value="approval_due" checked/);
      assert.match(empty.body, /value="daily_summary">/);
      const { hookId } = await addIn(admin, '#ops', `${rx().url}/ops`);
      for (const role of ['viewer', 'editor'] as const) {
        const who = await signedIn(t, co.companyId, role);
        const page = await who.b.get('/dashboard/settings');
        assert.doesNotMatch(page.body, /href="\/dashboard\/alerts"/);
        assert.match(page.body, /admins choose which alerts/);
        assert.equal((await who.b.get('/dashboard/alerts')).status, 403);
        assert.equal((await who.b.get(`/dashboard/alerts/${hookId}/edit`)).status, 403);
        const form = { _csrf: who.csrf, label: 'x', url: `${rx().url}/x`, kind: 'task_failed' };
        assert.equal((await who.b.post('/dashboard/alerts', form)).status, 403);
        for (const action of ['edit', 'remove', 'test']) {
          const res = await who.b.post(`/dashboard/alerts/${hookId}/${action}`, form);
          assert.equal(res.status, 403, action);
        }
      }
      assert.equal(rx().received.length, 0, 'no test was sent');
      const noCsrf = await admin.b.post(`/dashboard/alerts/${hookId}/remove`, {});
      assert.equal(noCsrf.status, 403);
      assert.match((await admin.b.get('/dashboard/alerts')).body, /#ops/);
    });

    test('add, refusals beside their fields, a test received, 410 shown as failing', async () => {
      const t = get();
      const co = await seedCompany(t, { name: 'Delta Foods' });
      const admin = await signedIn(t, co.companyId, 'admin');
      const refusals: [Record<string, string | string[]>, string, RegExp][] = [
        [{ label: '', url: `${rx().url}/a`, kind: 'task_failed' }, 'alert-label', /Name: required/],
        [
          { label: 'x'.repeat(81), url: `${rx().url}/a`, kind: 'task_failed' },
          'alert-label',
          /at most 80 characters \(this has 81\)/,
        ],
        [{ label: 'a', url: '', kind: 'task_failed' }, 'alert-url', /Webhook URL: required/],
        [
          { label: 'a', url: 'http://hooks.slack.com/services/x', kind: 'task_failed' },
          'alert-url',
          /Webhook URL: must use https/,
        ],
        [
          { label: 'a', url: 'https://10.1.2.3/hooks', kind: 'task_failed' },
          'alert-url',
          /private, loopback/,
        ],
        [{ label: 'a', url: `${rx().url}/a` }, 'alert-kinds', /Alerts: choose at least one/],
        [
          { label: 'a', url: `${rx().url}/a`, kind: 'handoff_unclaimed' },
          'alert-kinds',
          /not a kind this hook may receive/,
        ],
      ];
      for (const [form, id, message] of refusals) {
        const res = await admin.b.post('/dashboard/alerts', { _csrf: admin.csrf, ...form });
        assert.equal(res.status, 400, JSON.stringify(form));
        assert.match(res.body, message);
        assert.match(res.body, new RegExp(`id="${id}-error"`), `${id} shows its error`);
        assert.match(res.body, /class="error-summary"/);
      }
      // Everything wrong at once: each field its own error, what was typed kept.
      const all = await admin.b.post('/dashboard/alerts', {
        _csrf: admin.csrf,
        label: '',
        url: 'ftp://x',
      });
      assert.match(all.body, /3 things to fix/);
      assert.match(all.body, /value="ftp:\/\/x"/);
      assert.doesNotMatch(all.body, /value="approval_due" checked/, 'unticked stays unticked');

      const url = `${rx().url}/services/T1/B1/zzsecretQ7x2`;
      const { hookId, list } = await addIn(admin, '#kitchen on Slack', url, [
        'task_failed',
        'daily_summary',
      ]);
      assert.match(list, /Hook “#kitchen on Slack” added/);
      assert.ok(!list.includes('zzsecret'), 'the URL is never on the page');
      assert.match(list, new RegExp(`<code>${new URL(rx().url).host} …Q7x2</code>`));
      assert.match(list, /Post failed, Daily summary/);
      assert.match(list, /Nothing delivered yet/);

      const tested = await admin.b.post(`/dashboard/alerts/${hookId}/test`, { _csrf: admin.csrf });
      assert.equal(tested.status, 303);
      assert.match((await admin.b.get('/dashboard/alerts')).body, /A test is on its way/);
      const twice = await admin.b.post(`/dashboard/alerts/${hookId}/test`, { _csrf: admin.csrf });
      assert.equal(twice.status, 303);
      assert.match((await admin.b.get('/dashboard/alerts')).body, /less than a minute ago/);
      await send(t);
      assert.equal(rx().received.length, 1);
      const got = rx().received[0];
      assert.equal(got?.path, '/hooks/services/T1/B1/zzsecretQ7x2');
      assert.match(String(got?.headers['content-type']), /^application\/json/);
      assert.deepEqual(JSON.parse(got?.body ?? ''), {
        text: 'Test alert from Slotline for Delta Foods: alerts of kinds Post failed, Daily summary will arrive here.',
      });
      assert.match((await admin.b.get('/dashboard/alerts')).body, /status-active">Delivered/);

      const outbox = await admin.b.get('/dashboard/outbox');
      assert.match(outbox.body, /#kitchen on Slack \(127\.0\.0\.1:\d+ …Q7x2\)/);
      assert.match(outbox.body, /Chat test: Test alert/);
      assert.ok(!outbox.body.includes('zzsecret'));

      rx().answer = () => 410;
      await queueAlert(t, {
        companyId: co.companyId,
        kind: 'task_failed',
        text: 'A post failed',
        dedupeKey: 'f:1',
      });
      await send(t);
      const failing = await admin.b.get('/dashboard/alerts');
      assert.match(failing.body, /Failing: the receiver answered 410/);
      assert.match(failing.body, /No alerts go to it until a test gets through/);

      const activity = await admin.b.get('/dashboard/activity');
      assert.match(activity.body, /Added a chat alert hook/);
      assert.match(activity.body, /Sent a test chat alert/);
      assert.ok(!activity.body.includes('zzsecret'));
    });

    test('kinds changed, a hook removed after confirming, the limit shown', async () => {
      const t = get();
      const co = await seedCompany(t);
      const admin = await signedIn(t, co.companyId, 'admin');
      const { hookId } = await addIn(admin, '#one', `${rx().url}/one`);
      const edit = await admin.b.get(`/dashboard/alerts/${hookId}/edit`);
      assert.equal(edit.status, 200);
      assert.match(edit.body, /value="task_failed" checked/);
      const none = await admin.b.post(`/dashboard/alerts/${hookId}/edit`, {
        _csrf: admin.csrf,
        label: '#one',
      });
      assert.equal(none.status, 400);
      assert.match(none.body, /Alerts: choose at least one/);
      const saved = await admin.b.post(`/dashboard/alerts/${hookId}/edit`, {
        _csrf: admin.csrf,
        label: '#renamed',
        kind: ['account_disconnected', 'approval_missed'],
      });
      assert.equal(saved.status, 303);
      const list = await admin.b.get('/dashboard/alerts');
      assert.match(list.body, /#renamed/);
      assert.match(list.body, /Approval will miss its window, Account disconnected/);

      const confirm = await admin.b.get(`/dashboard/alerts/${hookId}/remove`);
      assert.equal(confirm.status, 200);
      assert.match(confirm.body, /Remove hook “#renamed”\?/);
      const removed = await admin.b.post(`/dashboard/alerts/${hookId}/remove`, {
        _csrf: admin.csrf,
      });
      assert.equal(removed.status, 303);
      const after = await admin.b.get('/dashboard/alerts');
      assert.match(after.body, /Hook “#renamed” removed/);
      assert.match(after.body, /No chat alerts yet/);
      assert.equal((await admin.b.get(`/dashboard/alerts/${hookId}/edit`)).status, 404);

      for (let i = 0; i < 10; i += 1) await addIn(admin, `#h${i}`, `${rx().url}/${i}`);
      const full = await admin.b.get('/dashboard/alerts');
      assert.match(full.body, /has 10 hooks, the most it may have/);
      assert.doesNotMatch(full.body, /Add hook<\/button>/);
      const over = await admin.b.post('/dashboard/alerts', {
        _csrf: admin.csrf,
        label: '#eleven',
        url: `${rx().url}/11`,
        kind: 'task_failed',
      });
      assert.equal(over.status, 409);
      assert.match(over.body, /already 10 chat alert hooks/);
    });

    test('another company’s hooks are not found, and unchanged', async () => {
      const t = get();
      const mine = await seedCompany(t);
      const theirs = await seedCompany(t);
      const me = await signedIn(t, mine.companyId, 'admin');
      const them = await signedIn(t, theirs.companyId, 'admin');
      const { hookId } = await addIn(them, '#theirs', `${rx().url}/theirs`);
      assert.doesNotMatch((await me.b.get('/dashboard/alerts')).body, /#theirs/);
      const tries = (id: string) =>
        Promise.all([
          me.b.get(`/dashboard/alerts/${id}/edit`),
          me.b.get(`/dashboard/alerts/${id}/remove`),
          me.b.post(`/dashboard/alerts/${id}/edit`, {
            _csrf: me.csrf,
            label: 'stolen',
            kind: 'task_failed',
          }),
          me.b.post(`/dashboard/alerts/${id}/edit`, { _csrf: me.csrf, label: '' }),
          me.b.post(`/dashboard/alerts/${id}/test`, { _csrf: me.csrf }),
          me.b.post(`/dashboard/alerts/${id}/remove`, { _csrf: me.csrf }),
        ]);
      const other = await tries(hookId);
      const unknown = await tries('chk_unknown');
      other.forEach((res, i) => {
        assert.equal(res.status, 404, `attempt ${i}`);
        assert.equal(pageShape(res.body), pageShape((unknown[i] as { body: string }).body));
      });
      assert.equal(rx().received.length, 0);
      await send(t);
      assert.equal(rx().received.length, 0, 'no test was written for their hook');
      const list = await them.b.get('/dashboard/alerts');
      assert.match(list.body, /#theirs/);
      assert.doesNotMatch(list.body, /stolen/);
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
