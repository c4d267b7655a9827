// The console's chat alerts page through HTTP, on both databases: the operator side's hooks
// (never a company's), in the navigation; the empty state; a hook added with the operator
// kinds, refusals beside their fields, a test received on 127.0.0.1 as {"text": ...},
// kinds changed, the hook removed after a confirmation; each change in the operator log;
// the outbox names the hook; a company's hook answers like an unknown one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addChatHook } from '../../../src/modules/alerts/index.ts';
import { seedCompany } from '../../helpers/app.ts';
import { hidden, pageShape } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { enrolledOperator } from '../../helpers/operator.ts';
import { deliverChat } from '../../helpers/chat-alerts.ts';
import { useReceiver } from '../../helpers/webhook-receiver.ts';

const START = '2026-03-02T10:00:00.000Z';

describeEachDialect(
  'console chat alerts',
  (get) => {
    const rx = useReceiver(() => get().clock.set(START));
    const send = deliverChat;

    test('the operator side’s hooks: add, refuse, test, edit, remove, logged', async () => {
      const t = get();
      const op = await enrolledOperator(t, 'Rita');
      const b = op.browser;
      const empty = await b.get('/operator/alerts');
      assert.equal(empty.status, 200);
      assert.match(empty.body, /aria-current="page">Chat alerts<\/a>/);
      assert.match(empty.body, /No chat alerts for the operator side yet/);
      assert.match(empty.body, /value="handoff_unclaimed" checked/);
      assert.doesNotMatch(
        empty.body,
        /daily_summary|approval_due/,
        'company kinds are not offered',
      );
      const csrf = hidden(empty.body, '_csrf');

      const refused = await b.post('/operator/alerts', {
        _csrf: csrf,
        label: '',
        url: 'http://hooks.slack.com/x',
        kind: 'approval_due',
      });
      assert.equal(refused.status, 400);
      assert.match(refused.body, /3 things to fix/);
      assert.match(refused.body, /id="alert-label-error">Name: required/);
      assert.match(refused.body, /id="alert-url-error">Webhook URL: must use https/);
      assert.match(refused.body, /id="alert-kinds-error">Alerts: “approval_due” is not a kind/);

      const url = `${rx().url}/staff/secretOps42`;
      const added = await b.post('/operator/alerts', {
        _csrf: csrf,
        label: '#staff',
        url,
        kind: ['handoff_unclaimed', 'task_failed'],
      });
      assert.equal(added.status, 303, added.body);
      const list = await b.get('/operator/alerts');
      assert.match(list.body, /Hook “#staff” added/);
      assert.match(list.body, /Task not claimed, Post failed/);
      assert.ok(!list.body.includes('secretOps42'));
      assert.match(list.body, /…ps42<\/code>/);
      const hookId = /\/operator\/alerts\/(chk_[0-9a-z]+)\/edit/.exec(list.body)?.[1];
      assert.ok(hookId);

      assert.equal((await b.post(`/operator/alerts/${hookId}/test`, { _csrf: csrf })).status, 303);
      await send(t);
      assert.equal(rx().received.length, 1);
      assert.deepEqual(JSON.parse(rx().received[0]?.body ?? ''), {
        text: 'Test alert from Slotline for the operator side: alerts of kinds Task not claimed, Post failed will arrive here.',
      });
      const outbox = await b.get('/operator/outbox');
      assert.match(outbox.body, /#staff \(127\.0\.0\.1:\d+ …ps42\)/);
      assert.match(outbox.body, /Operator side/);

      const edit = await b.get(`/operator/alerts/${hookId}/edit`);
      assert.equal(edit.status, 200);
      const saved = await b.post(`/operator/alerts/${hookId}/edit`, {
        _csrf: csrf,
        label: '#staff',
        kind: 'account_disconnected',
      });
      assert.equal(saved.status, 303);
      assert.match((await b.get('/operator/alerts')).body, /it receives Account disconnected/);
      const confirm = await b.get(`/operator/alerts/${hookId}/remove`);
      assert.match(confirm.body, /Remove hook “#staff”\?/);
      assert.equal(
        (await b.post(`/operator/alerts/${hookId}/remove`, { _csrf: csrf })).status,
        303,
      );
      assert.match((await b.get('/operator/alerts')).body, /No chat alerts for the operator side/);

      const log = await b.get('/operator/log');
      for (const line of [
        /Added the chat alert hook “#staff”/,
        /Sent a test to the chat alert hook “#staff”/,
        /Changed the chat alert hook “#staff” \([^)]*\): it receives Account disconnected/,
        /Removed the chat alert hook “#staff”/,
      ]) {
        assert.match(log.body, line);
      }
      assert.ok(!log.body.includes('secretOps42'));
    });

    test('a company’s hook is not the console’s: not found, unchanged', async () => {
      const t = get();
      const co = await seedCompany(t);
      const hook = await addChatHook(
        t.ctx,
        { companyId: co.companyId, actor: { id: 'user:usr_x', label: 'a@example.com' } },
        { label: '#company', url: `${rx().url}/company` },
      );
      const op = await enrolledOperator(t, 'Uli');
      const page = await op.browser.get('/operator/alerts');
      assert.doesNotMatch(page.body, /#company/);
      const csrf = hidden(page.body, '_csrf');
      const tries = (id: string) =>
        Promise.all([
          op.browser.get(`/operator/alerts/${id}/edit`),
          op.browser.get(`/operator/alerts/${id}/remove`),
          op.browser.post(`/operator/alerts/${id}/edit`, {
            _csrf: csrf,
            label: 'x',
            kind: 'task_failed',
          }),
          op.browser.post(`/operator/alerts/${id}/test`, { _csrf: csrf }),
          op.browser.post(`/operator/alerts/${id}/remove`, { _csrf: csrf }),
        ]);
      const theirs = await tries(hook.hookId);
      const unknown = await tries('chk_unknown');
      theirs.forEach((res, i) => {
        assert.equal(res.status, 404, `attempt ${i}`);
        assert.equal(pageShape(res.body), pageShape((unknown[i] as { body: string }).body));
      });
      const row = await t.ctx.db
        .selectFrom('chat_hooks')
        .select(['label', 'kinds'])
        .where('id', '=', hook.hookId)
        .executeTakeFirstOrThrow();
      assert.equal(row.label, '#company');
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
