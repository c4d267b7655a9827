// Web Push end to end against a stand-in push service that checks VAPID and decrypts, on
// both databases: a worker registers devices through the worker API (bad keys refused by
// name, the same endpoint updated, removal by endpoint idempotent); a queued push reaches
// each device encrypted for it, signed for its origin, with its TTL; 404 and 410 remove
// the device; 429 and 5xx are tried again from the outbox; a loopback push service is
// refused unless REMOTE_FETCH_ALLOW admits it; the VAPID keys stay across restarts.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { deliverDueMail } from '../../../src/dispatch/outbox-loop.ts';
import { loadVapidKeys, pushSender, queuePush } from '../../../src/modules/push/index.ts';
import { createWorker } from '../../../src/modules/workers/index.ts';
import { parseAllowList } from '../../../src/media/remote-fetch.ts';
import { client, type TestApp } from '../../helpers/app.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { deviceId, startPushService, type Device } from '../../helpers/push-service.ts';

const service = await startPushService();
after(() => service.close());

function subscriptionOf(device: Device) {
  return { endpoint: device.endpoint, keys: device.keys, expirationTime: null };
}

async function worker(t: TestApp) {
  const w = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Pia', timezone: 'Europe/Berlin' });
  return { ...w, call: client(t, w.token) };
}

async function statusOf(t: TestApp, recipient: string) {
  return t.ctx.db
    .selectFrom('outbox_messages')
    .select(['status', 'attempts', 'last_error', 'due_at'])
    .where('recipient', '=', recipient)
    .where('channel', '=', 'push')
    .execute();
}

function notice(n: number) {
  return {
    title: 'New task',
    body: `New task for @demo.kitchen, window 14:00, report by 16:00 (${n})`,
    url: '/worker/tasks/tsk_1',
    tag: 'task-tsk_1',
  };
}

