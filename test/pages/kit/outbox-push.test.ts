// Phone pushes on the outbox pages through HTTP, on both databases, sent to a stand-in push
// service: left out of the default view and shown under "Phone push" and "All channels";
// each names its owner (a worker by name, a company user by email) and its device by the
// push service's host, never an id or the endpoint; delivered, waiting after a 429, failed
// once a 410 ended the subscription (still named after the device is gone). A company's
// admin sees only its own company's pushes; the console sees every one. An unknown channel
// is ignored, like an unknown status.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { deliverDueMail } from '../../../src/dispatch/outbox-loop.ts';
import { enqueueMail } from '../../../src/modules/outbox/index.ts';
import { pushSender, queuePush, saveSubscription } from '../../../src/modules/push/index.ts';
import { createWorker } from '../../../src/modules/workers/index.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, signIn, userIn } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { enrolledOperator, freshAddress } from '../../helpers/operator.ts';
import { deviceId, startPushService, type Device } from '../../helpers/push-service.ts';

const service = await startPushService();
after(() => service.close());

function rowsOf(body: string): string[] {
  return [...body.matchAll(/<tr data-status="(\w+)">([\s\S]*?)<\/tr>/g)].map(
    (m) => `${m[1]}: ${(m[2] as string).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')}`,
  );
}

function subscriptionOf(device: { endpoint: string; keys: Device['keys'] }) {
  return { endpoint: device.endpoint, keys: device.keys, expirationTime: null };
}

function notice(title: string) {
  return { title, body: title, url: '/dashboard/worker/tasks/tsk_1', tag: title };
}

