// POST /v2/webhooks/{webhookId}/test on both databases: a `webhook.test` event for that
// endpoint only (whatever types it chose, never another endpoint's), delivered signed to a
// real receiver on 127.0.0.1 and logged; scopes, another company's and unknown ids, a
// disabled endpoint and the per-minute cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Value from 'typebox/value';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { useReceiver, verifyAsSigned, type Received } from '../../helpers/webhook-receiver.ts';
import { deliverDue } from '../../../src/dispatch/webhook-loop.ts';
import { WEBHOOK_EVENTS } from '../../../src/modules/webhooks/event-catalog.rules.ts';
import { recordEvents } from '../../../src/modules/webhooks/webhook-events.service.ts';
import { TEST_EVENT_MESSAGE } from '../../../src/modules/webhooks/webhook-test.service.ts';

const START = '2026-03-02T10:00:00.000Z';

describeEachDialect(
  'webhook test events',
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

    test('202 with the event and delivery; delivered signed to that endpoint only', async () => {
      const { t, co, call, hook } = await setup(['post.item.posted']);
      // A second endpoint of the company subscribed to everything gets nothing.
      const other = await call('POST', '/v2/webhooks', {
        url: `${rx().url}/other`,
        events: ['upload.ready', 'post.created'],
      });
      assert.equal(other.status, 201);

      const res = await call('POST', `/v2/webhooks/${hook.webhookId}/test`);
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ['deliveryId', 'eventId']);
      assert.match(res.body.eventId, /^msg_/);
      assert.match(res.body.deliveryId, /^dlv_/);

      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      assert.equal(rx().received.length, 1);
      const got = rx().received[0];
      assert.ok(got);
      assert.equal(got.path, '/hooks');
      assert.equal(got.headers['webhook-id'], res.body.eventId);
      const payload = verifyAsSigned(hook.secret, got) as {
        type: string;
        timestamp: string;
        data: unknown;
      };
      assert.deepEqual(payload, {
        type: 'webhook.test',
        timestamp: START,
        data: { webhookId: hook.webhookId, message: TEST_EVENT_MESSAGE },
      });
      assert.ok(Value.Check(WEBHOOK_EVENTS['webhook.test'].schema, payload.data));

      // In the log like any delivery, and in the deliveries' state.
      const log = await call(
        'GET',
        `/v2/webhooks/${hook.webhookId}/attempts?eventId=${res.body.eventId}`,
      );
      assert.equal(log.status, 200);
      assert.equal(log.body.data.length, 1);
      assert.equal(log.body.data[0].eventType, 'webhook.test');
      assert.equal(log.body.data[0].outcome, 'succeeded');
      assert.equal(log.body.data[0].deliveryId, res.body.deliveryId);
      const deliveries = await call('GET', `/v2/webhooks/${hook.webhookId}/deliveries`);
      assert.equal(deliveries.body.data[0].status, 'succeeded');
      const elsewhere = await call('GET', `/v2/webhooks/${other.body.webhookId}/deliveries`);
      assert.deepEqual(elsewhere.body.data, []);

      // A later change the other endpoint listens to does not carry the test along.
      await recordEvents(
        t.ctx.db,
        [
          {
            companyId: co.companyId,
            type: 'upload.ready',
            data: { uploadId: 'upl_1', kind: 'video', status: 'ready', error: null },
          },
        ],
        t.clock.now().toISOString(),
      );
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      assert.equal(rx().received[1]?.path, '/hooks/other');
      assert.equal(JSON.parse(rx().received[1]?.body ?? '{}').type, 'upload.ready');
      // Subscribing to the test event is not a choice.
      const refused = await call('PATCH', `/v2/webhooks/${hook.webhookId}`, {
        events: ['webhook.test'],
      });
      assert.equal(refused.status, 400);
    });

    test('a failed test is retried like any delivery, and can be replayed', async () => {
      const { t, call, hook } = await setup();
      rx().answer = () => 500;
      const sent = await call('POST', `/v2/webhooks/${hook.webhookId}/test`);
      assert.equal(sent.status, 202);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      rx().answer = () => 204;
      t.clock.advance(6_000);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      assert.equal(rx().received.length, 2);
      assert.equal(rx().received[1]?.headers['webhook-id'], sent.body.eventId);
      const replay = await call('POST', `/v2/webhooks/${hook.webhookId}/replay`, {
        eventId: sent.body.eventId,
      });
      assert.equal(replay.status, 202);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      verifyAsSigned(hook.secret, rx().received[2] as Received);
    });

    test('unknown and another company’s endpoints are 404 alike; a disabled one is refused', async () => {
      const { t, call, hook } = await setup();
      const stranger = client(t, (await seedCompany(t)).key);
      const theirs = await stranger('POST', `/v2/webhooks/${hook.webhookId}/test`);
      const unknown = await stranger('POST', '/v2/webhooks/wh_doesnotexist/test');
      assertApiError(theirs, 404, 'webhook_not_found');
      assertApiError(unknown, 404, 'webhook_not_found');
      assert.equal(theirs.body.error.hint, unknown.body.error.hint);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 0 });

      assert.equal((await call('POST', `/v2/webhooks/${hook.webhookId}/disable`)).status, 200);
      const disabled = await call('POST', `/v2/webhooks/${hook.webhookId}/test`);
      assertApiError(disabled, 400, 'invalid_request', { includes: 'is disabled' });
      assert.deepEqual(await deliverDue(t.ctx), { sent: 0 });
      assert.equal(rx().received.length, 0);
    });

    test('needs webhooks:write; webhooks:read alone is refused', async () => {
      const { t, co, hook } = await setup();
      const reader = client(t, await co.keyWith(['webhooks:read']));
      const res = await reader('POST', `/v2/webhooks/${hook.webhookId}/test`);
      assertApiError(res, 403, 'insufficient_scope', { includes: 'webhooks:write' });
      const writer = client(t, await co.keyWith(['webhooks:write']));
      assert.equal((await writer('POST', `/v2/webhooks/${hook.webhookId}/test`)).status, 202);
      const anonymous = client(t, null);
      const none = await anonymous('POST', `/v2/webhooks/${hook.webhookId}/test`);
      assert.equal(none.status, 401);
    });

    test('at most 5 a minute per endpoint, with Retry-After; other endpoints unaffected', async () => {
      const { t, call, hook } = await setup();
      const second = await call('POST', '/v2/webhooks', {
        url: rx().url,
        events: ['upload.ready'],
      });
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1_000);
        const res = await call('POST', `/v2/webhooks/${hook.webhookId}/test`);
        assert.equal(res.status, 202, `test ${i + 1}`);
      }
      t.clock.advance(1_000);
      const capped = await call('POST', `/v2/webhooks/${hook.webhookId}/test`);
      assertApiError(capped, 429, 'rate_limited', { includes: 'at most 5 test events' });
      // The first of the five leaves the minute 55 s from now.
      assert.equal(capped.headers['retry-after'], '55');
      assert.equal((await call('POST', `/v2/webhooks/${second.body.webhookId}/test`)).status, 202);
      t.clock.advance(55_000);
      assert.equal((await call('POST', `/v2/webhooks/${hook.webhookId}/test`)).status, 202);
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