describeEachDialect(
  'Web Push',
  (get) => {
    const send = (t: TestApp) =>
      deliverDueMail(
        t.ctx,
        pushSender(t.ctx.db, { vapid: t.ctx.vapid, allow: t.config.remoteFetchAllow }),
        'push',
      ).then(() => undefined);

    test('devices through the worker API: checked, updated, removed', async () => {
      const t = get();
      const w = await worker(t);
      const phone = service.device();
      const put = await w.call('PUT', '/worker/v1/push-subscription', subscriptionOf(phone));
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal((put.body as { endpoint: string }).endpoint, phone.endpoint);
      const again = await w.call('PUT', '/worker/v1/push-subscription', subscriptionOf(phone));
      assert.equal(again.status, 200);

      const bad = await w.call('PUT', '/worker/v1/push-subscription', {
        endpoint: phone.endpoint,
        keys: { p256dh: 'AAAA', auth: phone.keys.auth },
      });
      assert.equal(bad.status, 400);
      const err = bad.body as { error: { code: string; message: string; hint: string } };
      assert.equal(err.error.code, 'invalid_request');
      assert.match(err.error.message, /\/keys\/p256dh must be 65 bytes/);
      const ftp = await w.call('PUT', '/worker/v1/push-subscription', {
        ...subscriptionOf(phone),
        endpoint: 'ftp://push.example/x',
      });
      assert.equal(ftp.status, 400);
      assert.match((ftp.body as { error: { message: string } }).error.message, /\/endpoint/);

      const rows = () =>
        t.ctx.db
          .selectFrom('push_subscriptions')
          .select('endpoint')
          .where('owner_id', '=', w.workerId)
          .execute();
      assert.equal((await rows()).length, 1, 'one device, updated');
      const del = await w.call('DELETE', '/worker/v1/push-subscription', {
        endpoint: phone.endpoint,
      });
      assert.equal(del.status, 204);
      assert.equal((await rows()).length, 0);
      const twice = await w.call('DELETE', '/worker/v1/push-subscription', subscriptionOf(phone));
      assert.equal(twice.status, 204);
      const key = await client(t, 'sk_nope')(
        'PUT',
        '/worker/v1/push-subscription',
        subscriptionOf(phone),
      );
      assert.equal(key.status, 401);
    });

    test('a push reaches every device, encrypted for it and signed for its service', async () => {
      const t = get();
      const w = await worker(t);
      const phones = [service.device(), service.device()];
      for (const p of phones) {
        assert.equal(
          (await w.call('PUT', '/worker/v1/push-subscription', subscriptionOf(p))).status,
          200,
        );
      }
      const before = service.received.length;
      const written = await t.ctx.db.transaction().execute((tx) =>
        queuePush(
          tx,
          {
            audience: 'worker',
            ownerIds: [w.workerId],
            companyId: null,
            kind: 'task_released',
            notice: notice(1),
            dedupeKey: 'released:tsk_1',
            ttlSeconds: 7200,
            urgency: 'high',
          },
          t.clock.now(),
        ),
      );
      assert.equal(written, 2);
      const dup = await t.ctx.db.transaction().execute((tx) =>
        queuePush(
          tx,
          {
            audience: 'worker',
            ownerIds: [w.workerId],
            companyId: null,
            kind: 'task_released',
            notice: notice(1),
            dedupeKey: 'released:tsk_1',
            ttlSeconds: 7200,
          },
          t.clock.now(),
        ),
      );
      assert.equal(dup, 0, 'at most one push per key and device');
      await send(t);
      assert.deepEqual(service.problems, []);
      const got = service.received.slice(before);
      assert.deepEqual(got.map((r) => r.deviceId).sort(), phones.map(deviceId).sort());
      for (const r of got) {
        assert.deepEqual(JSON.parse(r.payload), notice(1));
        assert.equal(r.ttl, '7200');
        assert.equal(r.urgency, 'high');
        assert.equal(r.claims.aud, service.origin);
        assert.equal(r.claims.sub, t.ctx.vapid.subject);
      }
    });

    test('404 and 410 remove the device; 429 and 5xx are tried again', async () => {
      const t = get();
      const w = await worker(t);
      const [gone, missing, busy, broken] = [1, 2, 3, 4].map(() => service.device()) as [
        Device,
        Device,
        Device,
        Device,
      ];
      service.answer.set(deviceId(gone), 410);
      service.answer.set(deviceId(missing), 404);
      service.answer.set(deviceId(busy), 429);
      service.answer.set(deviceId(broken), 503);
      for (const d of [gone, missing, busy, broken]) {
        await w.call('PUT', '/worker/v1/push-subscription', subscriptionOf(d));
      }
      const ids = new Map(
        (
          await t.ctx.db
            .selectFrom('push_subscriptions')
            .select(['id', 'endpoint'])
            .where('owner_id', '=', w.workerId)
            .execute()
        ).map((r) => [r.endpoint, r.id]),
      );
      await t.ctx.db.transaction().execute((tx) =>
        queuePush(
          tx,
          {
            audience: 'worker',
            ownerIds: [w.workerId],
            companyId: null,
            kind: 'task_released',
            notice: notice(2),
            dedupeKey: 'released:tsk_2',
            ttlSeconds: 600,
          },
          t.clock.now(),
        ),
      );
      await send(t);
      for (const d of [gone, missing]) {
        const [row] = await statusOf(t, ids.get(d.endpoint) as string);
        assert.equal(row?.status, 'failed');
        assert.match(row?.last_error ?? '', /subscription ended/);
      }
      const left = await t.ctx.db
        .selectFrom('push_subscriptions')
        .select('endpoint')
        .where('owner_id', '=', w.workerId)
        .execute();
      assert.deepEqual(left.map((r) => r.endpoint).sort(), [busy.endpoint, broken.endpoint].sort());
      for (const d of [busy, broken]) {
        const [row] = await statusOf(t, ids.get(d.endpoint) as string);
        assert.equal(row?.status, 'waiting', 'tried again later');
        assert.equal(row?.attempts, 1);
        service.answer.delete(deviceId(d));
      }
      t.clock.advance(60_000);
      await send(t);
      for (const d of [busy, broken]) {
        const [row] = await statusOf(t, ids.get(d.endpoint) as string);
        assert.equal(row?.status, 'sent');
      }
    });

    test('a push service on a private address is refused without REMOTE_FETCH_ALLOW', async () => {
      const t = get();
      const w = await worker(t);
      const phone = service.device();
      await w.call('PUT', '/worker/v1/push-subscription', subscriptionOf(phone));
      await t.ctx.db.transaction().execute((tx) =>
        queuePush(
          tx,
          {
            audience: 'worker',
            ownerIds: [w.workerId],
            companyId: null,
            kind: 'task_released',
            notice: notice(3),
            dedupeKey: 'released:tsk_3',
            ttlSeconds: 600,
          },
          t.clock.now(),
        ),
      );
      const before = service.received.length;
      await deliverDueMail(
        t.ctx,
        pushSender(t.ctx.db, { vapid: t.ctx.vapid, allow: parseAllowList('') }),
        'push',
      );
      assert.equal(service.received.length, before, 'nothing reached the private address');
      const [row] = await t.ctx.db
        .selectFrom('outbox_messages')
        .select(['status', 'last_error'])
        .where('dedupe_key', 'like', 'released:tsk_3:%')
        .execute();
      assert.equal(row?.status, 'failed');
    });

    test('the VAPID keys are made once and kept', async () => {
      const t = get();
      const again = await loadVapidKeys(t.ctx.db, t.ctx.sealer, t.config.push);
      assert.deepEqual(again, t.ctx.vapid);
      assert.equal(Buffer.from(again.publicKey, 'base64url').length, 65);
      const stored = await t.ctx.db
        .selectFrom('server_settings')
        .select('value')
        .where('key', '=', 'vapid_keys')
        .executeTakeFirstOrThrow();
      assert.ok(!stored.value.includes(again.privateKey), 'the private key is sealed');
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
