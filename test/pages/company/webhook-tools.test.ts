// The dashboard's webhook tools through HTTP on both databases: "Send a test event" (admins
// only, delivered signed to a receiver on 127.0.0.1, in the log and the activity log, the
// per-minute cap and a disabled endpoint worded on the page), "All events" when creating
// and editing an endpoint, editing with refusals kept on the form, and each delivery's
// payload in the log, pretty-printed and escaped; other companies' ids answer like unknown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, pageShape, signIn, userIn } from '../../helpers/dashboard.ts';
import { useReceiver, verifyAsSigned } from '../../helpers/webhook-receiver.ts';
import { recordEvents, WEBHOOK_EVENT_TYPES } from '../../../src/modules/webhooks/index.ts';
import { deliverDue } from '../../../src/dispatch/webhook-loop.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

const START = '2026-03-02T10:00:00.000Z';
const SECRET = /value="(whsec_[A-Za-z0-9+/]{43}=)"/;
let ips = 0;

async function signedIn(t: TestApp, companyId: string, role: UserRole) {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `203.0.113.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const csrf = hidden((await b.get('/dashboard/usage')).body, '_csrf');
  return { b, csrf, email: u.email };
}

type Signed = Awaited<ReturnType<typeof signedIn>>;

async function create(admin: Signed, form: Record<string, string | string[]>) {
  const res = await admin.b.post('/dashboard/webhooks', { _csrf: admin.csrf, ...form });
  assert.equal(res.status, 200, res.body);
  const secret = SECRET.exec(res.body)?.[1];
  const webhookId = /\/dashboard\/webhooks\/(wh_[^"/]+)"/.exec(res.body)?.[1];
  assert.ok(secret && webhookId);
  return { webhookId, secret };
}

describeEachDialect(
  'dashboard webhook tools',
  (get) => {
    const rx = useReceiver(() => get().clock.set(START));

    test('admins send a test event: delivered signed, logged, in the activity log', async () => {
      const t = get();
      const co = await seedCompany(t);
      const admin = await signedIn(t, co.companyId, 'admin');
      const { webhookId, secret } = await create(admin, { url: rx().url, event: 'upload.ready' });
      const here = `/dashboard/webhooks/${webhookId}`;
      const page = await admin.b.get(here);
      assert.match(
        page.body,
        /<button type="submit" aria-describedby="test-help">Send a test event<\/button>/,
      );

      const sent = await admin.b.post(`${here}/test`, { _csrf: admin.csrf });
      assert.equal(sent.status, 303);
      assert.equal(sent.location, here);
      const notice = (await admin.b.get(here)).body;
      const eventId = /Test event (msg_[A-Za-z0-9]+) queued/.exec(notice)?.[1];
      assert.ok(eventId, 'the notice names the event');

      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      const got = rx().received[0];
      assert.ok(got);
      assert.equal(got.headers['webhook-id'], eventId);
      const payload = verifyAsSigned(secret, got) as { type: string; data: { webhookId: string } };
      assert.equal(payload.type, 'webhook.test');
      assert.equal(payload.data.webhookId, webhookId);

      const log = (await admin.b.get(here)).body;
      assert.match(log, /<code>webhook\.test<\/code>/);
      assert.match(log, /<span class="cell-label">Trigger: <\/span>test<\/td>/);
      const activity = await listActivity(t.ctx.db, co.companyId, { limit: 10 });
      const entry = activity.find((e) => e.action === 'webhook.test_sent');
      assert.ok(entry, 'the test is in the activity log');
      assert.equal(entry.target, webhookId);
      assert.equal(entry.actorLabel, admin.email);
      assert.ok(!JSON.stringify(activity).includes(secret));

      // Without the CSRF token nothing is sent.
      const forged = await admin.b.post(`${here}/test`, {});
      assert.equal(forged.status, 403);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 0 });
    });

    test('viewers and editors get no button and are refused', async () => {
      const t = get();
      const co = await seedCompany(t);
      const admin = await signedIn(t, co.companyId, 'admin');
      const { webhookId } = await create(admin, { url: rx().url, event: 'upload.ready' });
      for (const role of ['viewer', 'editor'] as const) {
        const who = await signedIn(t, co.companyId, role);
        const page = await who.b.get(`/dashboard/webhooks/${webhookId}`);
        assert.equal(page.status, 200);
        assert.doesNotMatch(page.body, /Send a test event|Edit endpoint/);
        const res = await who.b.post(`/dashboard/webhooks/${webhookId}/test`, { _csrf: who.csrf });
        assert.equal(res.status, 403, role);
        assert.equal((await who.b.get(`/dashboard/webhooks/${webhookId}/edit`)).status, 403);
        const edit = await who.b.post(`/dashboard/webhooks/${webhookId}/edit`, {
          _csrf: who.csrf,
          url: rx().url,
          all: '1',
        });
        assert.equal(edit.status, 403);
      }
      assert.deepEqual(await deliverDue(t.ctx), { sent: 0 });
    });

    test('the per-minute cap and a disabled endpoint are worded on the page', async () => {
      const t = get();
      const co = await seedCompany(t);
      const admin = await signedIn(t, co.companyId, 'admin');
      const { webhookId } = await create(admin, { url: rx().url, event: 'upload.ready' });
      const here = `/dashboard/webhooks/${webhookId}`;
      for (let i = 0; i < 5; i++) {
        assert.equal((await admin.b.post(`${here}/test`, { _csrf: admin.csrf })).status, 303);
      }
      const capped = await admin.b.post(`${here}/test`, { _csrf: admin.csrf });
      assert.equal(capped.status, 429);
      assert.match(
        capped.body,
        /role="alert">At most 5 test events a minute go to one endpoint: wait 60 seconds/,
      );

      t.clock.advance(60_000);
      assert.equal((await admin.b.post(`${here}/disable`, { _csrf: admin.csrf })).status, 303);
      const page = (await admin.b.get(here)).body;
      assert.match(page, /Send a test event<\/button>/);
      assert.match(page, /aria-describedby="test-help" disabled>/);
      const refused = await admin.b.post(`${here}/test`, { _csrf: admin.csrf });
      assert.equal(refused.status, 400);
      assert.match(refused.body, /This endpoint is disabled: enable it to send it a test event/);
    });

    test('"All events" chooses every type when creating and editing', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const admin = await signedIn(t, co.companyId, 'admin');
      const form = (await admin.b.get('/dashboard/webhooks')).body;
      assert.match(
        form,
        /<input type="checkbox" id="event-all" name="all" value="1" data-all-events aria-describedby="event-all-help">/,
      );
      assert.match(form, /<label for="event-all"><strong>All events<\/strong>/);
      assert.doesNotMatch(form, /value="webhook\.test"/, 'the test event is not a choice');

      // Without JavaScript only "All events" is ticked: every type.
      const all = await create(admin, { url: rx().url, all: '1' });
      const hook = (await call('GET', `/v2/webhooks/${all.webhookId}`)).body;
      assert.deepEqual(hook.events, WEBHOOK_EVENT_TYPES);
      const list = (await admin.b.get('/dashboard/webhooks')).body;
      assert.match(list, new RegExp(`All events \\(${WEBHOOK_EVENT_TYPES.length} types\\)`));
      assert.match(
        (await admin.b.get(`/dashboard/webhooks/${all.webhookId}`)).body,
        /All events: every type of the catalog/,
      );

      // Editing: the form shows what is chosen; a subset, then all again.
      const some = await create(admin, { url: rx().url, event: ['upload.ready', 'post.created'] });
      const editUrl = `/dashboard/webhooks/${some.webhookId}/edit`;
      const edit = await admin.b.get(editUrl);
      assert.equal(edit.status, 200);
      assert.match(edit.body, /<h1 class="hook-title">Edit webhook /);
      assert.match(edit.body, /value="upload\.ready" data-event checked>/);
      assert.match(edit.body, /value="post\.item\.posted" data-event>/);
      assert.match(edit.body, /data-all-events aria-describedby/);
      assert.doesNotMatch(edit.body, /data-all-events checked/);
      const saved = await admin.b.post(editUrl, {
        _csrf: admin.csrf,
        url: rx().url,
        description: 'Everything',
        all: '1',
        event: 'upload.ready',
      });
      assert.equal(saved.status, 303);
      assert.equal(saved.location, `/dashboard/webhooks/${some.webhookId}`);
      assert.match((await admin.b.get(saved.location)).body, /Endpoint saved/);
      const after = (await call('GET', `/v2/webhooks/${some.webhookId}`)).body;
      assert.deepEqual(after.events, WEBHOOK_EVENT_TYPES);
      assert.equal(after.description, 'Everything');
      assert.match((await admin.b.get(editUrl)).body, /data-all-events checked/);

      const narrowed = await admin.b.post(editUrl, {
        _csrf: admin.csrf,
        url: rx().url,
        event: ['post.item.posted', 'upload.ready'],
      });
      assert.equal(narrowed.status, 303);
      const back = (await call('GET', `/v2/webhooks/${some.webhookId}`)).body;
      // The catalog's order, whatever order the browser sent.
      assert.deepEqual(back.events, ['upload.ready', 'post.item.posted']);
      assert.equal(back.description, '');

      // Refusals stay on the form, with what was typed.
      const none = await admin.b.post(editUrl, { _csrf: admin.csrf, url: rx().url });
      assert.equal(none.status, 400);
      assert.match(none.body, /role="alert">Choose at least one event type/);
      const insecure = await admin.b.post(editUrl, {
        _csrf: admin.csrf,
        url: 'http://example.com/in',
        all: '1',
      });
      assert.equal(insecure.status, 400);
      assert.match(insecure.body, /The URL must use https/);
      assert.match(insecure.body, /value="http:\/\/example\.com\/in"/);
      assert.match(insecure.body, /data-all-events checked/);
      const unchanged = (await call('GET', `/v2/webhooks/${some.webhookId}`)).body;
      assert.equal(unchanged.url, rx().url);
      const updates = (await listActivity(t.ctx.db, co.companyId, { limit: 50 })).filter(
        (e) => e.action === 'webhook.updated' && e.target === some.webhookId,
      );
      assert.equal(updates.length, 2, 'each save is in the activity log');
    });

    test('each delivery’s payload is in the log, pretty-printed and escaped', async () => {
      const t = get();
      const co = await seedCompany(t);
      const admin = await signedIn(t, co.companyId, 'admin');
      const viewer = await signedIn(t, co.companyId, 'viewer');
      const { webhookId } = await create(admin, { url: rx().url, event: 'upload.failed' });
      await recordEvents(
        t.ctx.db,
        [
          {
            companyId: co.companyId,
            type: 'upload.failed',
            data: {
              uploadId: 'upl_payload',
              kind: 'video',
              status: 'failed',
              error: '<script>alert("x")</script> & more',
            },
          },
        ],
        t.clock.now().toISOString(),
      );
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      const page = (await viewer.b.get(`/dashboard/webhooks/${webhookId}`)).body;
      const pre =
        /<details class="payload"><summary>Payload<span class="visually-hidden"> of attempt 1 of (msg_[A-Za-z0-9]+)<\/span><\/summary><pre tabindex="0"><code>([\s\S]*?)<\/code><\/pre><\/details>/.exec(
          page,
        );
      assert.ok(pre, 'the payload of the attempt');
      assert.equal(
        pre[2],
        [
          '{',
          '  &quot;type&quot;: &quot;upload.failed&quot;,',
          `  &quot;timestamp&quot;: &quot;${START}&quot;,`,
          '  &quot;data&quot;: {',
          '    &quot;uploadId&quot;: &quot;upl_payload&quot;,',
          '    &quot;kind&quot;: &quot;video&quot;,',
          '    &quot;status&quot;: &quot;failed&quot;,',
          '    &quot;error&quot;: &quot;&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt; &amp; more&quot;',
          '  }',
          '}',
        ].join('\n'),
      );
      assert.ok(!page.includes('<script>alert'), 'nothing of the payload is markup');
      assert.equal(rx().received[0]?.headers['webhook-id'], pre[1]);
    });

    test('another company’s endpoint answers like an unknown one', async () => {
      const t = get();
      const co = await seedCompany(t);
      const owner = await signedIn(t, co.companyId, 'admin');
      const { webhookId } = await create(owner, { url: rx().url, event: 'upload.ready' });
      const stranger = await signedIn(t, (await seedCompany(t)).companyId, 'admin');
      const tries = async (id: string) => [
        await stranger.b.post(`/dashboard/webhooks/${id}/test`, { _csrf: stranger.csrf }),
        await stranger.b.get(`/dashboard/webhooks/${id}/edit`),
        await stranger.b.post(`/dashboard/webhooks/${id}/edit`, {
          _csrf: stranger.csrf,
          url: rx().url,
          all: '1',
        }),
      ];
      const theirs = await tries(webhookId);
      const unknown = await tries('wh_unknown');
      theirs.forEach((res, i) => {
        assert.equal(res.status, 404, `attempt ${i}`);
        assert.equal(unknown[i]?.status, 404, `attempt ${i} on an unknown id`);
        assert.equal(pageShape(res.body), pageShape(unknown[i]?.body ?? ''), `attempt ${i}`);
      });
      assert.deepEqual(await deliverDue(t.ctx), { sent: 0 });
      const hook = (await client(t, co.key)('GET', `/v2/webhooks/${webhookId}`)).body;
      assert.deepEqual(hook.events, ['upload.ready']);
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
