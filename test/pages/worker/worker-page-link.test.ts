// The workers' app's sign-in links and its installable parts, through HTTP on both
// databases: opening a link shows a button and uses nothing; the button's POST (with its
// double-submit token) signs the phone in once; a used, expired or voided link says to ask
// for a new one. The manifest, its icons and the policy that lets the page load them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { browser, hidden } from '../../helpers/dashboard.ts';
import { MAX_FAILURES_PER_ADDRESS } from '../../../src/modules/sign-in/index.ts';
import {
  createWorker,
  createWorkerSignInLink,
  rotateWorkerToken,
} from '../../../src/modules/workers/index.ts';
import { TASKS, WBASE } from './worker-page.helpers.ts';

const SPENT = /This sign-in link cannot be used[\s\S]*Ask your operator for a new sign-in link/;

describeEachDialect('workers app: sign-in links', (get) => {
  const newLink = async (name = 'Ana') => {
    const t = get();
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name, timezone: 'Europe/Lisbon' });
    const link = await createWorkerSignInLink(
      t.ctx.db,
      t.ctx.clock,
      worker.workerId,
      t.config.publicUrl,
    );
    const url = new URL(link.url);
    return { worker, path: url.pathname + url.search, token: url.searchParams.get('token') ?? '' };
  };

  test('opening a link shows a button and uses nothing; the button signs the phone in once', async () => {
    const t = get();
    const { path, token, worker } = await newLink();
    assert.equal(path.split('?')[0], `${WBASE}/link`);
    const b = browser(t, '198.51.100.40');
    // A preview or a scanner fetching the address twice leaves it usable.
    for (let i = 0; i < 2; i++) {
      const page = await b.get(path);
      assert.equal(page.status, 200, page.body);
      assert.match(
        page.body,
        /<button type="submit" class="primary big">Sign in on this phone<\/button>/,
      );
      assert.match(page.body, /as <strong>Ana<\/strong>/);
      assert.match(page.body, /<form method="post" action="\/dashboard\/worker\/link">/);
      assert.equal(hidden(page.body, 'token'), token);
      assert.ok(!b.cookies.has('slotline_worker_session'));
    }
    const page = await b.get(path);
    const res = await b.post(`${WBASE}/link`, { _csrf: hidden(page.body, '_csrf'), token });
    assert.equal(res.status, 303);
    assert.equal(res.location, TASKS);
    assert.ok(b.cookies.has('slotline_worker_session'));
    assert.ok(!b.cookies.has('slotline_worker_sign_in'), 'the form token is spent');
    for (const value of b.cookies.values())
      assert.ok(!value.includes(token), 'no link in a cookie');
    const tasks = await b.get(TASKS);
    assert.equal(tasks.status, 200);
    assert.match(tasks.body, /role="status">Signed in as Ana\.</);
    assert.match(tasks.body, /Sign out<span class="visually-hidden"> Ana<\/span>/);
    assert.equal(worker.name, 'Ana');

    // The same link again, on this phone or another: refused, with what to do.
    const again = await b.get(path);
    assert.equal(again.status, 410);
    assert.match(again.body, SPENT);
    assert.doesNotMatch(again.body, /name="token"/);
    const other = browser(t, '198.51.100.41');
    const form = await other.get(`${WBASE}/sign-in`);
    const reused = await other.post(`${WBASE}/link`, { _csrf: hidden(form.body, '_csrf'), token });
    assert.equal(reused.status, 410);
    assert.match(reused.body, SPENT);
    assert.ok(!other.cookies.has('slotline_worker_session'));
  });

  test('an expired link and a link voided by a new token are refused', async () => {
    const t = get();
    const b = browser(t, '198.51.100.42');
    const expired = await newLink('Bea');
    const page = await b.get(expired.path);
    assert.equal(page.status, 200);
    t.clock.advance(24 * 3_600_000);
    assert.equal((await b.get(expired.path)).status, 410);
    const late = await b.post(`${WBASE}/link`, {
      _csrf: hidden(page.body, '_csrf'),
      token: expired.token,
    });
    assert.equal(late.status, 410);
    assert.match(late.body, SPENT);

    const voided = await newLink('Cai');
    const open = await b.get(voided.path);
    assert.equal(open.status, 200);
    await rotateWorkerToken(t.ctx.db, t.ctx.clock, voided.worker.workerId);
    assert.match((await b.get(voided.path)).body, SPENT);
    const res = await b.post(`${WBASE}/link`, {
      _csrf: hidden(open.body, '_csrf'),
      token: voided.token,
    });
    assert.equal(res.status, 410);
    assert.ok(!b.cookies.has('slotline_worker_session'));

    // No token, or one that never was: the same page.
    assert.equal((await b.get(`${WBASE}/link`)).status, 410);
    assert.equal((await b.get(`${WBASE}/link?token=nothing`)).status, 410);
  });

  test('the button needs its form token; wrong links count against the address', async () => {
    const t = get();
    const { path, token } = await newLink('Dan');
    const b = browser(t, '198.51.100.43');
    await b.get(path);
    const forged = await b.post(`${WBASE}/link`, { _csrf: 'forged', token });
    assert.equal(forged.status, 403);
    assert.match(forged.body, /This form has expired/);
    assert.equal((await b.get(path)).status, 200, 'a refused form leaves the link usable');

    const guesser = browser(t, '198.51.100.44');
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      const form = await guesser.get(`${WBASE}/sign-in`);
      const res = await guesser.post(`${WBASE}/link`, {
        _csrf: hidden(form.body, '_csrf'),
        token: `guess-${i}`,
      });
      assert.equal(res.status, 410);
    }
    const page = await guesser.get(path);
    const limited = await guesser.post(`${WBASE}/link`, {
      _csrf: hidden(page.body, '_csrf'),
      token,
    });
    assert.equal(limited.status, 429);
    assert.match(limited.body, /Too many failed sign-ins/);
    assert.match(limited.body, /Sign in on this phone<\/button>/, 'the link stays for later');
    assert.ok(!guesser.cookies.has('slotline_worker_session'));
  });

  test('the app is installable: manifest, icons, and a policy that loads them', async () => {
    const t = get();
    const page = await t.app.inject({ method: 'GET', url: `${WBASE}/sign-in` });
    assert.match(
      page.body,
      /<link rel="manifest" href="\/dashboard\/assets\/worker\.webmanifest">/,
    );
    assert.match(
      page.body,
      /<link rel="apple-touch-icon" href="\/dashboard\/assets\/worker-icon-180\.png">/,
    );
    assert.match(page.body, /<meta name="theme-color" content="#0b5cad">/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /manifest-src 'self'/);

    const res = await t.app.inject({ method: 'GET', url: '/dashboard/assets/worker.webmanifest' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/manifest\+json/);
    const manifest = res.json();
    assert.equal(manifest.start_url, TASKS);
    assert.equal(manifest.display, 'standalone');
    assert.equal(manifest.short_name, 'Slotline');
    assert.ok(manifest.name && manifest.theme_color);
    const sizes = new Set<string>();
    for (const icon of manifest.icons as { src: string; sizes: string; type: string }[]) {
      const png = await t.app.inject({ method: 'GET', url: icon.src });
      assert.equal(png.statusCode, 200, icon.src);
      assert.equal(png.headers['content-type'], 'image/png');
      // The PNG's own width and height (IHDR) are the declared size.
      const side = png.rawPayload.readUInt32BE(16);
      assert.equal(`${side}x${png.rawPayload.readUInt32BE(20)}`, icon.sizes, icon.src);
      sizes.add(icon.sizes);
    }
    assert.ok(sizes.has('192x192') && sizes.has('512x512'));
    const touch = await t.app.inject({
      method: 'GET',
      url: '/dashboard/assets/worker-icon-180.png',
    });
    assert.equal(touch.statusCode, 200);
    assert.equal(touch.rawPayload.readUInt32BE(16), 180);
    // Only the app's own files are served from there.
    const other = await t.app.inject({
      method: 'GET',
      url: '/dashboard/assets/worker-icon-64.png',
    });
    assert.equal(other.statusCode, 404);
  });
});
