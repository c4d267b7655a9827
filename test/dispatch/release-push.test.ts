// A released task is pushed to its worker's devices, on both databases: the release pass
// writes one push per device in its transaction (none for a worker without devices, none
// twice for one task), and the push loop delivers it to a stand-in push service that checks
// VAPID and decrypts: "New task for @account, window 09:00, report by 10:00" in the
// worker's time, with the task's page to open; a worker's several tasks of one pass in one
// push per device, naming the accounts and opening the task list. A worker who turned new tasks off gets none;
// one in quiet hours gets it when they end, in their own timezone.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { savePreferences } from '../../src/modules/notify/index.ts';
import { assignAccounts, createWorker } from '../../src/modules/workers/index.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';
import { deliverPushes, deviceId, startPushService } from '../helpers/push-service.ts';

const service = await startPushService();
after(() => service.close());

describeEachDialect(
  'pushes of released tasks',
  (get) => {
    test('a release pushes to each device of the worker, once', async () => {
      const t = get();
      // 07:30 in Berlin (UTC+1): before the 08:00 window.
      t.clock.set('2026-03-05T06:30:00.000Z');
      const call = client(t, (await seedCompany(t)).key);
      const [pushed, quiet] = (await makeActiveAccounts(t, call, 2)) as [string, string];
      const worker = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Pia',
        timezone: 'Europe/Berlin',
      });
      const other = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Ole',
        timezone: 'Europe/Berlin',
      });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [pushed]);
      await assignAccounts(t.ctx.db, t.ctx.clock, other.workerId, [quiet]);
      const phones = [service.device(), service.device()];
      const work = client(t, worker.token);
      for (const p of phones) {
        const res = await work('PUT', '/worker/v1/push-subscription', {
          endpoint: p.endpoint,
          keys: p.keys,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const username = (await call('GET', `/v2/accounts/${pushed}`)).body.username as string;
      const video = await readyUpload(t, call, 'h264-noaudio.mp4');
      const made = await call('POST', '/v2/posts', {
        media: [video],
        accountIds: [pushed, quiet],
        skipApproval: true,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));

      t.clock.set('2026-03-05T07:00:30.000Z');
      assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
      const rows = await t.ctx.db
        .selectFrom('outbox_messages')
        .select(['kind', 'recipient', 'company_id'])
        .where('channel', '=', 'push')
        .where('kind', '=', 'task_released')
        .where('created_at', '=', t.clock.now().toISOString())
        .execute();
      assert.equal(rows.length, 2, 'one per device of the pushed account’s worker, none for Ole');
      await releaseDue(t.ctx, t.clock.now());

      const got = await deliverPushes(t, service);
      assert.deepEqual(got.map((r) => r.deviceId).sort(), phones.map(deviceId).sort());
      const task = (await work('GET', '/worker/v1/tasks')).body.data[0] as { taskId: string };
      for (const r of got) {
        const notice = JSON.parse(r.payload) as { body: string; url: string; title: string };
        // The 08:00 window in Berlin; reported within the task's timeout from the release.
        assert.match(
          notice.body,
          new RegExp(`^New task for @${username}, window 08:00, report by \\d\\d:\\d\\d$`),
        );
        assert.equal(notice.title, `New task for @${username}`);
        assert.equal(notice.url, `/dashboard/worker/tasks/${task.taskId}`);
        assert.equal(r.urgency, 'high');
      }
    });

    test('a worker’s tasks of one pass go in one push per device', async () => {
      const t = get();
      t.clock.set('2026-03-05T06:30:00.000Z');
      const call = client(t, (await seedCompany(t)).key);
      const ids = await makeActiveAccounts(t, call, 4);
      const worker = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Pia',
        timezone: 'Europe/Berlin',
      });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, ids);
      const phone = service.device();
      const work = client(t, worker.token);
      const sub = await work('PUT', '/worker/v1/push-subscription', {
        endpoint: phone.endpoint,
        keys: phone.keys,
      });
      assert.equal(sub.status, 200, JSON.stringify(sub.body));
      const made = await call('POST', '/v2/posts', {
        media: [await readyUpload(t, call, 'image.png')],
        accountIds: ids,
        skipApproval: true,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      t.clock.set('2026-03-05T07:00:30.000Z');
      assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 4);
      const got = await deliverPushes(t, service);
      assert.equal(got.length, 1, 'one push, not one per account');
      const notice = JSON.parse(got[0]?.payload ?? '{}') as {
        title: string;
        body: string;
        url: string;
      };
      assert.equal(notice.title, '4 new tasks');
      assert.match(
        notice.body,
        /^4 new tasks: @\S+, @\S+, @\S+ and 1 more, window 08:00, report by \d\d:\d\d$/,
      );
      assert.equal(notice.url, '/dashboard/worker/tasks');
      // Released once: a second pass writes nothing more.
      await releaseDue(t.ctx, t.clock.now());
      assert.deepEqual(await deliverPushes(t, service), []);
    });

    test('turned off: no push; quiet hours: held until they end', async () => {
      const t = get();
      t.clock.set('2026-03-05T06:30:00.000Z');
      const call = client(t, (await seedCompany(t)).key);
      const [held, off] = (await makeActiveAccounts(t, call, 2)) as [string, string];
      const sleeper = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Pia',
        timezone: 'Europe/Berlin',
      });
      const muted = await createWorker(t.ctx.db, t.ctx.clock, {
        name: 'Ole',
        timezone: 'Europe/Berlin',
      });
      await assignAccounts(t.ctx.db, t.ctx.clock, sleeper.workerId, [held]);
      await assignAccounts(t.ctx.db, t.ctx.clock, muted.workerId, [off]);
      for (const w of [sleeper, muted]) {
        const phone = service.device();
        const res = await client(t, w.token)('PUT', '/worker/v1/push-subscription', {
          endpoint: phone.endpoint,
          keys: phone.keys,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      // Pia is quiet until 08:30 her time; Ole turned new tasks off.
      const now = t.clock.now();
      await savePreferences(
        t.ctx.db,
        'worker',
        sleeper.workerId,
        {
          on: ['task_released:push', 'report_due:push'],
          quiet: { start: '22:00', end: '08:30', timezone: null },
        },
        now,
      );
      await savePreferences(t.ctx.db, 'worker', muted.workerId, { on: [], quiet: null }, now);
      const video = await readyUpload(t, call, 'h264-noaudio.mp4');
      const made = await call('POST', '/v2/posts', {
        media: [video],
        accountIds: [held, off],
        skipApproval: true,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));

      t.clock.set('2026-03-05T07:00:30.000Z'); // 08:00:30 in Berlin
      assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
      const rows = await t.ctx.db
        .selectFrom('outbox_messages')
        .innerJoin('push_subscriptions as s', 's.id', 'outbox_messages.recipient')
        .select(['recipient', 'due_at', 'headers'])
        .where('channel', '=', 'push')
        .where('kind', '=', 'task_released')
        .where('s.owner_id', 'in', [sleeper.workerId, muted.workerId])
        .execute();
      assert.equal(rows.length, 1, 'Pia’s push only');
      assert.equal(rows[0]?.due_at, '2026-03-05T07:30:00.000Z');
      const ttl = Number((JSON.parse(rows[0]?.headers ?? '{}') as { TTL: string }).TTL);
      const reportBy = Date.parse('2026-03-05T07:00:30.000Z') + t.config.taskReportTimeoutMs;
      assert.equal(ttl, Math.round((reportBy - Date.parse('2026-03-05T07:30:00.000Z')) / 1000));
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
