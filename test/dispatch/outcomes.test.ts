// Outcomes, on both databases with a fake clock, a real SMTP server, a stand-in push service
// and a chat receiver: a task its worker reports failed, a claimed task the deadline pass
// marks unconfirmed, an account its worker reports disconnected. Each is told once, in the
// change's transaction: to the company's admins and editors by mail (not viewers, not one
// who unsubscribed from the kind) and push, to the company's hook that chose the kind, and
// for failures and disconnections to the operators by mail and the operator side's hook.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { failOverdueTasks } from '../../src/dispatch/deadlines.ts';
import { addChatHook } from '../../src/modules/alerts/index.ts';
import { optOut } from '../../src/modules/notify/index.ts';
import { ADMIN_CLI } from '../../src/modules/operators/index.ts';
import { saveSubscription } from '../../src/modules/push/index.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { userIn } from '../helpers/dashboard.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { recipients, startMailbox } from '../helpers/mail.ts';
import { enrolledOperator } from '../helpers/operator.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { deliverPushes, startPushService } from '../helpers/push-service.ts';
import { deliverChat } from '../helpers/chat-alerts.ts';
import { useReceiver } from '../helpers/webhook-receiver.ts';

const mailbox = await startMailbox();
const service = await startPushService();
after(async () => {
  await mailbox.close();
  await service.close();
});

const RELEASE = Date.parse('2026-03-10T07:00:30.000Z');

async function pushes(t: TestApp) {
  return (await deliverPushes(t, service)).map(
    (r) => JSON.parse(r.payload) as { title: string; body: string; url: string },
  );
}

describeEachDialect(
  'outcomes',
  (get) => {
    const rx = useReceiver();

    test('failed, unconfirmed and disconnected are told once, to whom they concern', async () => {
      const t = get();
      t.clock.set('2026-03-10T06:30:00.000Z');
      const co = await seedCompany(t, { name: 'Quay Cafe' });
      const call = client(t, co.key);
      const admin = await userIn(t, co.companyId, 'admin', 'ada@quay-out.example');
      const editor = await userIn(t, co.companyId, 'editor', 'ed@quay-out.example');
      await userIn(t, co.companyId, 'viewer', 'vi@quay-out.example');
      const op = await enrolledOperator(t);
      // The editor turned failures off; the admin's phone is subscribed.
      await optOut(
        t.ctx.db,
        { audience: 'user', ownerId: editor.user.userId, kind: 'task_failed' },
        t.clock.now(),
      );
      const phone = service.device();
      await saveSubscription(
        t.ctx.db,
        t.clock.now(),
        { audience: 'user', ownerId: admin.user.userId, companyId: co.companyId },
        { endpoint: phone.endpoint, keys: phone.keys },
      );
      await addChatHook(
        t.ctx,
        { companyId: co.companyId, actor: { id: 'user:x', label: admin.email } },
        { label: '#quay', url: `${rx().url}/company`, kinds: ['task_failed', 'task_unconfirmed'] },
      );
      await addChatHook(
        t.ctx,
        { companyId: null, actor: ADMIN_CLI },
        { label: '#ops', url: `${rx().url}/ops`, kinds: ['task_failed', 'account_disconnected'] },
      );

      const [one, two] = (await makeActiveAccounts(t, call, 2)) as [string, string];
      const worker = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Pia',
        timezone: 'Europe/Berlin',
      });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [one, two]);
      const work = client(t, worker.token);
      const names = new Map<string, string>();
      for (const id of [one, two]) {
        names.set(id, (await call('GET', `/v2/accounts/${id}`)).body.username as string);
      }
      const made = await call('POST', '/v2/posts', {
        media: [await readyUpload(t, call, 'image.png')],
        accountIds: [one, two],
        skipApproval: true,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      t.clock.set(new Date(RELEASE).toISOString());
      assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
      await mailbox.deliver(t);
      await pushes(t);

      const claim = async (accountId: string) => {
        const res = await work('POST', '/worker/v1/tasks/claim', { accountId });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data[0].taskId as string;
      };
      const sendChats = () => deliverChat(t);

      // Failed: the admin (not the editor who opted out) and the operator by mail; the admin's
      // phone; both hooks.
      t.clock.advance(60_000);
      const failedTask = await claim(one);
      const failedBody = { outcome: 'failed', reason: 'Account locked' };
      const failed = await work('POST', `/worker/v1/tasks/${failedTask}/result`, failedBody);
      assert.equal(failed.status, 200, JSON.stringify(failed.body));
      // The same report again changes nothing and tells nobody again.
      await work('POST', `/worker/v1/tasks/${failedTask}/result`, failedBody);
      const failMails = await mailbox.deliver(t);
      assert.deepEqual(failMails.flatMap(recipients).sort(), [admin.email, op.email].sort());
      const u1 = names.get(one) as string;
      for (const m of failMails) {
        assert.equal(m.subject, `Post for @${u1} failed · Quay Cafe`);
        assert.match(m.text ?? '', /“Account locked”/);
        assert.ok(m.headers.get('list'), 'carries List-Unsubscribe');
      }
      const failPush = await pushes(t);
      assert.equal(failPush.length, 1);
      assert.equal(failPush[0]?.title, `Post for @${u1} failed`);
      assert.match(failPush[0]?.url ?? '', /^\/dashboard\/posts\//);
      await sendChats();
      assert.deepEqual(
        rx()
          .received.map((r) => r.path)
          .sort(),
        ['/hooks/company', '/hooks/ops'],
      );
      for (const r of rx().received) {
        assert.match((JSON.parse(r.body) as { text: string }).text, /failed\* \(Quay Cafe/);
      }
      rx().received.length = 0;

      // Unconfirmed: claimed, never reported; the deadline pass tells the company only.
      await claim(two);
      t.clock.set(new Date(RELEASE + 60_000 + t.config.taskReportTimeoutMs + 60_000).toISOString());
      assert.equal((await failOverdueTasks(t.ctx, t.clock.now())).unconfirmed, 1);
      const unconfirmed = await mailbox.deliver(t);
      const u2 = names.get(two) as string;
      assert.deepEqual(unconfirmed.flatMap(recipients).sort(), [admin.email, editor.email]);
      assert.equal(unconfirmed[0]?.subject, `Post for @${u2} not confirmed · Quay Cafe`);
      await sendChats();
      assert.deepEqual(
        rx().received.map((r) => r.path),
        ['/hooks/company'],
      );
      rx().received.length = 0;

      // Disconnected: the company by mail (its hook did not choose the kind), the operators.
      const off = await work('PUT', `/worker/v1/accounts/${two}/status`, {
        status: 'disconnected',
        reason: 'Password changed',
      });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      // Reported again: not a change, told once.
      await work('PUT', `/worker/v1/accounts/${two}/status`, {
        status: 'disconnected',
        reason: 'Password changed',
      });
      const gone = await mailbox.deliver(t);
      assert.deepEqual(
        gone.flatMap(recipients).sort(),
        [admin.email, editor.email, op.email].sort(),
      );
      assert.equal(gone[0]?.subject, `@${u2} disconnected · Quay Cafe`);
      assert.match(gone[0]?.text ?? '', /“Password changed”/);
      await sendChats();
      assert.deepEqual(
        rx().received.map((r) => r.path),
        ['/hooks/ops'],
      );
    });
  },
  { env: { ...mailbox.env, REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
