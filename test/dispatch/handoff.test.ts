// Hand-off confirmed, on both databases with a fake clock, a real SMTP server, a stand-in
// push service and a chat receiver: a released task not claimed within the hand-off time is
// pushed to its worker again, mailed to the operators and posted to the operator side's chat
// hook that chose the kind, each once however many passes run, and the console's board says
// how long it waits; once claimed, its worker is reminded once when the report deadline is
// within the reminder time.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkHandoffs, HANDOFF_PASS_MS } from '../../src/dispatch/handoff.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { dispatchPass } from '../../src/dispatch/loop.ts';
import { addChatHook } from '../../src/modules/alerts/index.ts';
import { ADMIN_CLI } from '../../src/modules/operators/index.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { recipients, startMailbox } from '../helpers/mail.ts';
import { enrolledOperator, operatorSignIn } from '../helpers/operator.ts';
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

const RELEASE = Date.parse('2026-03-05T07:00:30.000Z');

function at(t: TestApp, ms: number): Date {
  t.clock.set(new Date(ms).toISOString());
  return t.clock.now();
}

async function pushes(t: TestApp) {
  return (await deliverPushes(t, service)).map(
    (r) => JSON.parse(r.payload) as { title: string; body: string; url: string },
  );
}

describeEachDialect(
  'hand-off confirmed',
  (get) => {
    const rx = useReceiver();

    test('an unclaimed task is pushed again and told to the operator side, once', async () => {
      const t = get();
      t.clock.set('2026-03-05T06:30:00.000Z');
      const co = await seedCompany(t, { name: 'Harbour Deli' });
      const call = client(t, co.key);
      const [accountId] = (await makeActiveAccounts(t, call, 1)) as [string];
      const worker = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Pia',
        timezone: 'Europe/Berlin',
      });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [accountId]);
      const work = client(t, worker.token);
      const phone = service.device();
      const sub = await work('PUT', '/worker/v1/push-subscription', {
        endpoint: phone.endpoint,
        keys: phone.keys,
      });
      assert.equal(sub.status, 200, JSON.stringify(sub.body));
      const op = await enrolledOperator(t);
      await addChatHook(
        t.ctx,
        { companyId: null, actor: ADMIN_CLI },
        { label: '#ops', url: `${rx().url}/ops`, kinds: ['handoff_unclaimed'] },
      );
      const username = (await call('GET', `/v2/accounts/${accountId}`)).body.username as string;
      const made = await call('POST', '/v2/posts', {
        media: [await readyUpload(t, call, 'image.png')],
        accountIds: [accountId],
        skipApproval: true,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal((await releaseDue(t.ctx, at(t, RELEASE))).released, 1);
      await pushes(t); // the release's own push
      await mailbox.deliver(t);

      // 14 minutes after the release: nothing yet.
      assert.deepEqual(await checkHandoffs(t.ctx, at(t, RELEASE + 14 * 60_000)), {
        unclaimed: 0,
        reportDue: 0,
      });
      // 16 minutes: pushed again, the operators mailed, the hook posted; once.
      assert.deepEqual(await checkHandoffs(t.ctx, at(t, RELEASE + 16 * 60_000)), {
        unclaimed: 1,
        reportDue: 0,
      });
      assert.deepEqual(await checkHandoffs(t.ctx, at(t, RELEASE + 17 * 60_000)), {
        unclaimed: 0,
        reportDue: 0,
      });
      const again = await pushes(t);
      assert.equal(again.length, 1);
      const task = (await work('GET', '/worker/v1/tasks')).body.data[0] as { taskId: string };
      assert.equal(again[0]?.title, `Task for @${username} waits`);
      assert.match(again[0]?.body ?? '', /is not claimed yet: claim it, report by \d\d:\d\d$/);
      assert.equal(again[0]?.url, `/dashboard/worker/tasks/${task.taskId}`);
      const mails = await mailbox.deliver(t);
      assert.deepEqual(mails.flatMap(recipients), [op.email]);
      assert.equal(
        mails[0]?.subject,
        `Task for @${username} not claimed for 16 min · Harbour Deli`,
      );
      assert.match(mails[0]?.text ?? '', /http:\/\/slotline\.test\/operator\/board/);
      // The operator's one-click unsubscribe (RFC 8058) stops this kind of mail.
      const list = mails[0]?.headers.get('list') as { unsubscribe?: { url?: string } };
      const stop = new URL(list.unsubscribe?.url ?? '');
      assert.equal(stop.pathname, `/operator/unsubscribe/handoff_unclaimed/${op.operatorId}`);
      const oneClick = await t.app.inject({
        method: 'POST',
        url: `${stop.pathname}${stop.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(oneClick.statusCode, 200, oneClick.body);
      assert.match(oneClick.body, /Emails stopped/);
      await deliverChat(t);
      assert.equal(rx().received.length, 1);
      const chat = JSON.parse(rx().received[0]?.body ?? '{}') as { text: string };
      assert.match(chat.text, new RegExp(`Task for @${username} not claimed for 16 min`));

      // The console's board says how long it waits.
      const b = await operatorSignIn(t, op);
      const board = await b.get('/operator/board');
      assert.equal(board.status, 200);
      assert.match(board.body, /Not claimed for 17 min/);

      // Claimed at +20 min: its report is due 2 hours later; reminded 30 minutes before, once.
      at(t, RELEASE + 20 * 60_000);
      const claimed = await work('POST', '/worker/v1/tasks/claim', { accountId });
      assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
      const due = RELEASE + 20 * 60_000 + t.config.taskReportTimeoutMs;
      assert.deepEqual(await checkHandoffs(t.ctx, at(t, due - 31 * 60_000)), {
        unclaimed: 0,
        reportDue: 0,
      });
      assert.deepEqual(await checkHandoffs(t.ctx, at(t, due - 29 * 60_000)), {
        unclaimed: 0,
        reportDue: 1,
      });
      assert.deepEqual(await checkHandoffs(t.ctx, at(t, due - 10 * 60_000)), {
        unclaimed: 0,
        reportDue: 0,
      });
      const reminders = await pushes(t);
      assert.equal(reminders.length, 1);
      assert.match(reminders[0]?.body ?? '', new RegExp(`^Report the task for @${username} by`));
      const urgency = await t.ctx.db
        .selectFrom('outbox_messages')
        .select('headers')
        .where('kind', '=', 'report_due')
        .executeTakeFirstOrThrow();
      assert.match(urgency.headers ?? '', /"Urgency":"high"/);
    });

    test('the dispatcher runs the pass at most once a minute', async () => {
      const t = get();
      t.clock.set('2026-03-06T00:30:00.000Z');
      assert.notEqual((await dispatchPass(t.ctx, t.clock.now())).handoffs, null);
      const soon = new Date(t.clock.now().getTime() + 5_000);
      assert.equal((await dispatchPass(t.ctx, soon)).handoffs, null);
      const later = new Date(t.clock.now().getTime() + HANDOFF_PASS_MS + 1);
      assert.notEqual((await dispatchPass(t.ctx, later)).handoffs, null);
    });
  },
  { env: { ...mailbox.env, REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