describeEachDialect(
  'phone pushes on the outbox pages',
  (get) => {
    test('pushes name their owner and device, by company, in their own view', async () => {
      const t: TestApp = get();
      const now = t.clock.now();
      const a = await seedCompany(t, { name: 'Push A' });
      const b = await seedCompany(t, { name: 'Push B' });
      const admin = await userIn(t, a.companyId, 'admin');
      const adminB = await userIn(t, b.companyId, 'admin');
      const approver = await userIn(t, a.companyId, 'editor', 'ann.approver@a.example');
      const sam = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Sam Reyes',
        timezone: 'Europe/Berlin',
      });
      const bo = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Bo Elsewhere',
        timezone: 'Europe/Berlin',
      });
      const samPhone = service.device();
      const samOld = service.device();
      const samBusy = service.device();
      const boPhone = service.device();
      for (const d of [samPhone, samOld, samBusy]) {
        await saveSubscription(
          t.ctx.db,
          now,
          { audience: 'worker', ownerId: sam.workerId, companyId: null },
          subscriptionOf(d),
        );
      }
      await saveSubscription(
        t.ctx.db,
        now,
        { audience: 'worker', ownerId: bo.workerId, companyId: null },
        subscriptionOf(boPhone),
      );
      service.answer.set(deviceId(samOld), 410);
      service.answer.set(deviceId(samBusy), 429);
      const push = (ownerId: string, companyId: string, title: string, at: Date) =>
        queuePush(
          t.ctx.db,
          {
            audience: 'worker',
            ownerIds: [ownerId],
            companyId,
            kind: 'task_released',
            notice: notice(title),
            dedupeKey: `outbox-page:${title}`,
            ttlSeconds: 600,
          },
          at,
        );
      assert.equal(await push(sam.workerId, a.companyId, 'New task for @a.kitchen', now), 3);
      assert.equal(await push(bo.workerId, b.companyId, 'New task for @b.secret', now), 1);
      await deliverDueMail(
        t.ctx,
        pushSender(t.ctx.db, { vapid: t.ctx.vapid, allow: t.config.remoteFetchAllow }),
        'push',
      );
      // A company user's device on a real push service, left waiting: only its host shows.
      const later = new Date(now.getTime() + 1000);
      await saveSubscription(
        t.ctx.db,
        later,
        { audience: 'user', ownerId: approver.user.userId, companyId: a.companyId },
        subscriptionOf({
          endpoint: 'https://fcm.googleapis.com/fcm/send/capability-token-123',
          keys: samPhone.keys,
        }),
      );
      await queuePush(
        t.ctx.db,
        {
          audience: 'user',
          ownerIds: [approver.user.userId],
          companyId: a.companyId,
          kind: 'approval_due',
          notice: notice('2 posts wait for approval'),
          dedupeKey: 'outbox-page:approval',
          ttlSeconds: 600,
        },
        later,
      );
      await enqueueMail(
        t.ctx.db,
        { companyId: a.companyId, kind: 'invite', to: 'mail@a.example', subject: 'Hi', text: 'b' },
        later,
      );

      const ba = browser(t, freshAddress());
      assert.equal((await signIn(ba, admin.email, admin.password)).status, 303);
      const plain = await ba.get('/dashboard/outbox');
      assert.equal(plain.status, 200);
      assert.match(plain.body, /aria-current="page">Mail and chat</);
      const plainRows = rowsOf(plain.body);
      assert.ok(plainRows.some((r) => /mail@a\.example/.test(r)));
      assert.ok(!plainRows.some((r) => /Phone push/.test(r)), 'no push in the default view');

      const pushes = await ba.get('/dashboard/outbox?channel=push');
      assert.equal(pushes.status, 200);
      assert.match(pushes.body, /aria-current="page">Phone push</);
      const rows = rowsOf(pushes.body);
      assert.equal(rows.length, 4, rows.join('\n'));
      assert.match(
        rows[0] ?? '',
        /^waiting: .*ann\.approver@a\.example, device at fcm\.googleapis\.com .*Phone push, approvals due soon: 2 posts wait for approval .*Waiting to be sent/,
      );
      const host = new URL(service.origin).host.replace(/\./g, '\\.');
      const sams = rows.slice(1);
      assert.ok(sams.every((r) => new RegExp(`Sam Reyes, device at ${host}`).test(r)));
      assert.ok(sams.every((r) => /Phone push, new task: New task for @a\.kitchen/.test(r)));
      assert.equal(sams.filter((r) => /^sent: .*Delivered/.test(r)).length, 1);
      assert.equal(
        sams.filter((r) => /^failed: .*Failed after 1 try: .*410: the subscription ended/.test(r))
          .length,
        1,
        'named after the 410 removed the device',
      );
      assert.equal(
        sams.filter((r) => /^waiting: .*Waiting after 1 try \(.*429\); next try/.test(r)).length,
        1,
      );
      for (const body of [plain.body, pushes.body]) {
        assert.doesNotMatch(body, /capability-token|\/push\/[0-9a-f]{16}/, 'no endpoint');
        assert.doesNotMatch(body, /psh_|wrk_|usr_/, 'no ids');
        assert.doesNotMatch(body, /Bo Elsewhere|@b\.secret/, 'no other company’s push');
      }
      const failed = rowsOf((await ba.get('/dashboard/outbox?channel=push&status=failed')).body);
      assert.equal(failed.length, 1);
      const everything = await ba.get('/dashboard/outbox?channel=all');
      assert.equal(rowsOf(everything.body).length, 5);
      assert.match(everything.body, /href="\/dashboard\/outbox\?channel=all&amp;status=sent"/);
      const chat = await ba.get('/dashboard/outbox?channel=chat');
      assert.match(chat.body, /No chat alert has been written yet/);
      const unknown = await ba.get('/dashboard/outbox?channel=fax');
      assert.equal(unknown.status, 200, 'an unknown channel is ignored');
      assert.deepEqual(rowsOf(unknown.body), plainRows);

      const bb = browser(t, freshAddress());
      assert.equal((await signIn(bb, adminB.email, adminB.password)).status, 303);
      const other = rowsOf((await bb.get('/dashboard/outbox?channel=push')).body);
      assert.equal(other.length, 1);
      assert.match(other[0] ?? '', /Bo Elsewhere, device at/);

      const op = await enrolledOperator(t, 'Olga');
      const all = await op.browser.get('/operator/outbox?channel=push');
      assert.equal(all.status, 200);
      const seen = rowsOf(all.body);
      assert.ok(seen.some((r) => /Bo Elsewhere, device at .*Push B/.test(r)));
      assert.ok(seen.some((r) => /Sam Reyes, device at .*Push A/.test(r)));
      assert.ok(
        seen.some((r) => /ann\.approver@a\.example, device at fcm\.googleapis\.com/.test(r)),
      );
      assert.doesNotMatch(all.body, /capability-token|psh_|wrk_/);
      const opDefault = rowsOf((await op.browser.get('/operator/outbox')).body);
      assert.ok(!opDefault.some((r) => /Phone push/.test(r)));
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
