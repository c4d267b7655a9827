// Push on the dashboard through HTTP, on both databases: the service worker is served to
// anyone at the dashboard's scope; a browser's subscription is registered and removed by
// the page's script with the session's CSRF token (refused signed out or without it, bad
// bodies answered with the error envelope naming the field), kept as the user's (audience
// 'user', the user's company), counted on the page, and another user's device is never
// touched by a removal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, signIn, userIn, type Browser, scriptRequest } from '../../helpers/dashboard.ts';
import { describeEachDialect } from '../../helpers/dialects.ts';

const BASE = '/dashboard';
const P256DH = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
const AUTH = Buffer.alloc(16, 9).toString('base64url');
let ips = 0;

function subscription(endpoint: string) {
  return { endpoint, keys: { p256dh: P256DH, auth: AUTH }, expirationTime: null };
}

async function signedIn(t: TestApp, companyId: string) {
  const u = await userIn(t, companyId, 'admin');
  const b = browser(t, `198.51.100.${(++ips % 200) + 20}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const page = await b.get(`${BASE}/notifications`);
  assert.equal(page.status, 200, page.body);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  assert.ok(csrf, 'the page carries the CSRF token for its script');
  return { b, csrf, ...u };
}

/** A JSON request of the page's script: the session's cookies and the CSRF header. */
function send(t: TestApp, b: Browser, method: 'PUT' | 'DELETE', body: unknown, csrf?: string) {
  return scriptRequest(t, b, method, `${BASE}/push-subscription`, body, csrf);
}

describeEachDialect('dashboard push', (get) => {
  test('the service worker is served at the dashboard’s scope without a session', async () => {
    const t = get();
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/sw.js` });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/javascript/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.match(res.body, /addEventListener\('notificationclick'/);
    assert.match(res.body, /self\.registration\.scope/);
  });

  test('devices registered, counted, removed; session, CSRF, body and owner checked', async () => {
    const t = get();
    t.clock.set('2031-05-01T10:00:00.000Z');
    const co = await seedCompany(t);
    const elsewhere = await seedCompany(t, { name: 'Other Co' });
    const me = await signedIn(t, co.companyId);
    const colleague = await signedIn(t, co.companyId);
    const stranger = await signedIn(t, elsewhere.companyId);
    const phone = 'https://fcm.googleapis.com/fcm/send/phone-1';
    const laptop = 'https://updates.push.services.mozilla.com/wpush/v2/laptop-1';

    const page = await me.b.get(`${BASE}/notifications`);
    assert.match(page.body, /Turn on push on this device/);
    assert.match(page.body, /Turn off on this device/);
    assert.match(page.body, new RegExp(`data-key="${t.ctx.vapid.publicKey}"`));
    assert.match(page.body, /No device gets your pushes yet\./);
    assert.match(page.body, /Notifications are blocked for this site/);

    // Signed out: sent to sign in, nothing kept.
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: `${BASE}/push-subscription`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(subscription(phone)),
    });
    assert.equal(anonymous.statusCode, 303);
    const forged = await send(t, me.b, 'PUT', subscription(phone));
    assert.equal(forged.statusCode, 403);
    const rows = () =>
      t.ctx.db
        .selectFrom('push_subscriptions')
        .select(['audience', 'owner_id', 'company_id', 'endpoint'])
        .orderBy('endpoint')
        .execute();
    assert.equal((await rows()).length, 0);

    const badKey = await send(
      t,
      me.b,
      'PUT',
      { ...subscription(phone), keys: { p256dh: 'AAAA', auth: AUTH } },
      me.csrf,
    );
    assert.equal(badKey.statusCode, 400);
    assert.match(badKey.body, /\/keys\/p256dh must be 65 bytes/);
    const plain = await send(t, me.b, 'PUT', subscription('mailto:push@example.net'), me.csrf);
    assert.equal(plain.statusCode, 400);
    assert.match(plain.body, /endpoint/);
    const missing = await send(t, me.b, 'PUT', { endpoint: phone }, me.csrf);
    assert.equal(missing.statusCode, 400);
    assert.match(missing.body, /keys/);
    assert.equal((await rows()).length, 0);

    const put = await send(t, me.b, 'PUT', subscription(phone), me.csrf);
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(JSON.parse(put.body), { endpoint: phone, devices: 1 });
    const again = await send(t, me.b, 'PUT', subscription(laptop), me.csrf);
    assert.deepEqual(JSON.parse(again.body), { endpoint: laptop, devices: 2 });
    assert.equal(
      (await send(t, colleague.b, 'PUT', subscription(phone + '-c'), colleague.csrf)).statusCode,
      200,
    );
    assert.deepEqual(
      (await rows()).filter((r) => r.owner_id === me.user.userId),
      [
        { audience: 'user', owner_id: me.user.userId, company_id: co.companyId, endpoint: phone },
        { audience: 'user', owner_id: me.user.userId, company_id: co.companyId, endpoint: laptop },
      ],
    );
    assert.match((await me.b.get(`${BASE}/notifications`)).body, /2 devices get your pushes\./);
    assert.match(
      (await colleague.b.get(`${BASE}/notifications`)).body,
      /1 device gets your pushes\./,
    );

    // Another user, in the company or not, removes nothing of mine: the same answer.
    assert.equal(
      (await send(t, colleague.b, 'DELETE', { endpoint: phone }, colleague.csrf)).statusCode,
      204,
    );
    assert.equal(
      (await send(t, stranger.b, 'DELETE', { endpoint: phone }, stranger.csrf)).statusCode,
      204,
    );
    assert.equal((await rows()).length, 3);

    assert.equal((await send(t, me.b, 'DELETE', { endpoint: phone })).statusCode, 403);
    const gone = await send(t, me.b, 'DELETE', subscription(phone), me.csrf);
    assert.equal(gone.statusCode, 204);
    assert.deepEqual(
      (await rows()).map((r) => r.endpoint),
      [phone + '-c', laptop],
    );
    assert.match((await me.b.get(`${BASE}/notifications`)).body, /1 device gets your pushes\./);
  });
});
