// Webhook endpoints through the API, and deliveries to a real receiver on 127.0.0.1
// (allowed by REMOTE_FETCH_ALLOW), verified with the `standardwebhooks` package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError, assertInvalidBody } from '../../helpers/api-error.ts';
import { useReceiver, verifyAsSigned } from '../../helpers/webhook-receiver.ts';
import {
  recordAnalyticsUpdated,
  recordEvents,
} from '../../../src/modules/webhooks/webhook-events.service.ts';
import { deliverDue } from '../../../src/dispatch/webhook-loop.ts';
import {
  claimDue,
  fanOut,
  prune,
  settleAttempts,
} from '../../../src/modules/webhooks/webhook-deliveries.service.ts';
import { sendWebhookDelivery } from '../../../src/modules/webhooks/webhook-sender.service.ts';

const START = '2026-03-02T10:00:00.000Z';

describeEachDialect(
  'webhooks',
  (get) => {
    const rx = useReceiver(() => get().clock.set(START));

    async function setup(events: string[] = ['upload.ready']) {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const res = await call('POST', '/v2/webhooks', { url: rx().url, events });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return { t, co, call, hook: res.body as { webhookId: string; secret: string } };
    }

    async function emit(t: TestApp, companyId: string, uploadId = 'upl_1') {
      await recordEvents(
        t.ctx.db,
        [
          {
            companyId,
            type: 'upload.ready',
            data: { uploadId, kind: 'video', status: 'ready', error: null },
          },
        ],
        t.clock.now().toISOString(),
      );
    }

    test('create answers the endpoint with its secret once; get and list omit it', async () => {
      const { call, hook } = await setup(['upload.ready', 'post.item.posted']);
      assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.deepEqual(hook, {
        webhookId: hook.webhookId,
        url: rx().url,
        description: '',
        events: ['upload.ready', 'post.item.posted'],
        status: 'active',
        disabledReason: null,
        failingSince: null,
        lastSuccessAt: null,
        createdAt: START,
        updatedAt: START,
        secret: hook.secret,
      });
      const { secret: _secret, ...shown } = hook;
      assert.deepEqual((await call('GET', `/v2/webhooks/${hook.webhookId}`)).body, shown);
      assert.deepEqual((await call('GET', '/v2/webhooks')).body, {
        data: [shown],
        nextCursor: null,
      });
      const patched = await call('PATCH', `/v2/webhooks/${hook.webhookId}`, {
        events: ['post.created'],
        description: 'orders',
      });
      assert.equal(patched.status, 200);
      assert.deepEqual(patched.body.events, ['post.created']);
      assert.equal(patched.body.description, 'orders');
      assert.equal((await call('DELETE', `/v2/webhooks/${hook.webhookId}`)).status, 204);
      assertApiError(await call('GET', `/v2/webhooks/${hook.webhookId}`), 404, 'webhook_not_found');
    });

    test('bad URLs and event types are refused naming the field', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const bad = [
        'http://example.com/hook',
        'https://10.1.2.3/hook',
        'https://[::1]/hook',
        'https://169.254.169.254/latest',
        'https://0x7f000002/hook',
        'https://user:pw@example.com/hook',
        'ftp://example.com/hook',
        'not a url',
      ];
      // Names that only resolve inside are refused when given, not at the first delivery.
      for (const url of [
        'https://localhost/hook',
        'https://LOCALHOST./hook',
        'https://api.localhost/hook',
        `https://${hostname()}/hook`,
        'https://printer.local/hook',
        'https://metadata.google.internal/x',
      ]) {
        const res = await call('POST', '/v2/webhooks', { url, events: ['upload.ready'] });
        assertInvalidBody(res, '/url');
        assert.match(res.body.error.message, /names this machine|own host name|local network/);
        assert.match(res.body.error.hint, /REMOTE_FETCH_ALLOW/);
      }
      for (const url of bad) {
        assertInvalidBody(
          await call('POST', '/v2/webhooks', { url, events: ['upload.ready'] }),
          '/url',
        );
      }
      for (const events of [[], ['upload.exploded'], ['upload.ready', 'upload.ready']]) {
        assertApiError(
          await call('POST', '/v2/webhooks', { url: 'https://example.com/h', events }),
          400,
          'invalid_request',
          { startsWith: '/events' },
        );
      }
      assertInvalidBody(
        await call('POST', '/v2/webhooks', {
          url: 'https://example.com/h',
          events: ['upload.ready'],
          x: 1,
        }),
        '/x',
      );
    });

    test('at most 20 endpoints per company', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      for (let i = 0; i < 20; i++) {
        const res = await call('POST', '/v2/webhooks', {
          url: `https://example.com/${i}`,
          events: ['upload.ready'],
        });
        assert.equal(res.status, 201);
      }
      assertApiError(
        await call('POST', '/v2/webhooks', {
          url: 'https://example.com/x',
          events: ['upload.ready'],
        }),
        409,
        'webhook_limit_reached',
      );
    });

    test('another company sees none of it', async () => {
      const { t, hook } = await setup();
      const other = client(t, (await seedCompany(t)).key);
      for (const [method, path] of [
        ['GET', ''],
        ['PATCH', ''],
        ['DELETE', ''],
        ['POST', '/disable'],
        ['POST', '/rotate-secret'],
        ['GET', '/attempts'],
        ['GET', '/deliveries'],
      ] as const) {
        const body = method === 'PATCH' ? { description: 'x' } : undefined;
        assertApiError(
          await other(method, `/v2/webhooks/${hook.webhookId}${path}`, body),
          404,
          'webhook_not_found',
        );
      }
      assert.deepEqual((await other('GET', '/v2/webhooks')).body, { data: [], nextCursor: null });
    });

    test('an event is delivered signed, verifiable with standardwebhooks, and logged', async () => {
      const { t, co, call, hook } = await setup();
      await emit(t, co.companyId);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      assert.equal(rx().received.length, 1);
      const got = rx().received[0]!;
      const payload = verifyAsSigned(hook.secret, got);
      assert.deepEqual(payload, {
        type: 'upload.ready',
        timestamp: START,
        data: { uploadId: 'upl_1', kind: 'video', status: 'ready', error: null },
      });
      assert.match(String(got.headers['webhook-id']), /^msg_/);
      assert.equal(got.headers['webhook-timestamp'], String(Date.parse(START) / 1000));
      assert.equal(got.headers['content-type'], 'application/json');
      const log = await call('GET', `/v2/webhooks/${hook.webhookId}/attempts`);
      assert.equal(log.body.data.length, 1);
      assert.deepEqual(
        { ...log.body.data[0], attemptId: 0, deliveryId: 0, durationMs: 0 },
        {
          attemptId: 0,
          deliveryId: 0,
          durationMs: 0,
          eventId: got.headers['webhook-id'],
          eventType: 'upload.ready',
          attempt: 1,
          trigger: 'scheduled',
          startedAt: START,
          outcome: 'succeeded',
          responseStatus: 204,
          responseBody: '',
          error: null,
        },
      );
      const endpoint = await call('GET', `/v2/webhooks/${hook.webhookId}`);
      assert.equal(endpoint.body.lastSuccessAt, START);
      const scraped = await t.metrics!.registry.metrics();
      assert.match(scraped, /slotline_webhook_attempts_total\{outcome="succeeded"\} [1-9]/);
      assert.match(scraped, /slotline_webhook_delivery_lag_seconds_count [1-9]/);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 0 }, 'nothing is sent twice');
    });

    test('only subscribed types go out, and only to the company of the event', async () => {
      const { t, co } = await setup(['post.created']);
      await emit(t, co.companyId);
      const other = await setup(['upload.ready']);
      await emit(t, co.companyId, 'upl_2');
      assert.deepEqual(await deliverDue(t.ctx), { sent: 0 });
      await emit(t, other.co.companyId, 'upl_3');
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      assert.match(rx().received[0]!.body, /upl_3/);
    });

    test('the outbox keeps only events some enabled endpoint of the company wants', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const stored = async () =>
        (
          await t.ctx.db
            .selectFrom('webhook_events')
            .select('type')
            .where('company_id', '=', co.companyId)
            .execute()
        ).map((r) => r.type);
      await emit(t, co.companyId);
      await recordAnalyticsUpdated(t.ctx.db, co.companyId, 'pst_1', START);
      assert.deepEqual(await stored(), [], 'no endpoint: nothing is written');
      const hook = (
        await call('POST', '/v2/webhooks', { url: rx().url, events: ['analytics.updated'] })
      ).body;
      await emit(t, co.companyId);
      assert.deepEqual(await stored(), [], 'a type nobody wants is not written');
      await recordAnalyticsUpdated(t.ctx.db, co.companyId, 'pst_1', START);
      assert.deepEqual(await stored(), ['analytics.updated']);
      await call('POST', `/v2/webhooks/${hook.webhookId}/disable`);
      await recordAnalyticsUpdated(t.ctx.db, co.companyId, 'pst_2', START);
      assert.deepEqual(await stored(), ['analytics.updated'], 'a disabled endpoint wants nothing');
    });

    test('events older than the retention go with their deliveries and log', async () => {
      const { t, co } = await setup();
      await emit(t, co.companyId, 'upl_old');
      await deliverDue(t.ctx);
      t.clock.set('2026-04-02T10:00:00.000Z');
      await emit(t, co.companyId, 'upl_new');
      await deliverDue(t.ctx);
      // Earlier tests' events (other companies) are older too.
      assert.ok((await prune(t.ctx.db, new Date('2026-03-03T10:00:00.000Z'))) >= 1);
      const count = async (table: 'webhook_events' | 'webhook_deliveries' | 'webhook_attempts') =>
        (
          await t.ctx.db
            .selectFrom(table)
            .select('id')
            .where('company_id', '=', co.companyId)
            .execute()
        ).length;
      assert.deepEqual(
        [
          await count('webhook_events'),
          await count('webhook_deliveries'),
          await count('webhook_attempts'),
        ],
        [1, 1, 1],
      );
    });

    test('a failing receiver is retried on the schedule until it recovers', async () => {
      const { t, co, call, hook } = await setup();
      rx().answer = (_req, i) => (i < 2 ? { status: 500, body: 'down '.repeat(400) } : 200);
      await emit(t, co.companyId);
      await deliverDue(t.ctx);
      let endpoint = (await call('GET', `/v2/webhooks/${hook.webhookId}`)).body;
      assert.equal(endpoint.status, 'failing');
      assert.equal(endpoint.failingSince, START);
      let dl = (await call('GET', `/v2/webhooks/${hook.webhookId}/deliveries`)).body.data[0];
      assert.equal(dl.status, 'pending');
      const wait1 = Date.parse(dl.nextAttemptAt) - Date.parse(START);
      assert.ok(wait1 >= 4_500 && wait1 <= 5_500, `first retry after ${wait1} ms`);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 0 }, 'not before it is due');
      t.clock.set(dl.nextAttemptAt);
      await deliverDue(t.ctx);
      dl = (await call('GET', `/v2/webhooks/${hook.webhookId}/deliveries`)).body.data[0];
      const wait2 = Date.parse(dl.nextAttemptAt) - t.clock.now().getTime();
      assert.ok(wait2 >= 270_000 && wait2 <= 330_000, `second retry after ${wait2} ms`);
      t.clock.set(dl.nextAttemptAt);
      await deliverDue(t.ctx);
      dl = (await call('GET', `/v2/webhooks/${hook.webhookId}/deliveries`)).body.data[0];
      assert.equal(dl.status, 'succeeded');
      assert.equal(dl.attempts, 3);
      assert.equal(new Set(rx().received.map((r) => r.headers['webhook-id'])).size, 1);
      endpoint = (await call('GET', `/v2/webhooks/${hook.webhookId}`)).body;
      assert.equal(endpoint.status, 'active');
      const log = (await call('GET', `/v2/webhooks/${hook.webhookId}/attempts`)).body.data;
      assert.deepEqual(
        log.map((a: { attempt: number; outcome: string; responseStatus: number }) => [
          a.attempt,
          a.outcome,
          a.responseStatus,
        ]),
        [
          [3, 'succeeded', 200],
          [2, 'failed', 500],
          [1, 'failed', 500],
        ],
      );
      assert.equal(log[2].responseBody.length, 1024, 'the answer is kept truncated');
    });

    test('after the last scheduled attempt the delivery fails', async () => {
      const { t, co, call, hook } = await setup();
      rx().answer = () => 503;
      await emit(t, co.companyId);
      for (let i = 0; i < 10; i++) {
        await deliverDue(t.ctx);
        const dl = (await call('GET', `/v2/webhooks/${hook.webhookId}/deliveries`)).body.data[0];
        if (i < 9) t.clock.set(dl.nextAttemptAt);
        else assert.equal(dl.status, 'failed');
      }
      assert.equal(rx().received.length, 10);
    });

    test('410 Gone disables the endpoint at once', async () => {
      const { t, co, call, hook } = await setup();
      rx().answer = () => 410;
      await emit(t, co.companyId);
      await emit(t, co.companyId, 'upl_2');
      await deliverDue(t.ctx);
      const endpoint = (await call('GET', `/v2/webhooks/${hook.webhookId}`)).body;
      assert.equal(endpoint.status, 'disabled');
      assert.match(endpoint.disabledReason, /410/);
      await emit(t, co.companyId, 'upl_3');
      t.clock.advance(60_000);
      await deliverDue(t.ctx);
      assert.ok(rx().received.length <= 2);
      const pending = (
        await call('GET', `/v2/webhooks/${hook.webhookId}/deliveries?status=pending`)
      ).body;
      assert.deepEqual(pending.data, []);
    });

    test('an endpoint failing for 5 days with no success is disabled', async () => {
      const { t, co, call, hook } = await setup();
      rx().answer = () => 500;
      await emit(t, co.companyId);
      await deliverDue(t.ctx);
      t.clock.set('2026-03-07T09:59:00.000Z');
      await emit(t, co.companyId, 'upl_2');
      await deliverDue(t.ctx);
      let endpoint = (await call('GET', `/v2/webhooks/${hook.webhookId}`)).body;
      assert.equal(endpoint.status, 'failing', 'just under 5 days');
      t.clock.set('2026-03-07T10:00:00.000Z');
      await emit(t, co.companyId, 'upl_3');
      await deliverDue(t.ctx);
      endpoint = (await call('GET', `/v2/webhooks/${hook.webhookId}`)).body;
      assert.equal(endpoint.status, 'disabled');
      assert.equal(endpoint.disabledReason, `every attempt failed since ${START}`);
      const pending = await call('GET', `/v2/webhooks/${hook.webhookId}/deliveries?status=pending`);
      assert.deepEqual(pending.body.data, []);
    });

    test('after a rotation both secrets sign until the old one expires', async () => {
      const { t, co, call, hook } = await setup();
      const rotated = (await call('POST', `/v2/webhooks/${hook.webhookId}/rotate-secret`)).body;
      assert.notEqual(rotated.secret, hook.secret);
      assert.equal(rotated.previousSecretExpiresAt, '2026-03-03T10:00:00.000Z');
      await emit(t, co.companyId);
      await deliverDue(t.ctx);
      const got = rx().received[0]!;
      assert.equal(String(got.headers['webhook-signature']).split(' ').length, 2);
      verifyAsSigned(hook.secret, got);
      verifyAsSigned(rotated.secret, got);
      assert.throws(() => verifyAsSigned('whsec_' + Buffer.alloc(32, 1).toString('base64'), got));
      t.clock.set('2026-03-03T10:00:01.000Z');
      await emit(t, co.companyId, 'upl_2');
      await deliverDue(t.ctx);
      assert.equal(String(rx().received[1]!.headers['webhook-signature']).split(' ').length, 1);
    });

    test('disable stops deliveries; enable and replay since a time sends them again', async () => {
      const { t, co, call, hook } = await setup();
      rx().answer = () => 500;
      await emit(t, co.companyId);
      await deliverDue(t.ctx);
      const disabled = await call('POST', `/v2/webhooks/${hook.webhookId}/disable`);
      assert.equal(disabled.body.status, 'disabled');
      assertApiError(
        await call('POST', `/v2/webhooks/${hook.webhookId}/replay`, { since: START }),
        400,
        'invalid_request',
      );
      assert.equal(
        (await call('POST', `/v2/webhooks/${hook.webhookId}/enable`)).body.status,
        'active',
      );
      rx().answer = () => 200;
      t.clock.advance(1000);
      const replay = await call('POST', `/v2/webhooks/${hook.webhookId}/replay`, { since: START });
      assert.equal(replay.status, 202);
      assert.deepEqual(replay.body, { replayed: 1, truncated: false });
      await deliverDue(t.ctx);
      assert.equal(rx().received.length, 2);
      assert.equal(
        rx().received[0]!.headers['webhook-id'],
        rx().received[1]!.headers['webhook-id'],
      );
      const log = (await call('GET', `/v2/webhooks/${hook.webhookId}/attempts`)).body.data;
      assert.deepEqual(
        [log[0].trigger, log[0].attempt, log[0].outcome],
        ['replay', 1, 'succeeded'],
      );
    });

    test('replay one event by id; unknown ids and bad bodies are refused', async () => {
      const { t, co, call, hook } = await setup();
      await emit(t, co.companyId);
      await deliverDue(t.ctx);
      const eventId = String(rx().received[0]!.headers['webhook-id']);
      const res = await call('POST', `/v2/webhooks/${hook.webhookId}/replay`, { eventId });
      assert.deepEqual([res.status, res.body], [202, { replayed: 1, truncated: false }]);
      await deliverDue(t.ctx);
      assert.equal(rx().received.length, 2);
      assertApiError(
        await call('POST', `/v2/webhooks/${hook.webhookId}/replay`, { eventId: 'msg_nope' }),
        400,
        'event_not_found',
      );
      assertInvalidBody(
        await call('POST', `/v2/webhooks/${hook.webhookId}/replay`, {}),
        '/eventId',
      );
      assertInvalidBody(
        await call('POST', `/v2/webhooks/${hook.webhookId}/replay`, {
          since: '2025-01-01T00:00:00Z',
        }),
        '/since',
      );
    });

    test('an endpoint deleted during an attempt drops it; the other settles', async () => {
      const { t, co, call, hook } = await setup();
      const second = (
        await call('POST', '/v2/webhooks', { url: rx().url, events: ['upload.ready'] })
      ).body;
      await emit(t, co.companyId);
      const now = t.clock.now();
      await fanOut(t.ctx.db, now);
      const claims = await claimDue(t.ctx, now, 10, new Set(), () => 4);
      assert.equal(claims.length, 2);
      const attempted = await Promise.all(
        claims.map(async (claimed) => ({
          claimed,
          result: await sendWebhookDelivery(t.ctx, claimed),
        })),
      );
      assert.equal((await call('DELETE', `/v2/webhooks/${hook.webhookId}`)).status, 204);
      await settleAttempts(t.ctx, attempted, now);
      const kept = (await call('GET', `/v2/webhooks/${second.webhookId}/deliveries`)).body.data;
      assert.deepEqual(
        kept.map((d: { status: string }) => d.status),
        ['succeeded'],
      );
      const rows = await t.ctx.db
        .selectFrom('webhook_attempts')
        .select('endpoint_id')
        .where('company_id', '=', co.companyId)
        .execute();
      assert.deepEqual(
        rows.map((r) => r.endpoint_id),
        [second.webhookId],
      );
    });

    test('delivery re-checks addresses: a name resolving inside, or a swapped peer, is refused', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const hook = (
        await call('POST', '/v2/webhooks', {
          url: 'https://hooks.example.com/in',
          events: ['upload.ready'],
        })
      ).body;
      await emit(t, co.companyId);
      await deliverDue(t.ctx, { lookup: async () => [{ address: '10.0.0.7', family: 4 }] });
      let log = (await call('GET', `/v2/webhooks/${hook.webhookId}/attempts`)).body.data;
      assert.equal(log[0].outcome, 'failed');
      assert.match(log[0].error, /private, loopback, link-local or reserved/);
      assert.equal(log[0].responseStatus, null);
      // DNS answers a public address, but the socket ends up at loopback.
      const dl = (await call('GET', `/v2/webhooks/${hook.webhookId}/deliveries`)).body.data[0];
      t.clock.set(dl.nextAttemptAt);
      const { connect } = await import('node:net');
      const port = Number(new URL(rx().url).port);
      await deliverDue(t.ctx, {
        lookup: async () => [{ address: '93.184.216.34', family: 4 }],
        connect: () => connect({ host: '127.0.0.1', port }),
      });
      log = (await call('GET', `/v2/webhooks/${hook.webhookId}/attempts`)).body.data;
      assert.equal(log[0].outcome, 'failed');
      assert.match(log[0].error, /private, loopback, link-local or reserved/);
      assert.equal(rx().received.length, 0, 'nothing reached the private address');
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' }, metrics: true },
);

describeEachDialect(
  'webhook endpoints on a local host the operator allows',
  (get) => {
    test('a local name listed in REMOTE_FETCH_ALLOW is accepted, over plain http too', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      for (const url of ['http://localhost:8080/hook', 'https://localhost./hook']) {
        const res = await call('POST', '/v2/webhooks', { url, events: ['upload.ready'] });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      }
      const other = await call('POST', '/v2/webhooks', {
        url: 'https://api.localhost/hook',
        events: ['upload.ready'],
      });
      assertInvalidBody(other, '/url');
    });
  },
  { env: { REMOTE_FETCH_ALLOW: 'localhost' } },
);
