// The dashboard through HTTP: sign-in and sign-out, wrong passwords and their limits, CSRF,
// session expiry, disabled users, roles and other companies' ids, on both databases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, pageShape } from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload } from '../../helpers/posts.ts';
import { disableUser } from '../../../src/modules/users/index.ts';
import { SESSION_IDLE_MS } from '../../../src/lib/session-times.ts';

describeEachDialect('dashboard sign-in', (get) => {
  test('pages need a session; sign-in, a page, sign-out', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    const b = browser(t);
    const anonymous = await b.get('/dashboard/approvals');
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.location, '/dashboard/sign-in?next=%2Fdashboard%2Fapprovals');

    const signedIn = await signIn(b, u.email.toUpperCase(), u.password);
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.location, '/dashboard/approvals');
    assert.ok(b.cookies.has('slotline_session'));
    const inbox = await b.get('/dashboard/approvals');
    assert.equal(inbox.status, 200);
    assert.match(inbox.body, /Nothing is waiting for approval/);
    assert.match(inbox.body, new RegExp(`${u.email} · viewer`));

    const out = await b.post('/dashboard/sign-out', { _csrf: hidden(inbox.body, '_csrf') });
    assert.equal(out.status, 303);
    assert.equal((await b.get('/dashboard/approvals')).status, 303);
  });

  test('the session cookie is HttpOnly, SameSite=Lax, scoped to /dashboard', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    const form = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in' });
    const token = /name="_csrf" value="([^"]*)"/.exec(form.body)?.[1] as string;
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/sign-in',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `slotline_sign_in=${token}`,
      },
      payload: new URLSearchParams({
        _csrf: token,
        email: u.email,
        password: u.password,
      }).toString(),
    });
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const session = set.find((c) => c.startsWith('slotline_session='));
    assert.ok(session);
    assert.match(session, /HttpOnly/i);
    assert.match(session, /SameSite=Lax/i);
    assert.match(session, /Path=\/dashboard/);
    assert.doesNotMatch(session, /Secure/);
  });

  test('wrong passwords are refused alike, then limited per account', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'editor');
    const b = browser(t);
    const unknown = await signIn(b, 'nobody@example.com', 'whatever-password');
    const wrong = await signIn(b, u.email, 'not-the-password');
    assert.equal(unknown.status, 401);
    assert.equal(wrong.status, 401);
    assert.match(wrong.body, /Wrong email or password/);
    // Five failures of the account in the window: the fifth is the limit.
    for (let i = 0; i < 4; i++) await signIn(b, u.email, 'not-the-password');
    const limited = await signIn(b, u.email, u.password);
    assert.equal(limited.status, 429);
    assert.match(limited.body, /Too many failed sign-ins/);
    assert.ok(!b.cookies.has('slotline_session'));
    t.clock.advance(16 * 60 * 1000);
    assert.equal((await signIn(b, u.email, u.password)).status, 303);
  });

  test('a sign-in without its form token is refused', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    const b = browser(t);
    await b.get('/dashboard/sign-in');
    const res = await b.post('/dashboard/sign-in', { email: u.email, password: u.password });
    assert.equal(res.status, 403);
    assert.ok(!b.cookies.has('slotline_session'));
  });

  test('state changes without the CSRF token are refused', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'editor');
    const b = browser(t);
    await signIn(b, u.email, u.password);
    const res = await b.post('/dashboard/sign-out', { _csrf: 'forged' });
    assert.equal(res.status, 403);
    assert.match(res.body, /This form has expired/);
    assert.equal((await b.get('/dashboard/approvals')).status, 200);
  });

  test('sessions expire when idle; a disabled user is out at the next request', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    const b = browser(t);
    await signIn(b, u.email, u.password);
    t.clock.advance(SESSION_IDLE_MS + 1000);
    assert.equal((await b.get('/dashboard/approvals')).status, 303);

    await signIn(b, u.email, u.password);
    assert.equal((await b.get('/dashboard/approvals')).status, 200);
    await disableUser(t.ctx.db, t.ctx.clock, u.user.userId);
    assert.equal((await b.get('/dashboard/approvals')).status, 303);
    assert.equal((await signIn(b, u.email, u.password)).status, 401);
  });

  test('editors approve; viewers may not; another company’s post is not found', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b2] = (await makeAccounts(call, 2)) as [string, string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const post = (await call('POST', '/v2/posts', { media: [video], accountIds: [a, b2] })).body;

    const viewer = await userIn(t, co.companyId, 'viewer');
    const vb = browser(t, '203.0.113.8');
    await signIn(vb, viewer.email, viewer.password);
    const seen = await vb.get('/dashboard/approvals');
    assert.match(seen.body, new RegExp(post.postId));
    const refused = await vb.post('/dashboard/approvals/decide', {
      _csrf: hidden(seen.body, '_csrf'),
      post: post.postId,
      outcome: 'approve',
    });
    assert.equal(refused.status, 403);

    const other = await seedCompany(t);
    const stranger = await userIn(
      t,
      other.companyId,
      'admin',
      `stranger-${Date.now()}@example.com`,
    );
    const sb = browser(t, '203.0.113.9');
    await signIn(sb, stranger.email, stranger.password);
    const strangerPage = await sb.get('/dashboard/approvals');
    assert.doesNotMatch(strangerPage.body, new RegExp(post.postId));
    const notFound = await sb.post('/dashboard/approvals/decide', {
      _csrf: hidden(strangerPage.body, '_csrf'),
      post: post.postId,
      outcome: 'approve',
    });
    assert.equal(notFound.status, 404);
    const unknown = await sb.post('/dashboard/approvals/decide', {
      _csrf: hidden(strangerPage.body, '_csrf'),
      post: 'pst_unknown',
      outcome: 'approve',
    });
    assert.equal(unknown.status, 404);
    assert.equal(pageShape(notFound.body), pageShape(unknown.body));

    const editor = await userIn(t, co.companyId, 'editor');
    const eb = browser(t, '203.0.113.10');
    await signIn(eb, editor.email, editor.password);
    const inbox = await eb.get('/dashboard/approvals');
    t.clock.advance(60_000);
    const one = await eb.post('/dashboard/approvals/decide', {
      _csrf: hidden(inbox.body, '_csrf'),
      item: `${post.postId}:${a}`,
      outcome: 'approve',
    });
    assert.equal(one.status, 303);
    assert.equal(one.location, '/dashboard/approvals');
    assert.match((await eb.get('/dashboard/approvals')).body, /role="status">1 approved</);
    const api = (await call('GET', `/v2/posts/${post.postId}`)).body;
    const byId = Object.fromEntries(
      api.accounts.map((x: { accountId: string }) => [x.accountId, x]),
    );
    assert.equal(byId[a].status, 'queued');
    assert.equal(byId[a].approvedAt, t.clock.now().toISOString());
    assert.equal(byId[b2].status, 'pending_approval');

    // Rejecting first asks to confirm, with a reason; only then does it reject.
    const ask = await eb.post('/dashboard/approvals/decide', {
      _csrf: hidden(inbox.body, '_csrf'),
      post: post.postId,
      outcome: 'reject',
    });
    assert.equal(ask.status, 200);
    assert.match(ask.body, /name="reason"/);
    assert.equal((await call('GET', `/v2/posts/${post.postId}`)).body.status, 'pending_approval');
    const rest = await eb.post('/dashboard/approvals/decide', {
      _csrf: hidden(inbox.body, '_csrf'),
      post: post.postId,
      outcome: 'reject',
      reason: 'Not on brand',
    });
    assert.equal(rest.status, 303);
    assert.equal((await call('GET', `/v2/posts/${post.postId}`)).body.status, 'queued');
    const log = await eb.get('/dashboard/activity');
    assert.match(log.body, /post\.approved/);
    assert.match(log.body, /post\.rejected/);
    assert.match(log.body, new RegExp(editor.email));
  });

  test('assets come from the service, without a session; nothing else of the tree does', async () => {
    const t = get();
    for (const [url, type] of [
      ['/dashboard/assets/kit.css', 'text/css'],
      ['/dashboard/assets/dashboard.css', 'text/css'],
      ['/dashboard/assets/dashboard.js', 'text/javascript'],
      ['/dashboard/assets/htmx.min.js', 'application/javascript'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), new RegExp(type));
    }
    for (const url of ['/dashboard/assets/layout.eta', '/dashboard/assets/../views/layout.eta']) {
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 404, url);
    }
  });

  test('pages go out compressed, each with a fresh masking of the same CSRF token', async () => {
    const t = get();
    const co = await seedCompany(t);
    const u = await userIn(t, co.companyId, 'viewer');
    const b = browser(t, '203.0.113.20');
    await signIn(b, u.email, u.password);
    const one = await b.get('/dashboard/approvals');
    const two = await b.get('/dashboard/approvals');
    const [m1, m2] = [hidden(one.body, '_csrf'), hidden(two.body, '_csrf')];
    assert.notEqual(m1, m2);
    // Both maskings are accepted: signing out with the older one works.
    assert.equal((await b.post('/dashboard/sign-out', { _csrf: m1 })).status, 303);
    const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const css = await t.app.inject({
      method: 'GET',
      url: '/dashboard/assets/dashboard.css',
      headers: { 'accept-encoding': 'gzip', cookie },
    });
    assert.equal(css.headers['content-encoding'], 'gzip');
  });

  test('dashboard routes stay out of the API document', async () => {
    const t = get();
    const doc = (await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/dashboard')));
  });
  test('the inbox plays a video post from a signed URL and shows each account’s next window', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a] = (await makeAccounts(call, 1)) as [string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const post = (await call('POST', '/v2/posts', { media: [video], accountIds: [a] })).body;
    const viewer = await userIn(t, co.companyId, 'viewer');
    const vb = browser(t, '203.0.113.10');
    await signIn(vb, viewer.email, viewer.password);
    const inbox = await vb.get('/dashboard/approvals');
    assert.equal(inbox.status, 200);
    assert.match(inbox.body, new RegExp(post.postId));
    assert.match(inbox.body, /<video controls preload="none"/);
    assert.match(
      inbox.body,
      /approve by <time datetime="[^"]+Z">[^<]+<\/time> for its next window/,
    );
    const src = /<source src="([^"]+)" type="video\/mp4">/.exec(inbox.body);
    assert.ok(src, 'no video source');
    const url = new URL((src[1] as string).replaceAll('&amp;', '&'));
    assert.match(url.search, /signature=/);
    const bytes = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    assert.equal(bytes.statusCode, 200);
    assert.equal(bytes.headers['content-type'], 'video/mp4');
    const fixture = await readFile(
      new URL('../../fixtures/media/h264-noaudio.mp4', import.meta.url),
    );
    assert.deepEqual(bytes.rawPayload, fixture);
  });
});
