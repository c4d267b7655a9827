// The workers' app's notifications through HTTP on both databases: the service worker is
// served to anyone at the app's scope; a phone's subscription is registered and removed by
// the page's script with the session's CSRF token (refused without it, keys checked by
// name), listed by its browser's name for its worker only, removed from the page, and sent
// a test push; the task list's version changes when a task is released.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import {
  browser,
  hidden,
  workerSignIn,
  type Browser,
  scriptRequest,
} from '../../helpers/dashboard.ts';
import { makeActiveAccounts, readyUpload } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { deviceLabel } from '../../../src/pages/worker/notifications.pages.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

const BASE = '/dashboard/worker';
const P256DH = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
const AUTH = Buffer.alloc(16, 9).toString('base64url');

function subscription(endpoint: string) {
  return { endpoint, keys: { p256dh: P256DH, auth: AUTH }, expirationTime: null };
}

async function signedIn(t: TestApp, name: string) {
  const worker = await createWorker(t.ctx.db, t.ctx.clock, { name, timezone: 'UTC' });
  const b = browser(t);
  assert.equal((await workerSignIn(b, worker.token)).status, 303);
  const page = await b.get(`${BASE}/notifications`);
  assert.equal(page.status, 200, page.body);
  const csrf = /data-csrf="([^"]+)"/.exec(page.body)?.[1] ?? '';
  assert.ok(csrf, 'the page carries the CSRF token for its script');
  return { worker, b, csrf };
}

/** A JSON request of the page's script: the session's cookies and the CSRF header. */
function send(t: TestApp, b: Browser, method: 'PUT' | 'DELETE', body: unknown, csrf?: string) {
  return scriptRequest(t, b, method, `${BASE}/push-subscription`, body, csrf);
}

test('devices are named by their browser’s push service', () => {
  assert.equal(deviceLabel('https://fcm.googleapis.com/fcm/send/abc'), 'Chrome or Android');
  assert.equal(deviceLabel('https://web.push.apple.com/QH'), 'Safari on iPhone, iPad or Mac');
  assert.equal(deviceLabel('https://updates.push.services.mozilla.com/wpush/v2/x'), 'Firefox');
  assert.equal(deviceLabel('https://push.example.net/p/1'), 'A device (push.example.net)');
  assert.equal(deviceLabel('not a url'), 'A device');
});

describeEachDialect('workers app notifications', (get) => {
  test('the service worker is served at the app’s scope without a session', async () => {
    const t = get();
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/sw.js` });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/javascript/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
    assert.match(res.body, /addEventListener\('push'/);
    assert.match(res.body, /addEventListener\('notificationclick'/);
  });

  test('a phone registered, listed, tested and removed; CSRF and keys checked', async () => {
    const t = get();
    t.clock.set('2031-05-01T10:00:00.000Z');
    const { b, csrf } = await signedIn(t, 'Ana');
    const other = await signedIn(t, 'Ben');
    const endpoint = 'https://fcm.googleapis.com/fcm/send/phone-1';

    const page = await b.get(`${BASE}/notifications`);
    assert.match(page.body, /Turn on notifications/);
    assert.match(page.body, new RegExp(`data-key="${t.ctx.vapid.publicKey}"`));
    assert.match(page.body, /No device gets notifications yet\./);

    const forged = await send(t, b, 'PUT', subscription(endpoint));
    assert.equal(forged.statusCode, 403);
    const bad = await send(
      t,
      b,
      'PUT',
      { ...subscription(endpoint), keys: { p256dh: 'AAAA', auth: AUTH } },
      csrf,
    );
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /\/keys\/p256dh must be 65 bytes/);
    const put = await send(t, b, 'PUT', subscription(endpoint), csrf);
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(JSON.parse(put.body), { endpoint, label: 'Chrome or Android' });

    const listed = await b.get(`${BASE}/notifications`);
    assert.match(listed.body, /Remove<span class="visually-hidden"> Chrome or Android/);
    assert.match(listed.body, /Send me a test notification/);
    const theirs = await other.b.get(`${BASE}/notifications`);
    assert.doesNotMatch(theirs.body, /phone-1/);
    // Another worker cannot remove it: the answer is the same, and the device stays.
    const cross = await send(t, other.b, 'DELETE', { endpoint }, other.csrf);
    assert.equal(cross.statusCode, 204);
    assert.equal(
      (await t.ctx.db.selectFrom('push_subscriptions').select('owner_id').execute()).length,
      1,
    );

    const tested = await b.post(`${BASE}/notifications/test`, {
      _csrf: hidden(listed.body, '_csrf'),
    });
    assert.equal(tested.status, 303);
    const rows = await t.ctx.db
      .selectFrom('outbox_messages')
      .select(['channel', 'kind', 'body_text'])
      .where('channel', '=', 'push')
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.kind, 'push_test');
    assert.equal(JSON.parse(rows[0]?.body_text ?? '{}').url, `${BASE}/tasks`);
    assert.match(
      (await b.get(`${BASE}/notifications`)).body,
      /A test notification is on its way to your device\./,
    );

    const removeForm = await b.get(`${BASE}/notifications`);
    const removed = await b.post(`${BASE}/notifications/remove`, {
      _csrf: hidden(removeForm.body, '_csrf'),
      endpoint,
    });
    assert.equal(removed.status, 303);
    const after = await b.get(`${BASE}/notifications`);
    assert.match(after.body, /Chrome or Android will no longer get notifications\./);
    assert.match(after.body, /No device gets notifications yet\./);
    const left = await t.ctx.db.selectFrom('push_subscriptions').select('owner_id').execute();
    assert.deepEqual(left, []);
  });

  test('the task list’s version changes when a task is released', async () => {
    const t = get();
    t.clock.set('2031-05-02T10:00:00.000Z');
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [accountId] = (await makeActiveAccounts(t, call, 1)) as [string];
    const { worker, b } = await signedIn(t, 'Ana');
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [accountId]);
    const version = async () => {
      const res = await b.get(`${BASE}/tasks/version`);
      assert.equal(res.status, 200);
      return JSON.parse(res.body) as { version: string; open: number };
    };
    const before = await version();
    assert.equal(before.open, 0);
    const list = await b.get(`${BASE}/tasks`);
    assert.match(list.body, new RegExp(`data-version="${before.version}"`));

    const upload = await readyUpload(t, call, 'image.png');
    const post = await call('POST', '/v2/posts', {
      media: [upload],
      accountIds: [accountId],
      skipApproval: true,
    });
    assert.equal(post.status, 201);
    t.clock.set('2031-05-02T11:00:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
    const released = await version();
    assert.equal(released.open, 1);
    assert.notEqual(released.version, before.version);
    assert.deepEqual(await version(), released);

    const signedOut = await t.app.inject({ method: 'GET', url: `${BASE}/tasks/version` });
    assert.equal(signedOut.statusCode, 303);
  });
});
