// The dashboard's webhooks pages through HTTP, on both databases: every role reads, only
// admins change; the signing secret is shown once; refusals stay on the form; the delivery
// log of real attempts to a receiver on 127.0.0.1, paged; other companies' ids answer like
// unknown ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, pageShape, signIn, userIn } from '../../helpers/dashboard.ts';
import { useReceiver, verifyAsSigned } from '../../helpers/webhook-receiver.ts';
import { recordEvents } from '../../../src/modules/webhooks/index.ts';
import { deliverDue } from '../../../src/dispatch/webhook-loop.ts';
import type { UserRole } from '../../../src/db/types.ts';

const START = '2026-03-02T10:00:00.000Z';
const SECRET = /value="(whsec_[A-Za-z0-9+/]{43}=)"/;
let ips = 0;

async function signedIn(t: TestApp, companyId: string, role: UserRole) {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const csrf = hidden((await b.get('/dashboard/usage')).body, '_csrf');
  return { b, csrf, email: u.email };
}

type Admin = Awaited<ReturnType<typeof signedIn>>;

/** A page without the labels its table cells carry for narrow screens. */
async function read(b: Admin['b'], url: string) {
  const res = await b.get(url);
  return { ...res, body: res.body.replace(/<span class="cell-label">[^<]*<\/span>/g, '') };
}

/** Creates an endpoint through the form; answers its id and the secret shown. */
async function createIn(admin: Admin, url: string, events = ['upload.ready']) {
  const res = await admin.b.post('/dashboard/webhooks', {
    _csrf: admin.csrf,
    url,
    description: 'Order system',
    event: events,
  });
  assert.equal(res.status, 200, res.body);
  const secret = SECRET.exec(res.body)?.[1];
  assert.ok(secret, 'the secret is on the result page');
  const webhookId = /\/dashboard\/webhooks\/(wh_[^"/]+)"/.exec(res.body)?.[1];
  assert.ok(webhookId);
  return { webhookId, secret, body: res.body };
}

async function emit(t: TestApp, companyId: string, n = 1) {
  const events = Array.from({ length: n }, (_, i) => ({
    companyId,
    type: 'upload.ready' as const,
    data: { uploadId: `upl_${i}`, kind: 'video' as const, status: 'ready' as const, error: null },
  }));
  await recordEvents(t.ctx.db, events, t.clock.now().toISOString());
}

describeEachDialect(
  'dashboard webhooks',
  (get) => {
    const rx = useReceiver(() => get().clock.set(START));

    test('every role reads the pages; only admins create and change endpoints', async () => {
      const t = get();
      const co = await seedCompany(t);
      const admin = await signedIn(t, co.companyId, 'admin');
      const { webhookId } = await createIn(admin, rx().url);
      for (const role of ['viewer', 'editor'] as const) {
        const who = await signedIn(t, co.companyId, role);
        const list = await who.b.get('/dashboard/webhooks');
        assert.equal(list.status, 200);
        assert.match(list.body, /<h1>Webhooks<\/h1>/);
        assert.match(list.body, /aria-current="page">Webhooks<\/a>/);
        assert.ok(list.body.includes(rx().url));
        assert.doesNotMatch(list.body, /Create endpoint/);
        const detail = await who.b.get(`/dashboard/webhooks/${webhookId}`);
        assert.equal(detail.status, 200);
        assert.match(detail.body, /Delivery log/);
        assert.doesNotMatch(detail.body, /Disable endpoint|Rotate secret|Replay events/);
        assert.equal((await who.b.get(`/dashboard/webhooks/${webhookId}/delete`)).status, 403);
        const form = { _csrf: who.csrf, url: 'https://example.com/x', event: 'upload.ready' };
        assert.equal((await who.b.post('/dashboard/webhooks', form)).status, 403);
        for (const action of ['disable', 'enable', 'rotate', 'delete', 'replay']) {
          const res = await who.b.post(`/dashboard/webhooks/${webhookId}/${action}`, {
            _csrf: who.csrf,
            since: START,
          });
          assert.equal(res.status, 403, action);
        }
      }
      const call = client(t, co.key);
      const hook = (await call('GET', `/v2/webhooks/${webhookId}`)).body;
      assert.equal(hook.status, 'active');
      assert.equal((await call('GET', '/v2/webhooks')).body.data.length, 1);
      const noCsrf = await admin.b.post(`/dashboard/webhooks/${webhookId}/disable`, {});
      assert.equal(noCsrf.status, 403);
      assert.equal((await call('GET', `/v2/webhooks/${webhookId}`)).body.status, 'active');
    });

    test('create shows the secret once; refusals stay on the form with the reason', async () => {
      const t = get();
      const co = await seedCompany(t);
      const admin = await signedIn(t, co.companyId, 'admin');
      const empty = await admin.b.get('/dashboard/webhooks');
      assert.match(empty.body, /no webhook endpoints yet/);
      assert.match(empty.body, /post\.item\.posted<\/code> <span class="meta">A queue item was/);

      const refusals: [Record<string, string | string[]>, number, RegExp][] = [
        [{ url: rx().url }, 400, /Choose at least one event type/],
        [{ url: '', event: 'upload.ready' }, 400, /Enter the URL/],
        [{ url: rx().url, event: 'nope.never' }, 400, /Choose events from the list/],
        [{ url: 'http://example.com/hook', event: 'upload.ready' }, 400, /URL must use https/],
        [{ url: 'https://10.1.2.3/hook', event: 'upload.ready' }, 400, /private, loopback/],
        [{ url: 'not a url', event: 'upload.ready' }, 400, /The URL is not/],
      ];
      for (const [form, status, message] of refusals) {
        const res = await admin.b.post('/dashboard/webhooks', { _csrf: admin.csrf, ...form });
        assert.equal(res.status, status, JSON.stringify(form));
        assert.match(res.body, message);
        assert.match(res.body, /role="alert"/);
        // What was typed stays in the form.
        assert.ok(res.body.includes(`value="${form.url}"`), JSON.stringify(form));
      }

      const created = await createIn(admin, rx().url, ['post.item.posted', 'upload.ready']);
      assert.match(created.body, /not shown again/);
      assert.match(created.body, /Events: upload\.ready, post\.item\.posted/);
      const list = await read(admin.b, '/dashboard/webhooks');
      assert.ok(!list.body.includes(created.secret), 'the secret is shown once only');
      assert.match(list.body, /Order system/);
      assert.match(list.body, /upload\.ready, post\.item\.posted/);
      assert.match(list.body, /<span class="status status-active">Active<\/span>/);
      assert.match(list.body, /never/);
      const detail = await admin.b.get(`/dashboard/webhooks/${created.webhookId}`);
      assert.ok(!detail.body.includes(created.secret));
      assert.match(detail.body, /Nothing has been sent to this endpoint yet/);

      // The secret signs what the receiver gets.
      await emit(t, co.companyId);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      const got = rx().received[0];
      assert.ok(got);
      const payload = verifyAsSigned(created.secret, got) as { type: string };
      assert.equal(payload.type, 'upload.ready');
      const api = client(t, co.key);
      const hook = (await api('GET', `/v2/webhooks/${created.webhookId}`)).body;
      assert.deepEqual(hook.events, ['upload.ready', 'post.item.posted']);
      assert.equal(hook.description, 'Order system');
      assert.equal(hook.lastSuccessAt, START);

      // The company's limit, as the service words it.
      for (let i = 1; i < 20; i++) {
        const res = await api('POST', '/v2/webhooks', { url: rx().url, events: ['upload.ready'] });
        assert.equal(res.status, 201);
      }
      const full = await admin.b.post('/dashboard/webhooks', {
        _csrf: admin.csrf,
        url: rx().url,
        event: 'upload.ready',
      });
      assert.equal(full.status, 409);
      assert.match(full.body, /already has 20 webhook endpoints.*Delete an endpoint/);

      const log = await admin.b.get('/dashboard/activity');
      assert.match(log.body, /webhook\.created/);
      assert.ok(!log.body.includes(created.secret), 'no secret in the activity log');
    });

    test('disable, enable, rotate and delete, each in the activity log', async () => {
      const t = get();
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const admin = await signedIn(t, co.companyId, 'admin');
      const { webhookId, secret } = await createIn(admin, rx().url);
      const here = `/dashboard/webhooks/${webhookId}`;
      const status = async () => (await call('GET', `/v2/webhooks/${webhookId}`)).body.status;

      const disabled = await admin.b.post(`${here}/disable`, { _csrf: admin.csrf });
      assert.equal(disabled.status, 303);
      assert.equal(await status(), 'disabled');
      const page = await admin.b.get(disabled.location as string);
      assert.match(page.body, /Endpoint disabled/);
      assert.match(page.body, /Disabled: disabled on request/);
      assert.match(page.body, /Enable endpoint/);
      const again = await admin.b.post(`${here}/disable`, { _csrf: admin.csrf });
      assert.match((await admin.b.get(again.location as string)).body, /already disabled/);
      const refused = await admin.b.post(`${here}/replay`, { _csrf: admin.csrf, since: START });
      assert.equal(refused.status, 400);
      assert.match(refused.body, /is disabled\./);
      assert.equal((await admin.b.post(`${here}/enable`, { _csrf: admin.csrf })).status, 303);
      assert.equal(await status(), 'active');

      t.clock.advance(60_000);
      const rotated = await admin.b.post(`${here}/rotate`, { _csrf: admin.csrf });
      assert.equal(rotated.status, 200);
      const fresh = SECRET.exec(rotated.body)?.[1];
      assert.ok(fresh && fresh !== secret);
      assert.match(
        rotated.body,
        /previous secret keeps signing too until <time datetime="2026-03-03T10:01:00.000Z">/,
      );
      assert.ok(!(await admin.b.get(here)).body.includes(fresh), 'shown once only');

      const confirm = await admin.b.get(`${here}/delete`);
      assert.equal(confirm.status, 200);
      assert.match(confirm.body, /Delete endpoint/);
      assert.equal(await status(), 'active', 'the confirm page changes nothing');
      const deleted = await admin.b.post(`${here}/delete`, {
        _csrf: hidden(confirm.body, '_csrf'),
      });
      assert.equal(deleted.status, 303);
      assert.match((await admin.b.get(deleted.location as string)).body, /deleted\./);
      assert.equal((await call('GET', `/v2/webhooks/${webhookId}`)).status, 404);
      assert.equal((await admin.b.get(here)).status, 404);

      const log = (await admin.b.get('/dashboard/activity')).body;
      for (const action of ['created', 'disabled', 'enabled', 'secret_rotated', 'deleted']) {
        assert.equal(
          log.match(new RegExp(`data-action="webhook\\.${action}"`, 'g'))?.length,
          1,
          action,
        );
      }
      assert.ok(!log.includes(secret) && !log.includes(fresh), 'no secret in the activity log');
    });

    test('the log shows attempts newest first, pages older ones, and replays', async () => {
      const t = get();
      const co = await seedCompany(t);
      const admin = await signedIn(t, co.companyId, 'admin');
      const viewer = await signedIn(t, co.companyId, 'viewer');
      const { webhookId } = await createIn(admin, rx().url);
      const here = `/dashboard/webhooks/${webhookId}`;

      rx().answer = () => ({ status: 500, body: `down ${'x'.repeat(400)}` });
      await emit(t, co.companyId);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      let page = (await read(viewer.b, here)).body;
      assert.match(page, /Failing since <time datetime="2026-03-02T10:00:00.000Z">/);
      assert.match(page, /<td class="num">500<\/td>/);
      assert.match(page, /<code>down x{195}…<\/code>/);
      assert.doesNotMatch(page, /x{201}/);
      const eventId = /<code class="meta">(msg_[^<]+)<\/code>/.exec(page)?.[1];
      assert.ok(eventId);

      rx().answer = () => 204;
      t.clock.advance(10_000);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      page = (await read(viewer.b, here)).body;
      const rows = [...page.matchAll(/<td>(Succeeded|Failed)<\/td>/g)].map((m) => m[1]);
      assert.deepEqual(rows, ['Succeeded', 'Failed'], 'newest first');
      assert.match(page, /<td class="num">2<\/td>\s*<td>scheduled<\/td>/);
      assert.match(page, /Last success<\/dt><dd><time datetime="2026-03-02T10:00:10.000Z">/);
      assert.doesNotMatch(page, /Older attempts/);

      const none = await admin.b.post(`${here}/replay`, { _csrf: admin.csrf });
      assert.equal(none.status, 400);
      assert.match(none.body, /either an event ID or a time to replay from: exactly one/);
      const both = { _csrf: admin.csrf, eventId, since: '2026-03-02T09:00' };
      assert.equal((await admin.b.post(`${here}/replay`, both)).status, 400);
      const unknown = await admin.b.post(`${here}/replay`, {
        _csrf: admin.csrf,
        eventId: 'msg_unknown',
      });
      assert.equal(unknown.status, 400);
      assert.match(unknown.body, /Event msg_unknown was not found/);
      assert.match(unknown.body, /value="msg_unknown"/);
      const badTime = await admin.b.post(`${here}/replay`, { _csrf: admin.csrf, since: 'soon' });
      assert.equal(badTime.status, 400);
      assert.match(badTime.body, /YYYY-MM-DDTHH:mm/);

      const replayed = await admin.b.post(`${here}/replay`, { _csrf: admin.csrf, eventId });
      assert.equal(replayed.status, 303);
      assert.match((await admin.b.get(replayed.location as string)).body, /1 event\(s\) queued/);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 1 });
      page = (await read(viewer.b, here)).body;
      assert.match(page, /<td class="num">1<\/td>\s*<td>replay<\/td>\s*<td>Succeeded/);

      const since = await admin.b.post(`${here}/replay`, {
        _csrf: admin.csrf,
        since: '2026-03-02T09:59',
      });
      assert.equal(since.status, 303);
      assert.equal(await deliverDue(t.ctx).then((r) => r.sent), 1);

      // 50 attempts a page: 51 more events make an older page.
      t.clock.advance(60_000);
      await emit(t, co.companyId, 51);
      assert.deepEqual(await deliverDue(t.ctx), { sent: 51 });
      const first = (await read(viewer.b, here)).body;
      assert.equal(first.match(/<td>(Succeeded|Failed)<\/td>/g)?.length, 50);
      const older = /href="([^"]+\?cursor=[^"]+)">Older attempts/.exec(first)?.[1];
      assert.ok(older);
      const second = await read(viewer.b, older.replaceAll('&amp;', '&'));
      assert.equal(second.status, 200);
      assert.equal(second.body.match(/<td>(Succeeded|Failed)<\/td>/g)?.length, 5);
      assert.match(second.body, /Newest attempts/);
      assert.doesNotMatch(second.body, /Older attempts/);
      assert.equal((await viewer.b.get(`${here}?cursor=forged`)).status, 400);
    });

    test('another company’s endpoint answers like an unknown one', async () => {
      const t = get();
      const co = await seedCompany(t);
      const owner = await signedIn(t, co.companyId, 'admin');
      const { webhookId } = await createIn(owner, rx().url);
      const other = await seedCompany(t);
      const stranger = await signedIn(t, other.companyId, 'admin');
      assert.ok(!(await stranger.b.get('/dashboard/webhooks')).body.includes(webhookId));

      const tries = async (id: string) => [
        await stranger.b.get(`/dashboard/webhooks/${id}`),
        await stranger.b.get(`/dashboard/webhooks/${id}/delete`),
        ...(await Promise.all(
          ['disable', 'enable', 'rotate', 'delete', 'replay'].map((action) =>
            stranger.b.post(`/dashboard/webhooks/${id}/${action}`, {
              _csrf: stranger.csrf,
              since: START,
            }),
          ),
        )),
      ];
      const theirs = await tries(webhookId);
      const unknown = await tries('wh_unknown');
      theirs.forEach((res, i) => {
        const same = unknown[i];
        assert.ok(same);
        assert.equal(res.status, 404, `attempt ${i}`);
        assert.equal(same.status, 404, `attempt ${i} on an unknown id`);
        assert.equal(pageShape(res.body), pageShape(same.body), `attempt ${i} answers alike`);
      });
      const hook = (await client(t, co.key)('GET', `/v2/webhooks/${webhookId}`)).body;
      assert.equal(hook.status, 'active');
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
