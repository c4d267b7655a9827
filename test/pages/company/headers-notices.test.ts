// The dashboard's security headers and its notices, on both databases: every kind of answer
// (a page, a redirect, an error page, the sign-in page, the workers' page, an asset, an
// unknown address) carries a CSP that allows nothing inline and no framing; a notice shows
// once after the action that set it, never from the address, and only in its own session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, workerSignIn } from '../../helpers/dashboard.ts';
import { createKey } from '../../../src/modules/keys/index.ts';
import { createWorker } from '../../../src/modules/workers/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;

async function signedIn(t: TestApp, companyId: string, role: UserRole) {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `192.0.2.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return b;
}

/** The policy's directives by name. */
function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}

function assertHeaders(headers: Record<string, unknown>, what: string): void {
  const csp = String(headers['content-security-policy'] ?? '');
  const d = directives(csp);
  assert.equal(d.get('default-src'), "'none'", `${what}: ${csp}`);
  assert.equal(d.get('script-src'), "'self'", what);
  assert.equal(d.get('style-src'), "'self'", what);
  assert.equal(d.get('form-action'), "'self'", what);
  assert.equal(d.get('base-uri'), "'none'", what);
  assert.equal(d.get('frame-ancestors'), "'none'", what);
  assert.equal(d.get('connect-src'), "'self'", what);
  assert.match(d.get('img-src') ?? '', /^'self'( |$)/, what);
  assert.doesNotMatch(csp, /unsafe-|data:|\*/, what);
  assert.equal(headers['x-frame-options'], 'DENY', what);
  assert.equal(headers['x-content-type-options'], 'nosniff', what);
  assert.equal(headers['referrer-policy'], 'same-origin', what);
}

describeEachDialect('dashboard headers and notices', (get) => {
  test('pages, redirects, error pages, sign-in, the workers’ page and assets carry the headers', async () => {
    const t = get();
    const co = await seedCompany(t);
    const inject = (url: string, cookie = '') =>
      t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

    const signInPage = await inject('/dashboard/sign-in');
    assert.equal(signInPage.statusCode, 200);
    assertHeaders(signInPage.headers, 'sign-in page');
    const redirect = await inject('/dashboard/approvals');
    assert.equal(redirect.statusCode, 303);
    assertHeaders(redirect.headers, 'redirect to sign-in');
    const unknown = await inject('/dashboard/no-such-page');
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.body, /There is no page at this address/);
    assertHeaders(unknown.headers, 'unknown address');
    const asset = await inject('/dashboard/assets/dashboard.css');
    assert.equal(asset.statusCode, 200);
    assertHeaders(asset.headers, 'stylesheet');
    const workerSignInPage = await inject('/dashboard/worker/sign-in');
    assert.equal(workerSignInPage.statusCode, 200);
    assertHeaders(workerSignInPage.headers, 'workers’ sign-in');

    const viewer = await signedIn(t, co.companyId, 'viewer');
    const cookie = [...viewer.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const inbox = await inject('/dashboard/approvals', cookie);
    assert.equal(inbox.statusCode, 200);
    assertHeaders(inbox.headers, 'approvals page');
    const refused = await inject('/dashboard/keys', cookie);
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /Not allowed/);
    assertHeaders(refused.headers, '403 page');
    const missing = await inject('/dashboard/posts/pst_unknown', cookie);
    assert.equal(missing.statusCode, 404);
    assertHeaders(missing.headers, '404 page');
    const posted = await t.app.inject({
      method: 'POST',
      url: '/dashboard/tags',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=x',
    });
    assert.equal(posted.statusCode, 403);
    assertHeaders(posted.headers, 'refused POST');

    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ana', timezone: 'UTC' });
    const wb = browser(t, '192.0.2.251');
    assert.equal((await workerSignIn(wb, worker.token)).status, 303);
    const wcookie = [...wb.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const tasks = await inject('/dashboard/worker/tasks', wcookie);
    assert.equal(tasks.statusCode, 200);
    assertHeaders(tasks.headers, 'workers’ tasks');
    const noTask = await inject('/dashboard/worker/tasks/tsk_unknown', wcookie);
    assert.equal(noTask.statusCode, 404);
    assertHeaders(noTask.headers, 'workers’ error page');
  });

  test('a notice in the address shows nothing', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');
    for (const path of ['keys', 'tags', 'approvals', 'accounts', 'workspace', 'schedule']) {
      const page = await admin.get(`/dashboard/${path}?done=Your%20key%20leaked`);
      assert.equal(page.status, 200, path);
      assert.doesNotMatch(page.body, /Your key leaked/, path);
      assert.doesNotMatch(page.body, /class="notice"/, path);
    }
  });

  test('revoking a key shows its notice once, from a flash cookie of that session', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');
    const key = await createKey(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      scopes: ['usage:read'],
      name: 'Old integration',
    });
    const revoke = async () => {
      const confirm = await admin.get(`/dashboard/keys/${key.keyId}/revoke`);
      return t.app.inject({
        method: 'POST',
        url: `/dashboard/keys/${key.keyId}/revoke`,
        remoteAddress: '192.0.2.1',
        headers: {
          cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({ _csrf: hidden(confirm.body, '_csrf') }).toString(),
      });
    };

    const res = await revoke();
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/keys');
    assertHeaders(res.headers, 'redirect after an action');
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const flash = set.find((c) => c.startsWith('slotline_notice='));
    assert.ok(flash, set.join('\n'));
    assert.match(flash, /HttpOnly/i);
    assert.match(flash, /SameSite=Lax/i);
    assert.match(flash, /Path=\/dashboard(;|$)/);
    assert.match(flash, /Max-Age=60(;|$)/);
    const value = (flash.split(';')[0] as string).slice('slotline_notice='.length);

    // Another session of the same company cannot show it, nor can a forged cookie.
    const other = await signedIn(t, co.companyId, 'admin');
    other.cookies.set('slotline_notice', value);
    assert.doesNotMatch((await other.get('/dashboard/keys')).body, /class="notice"/);
    assert.equal(other.cookies.has('slotline_notice'), false, 'a foreign flash is cleared');
    const [payload, mac] = value.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(['Your key leaked', 4102444800])).toString(
      'base64url',
    );
    for (const bad of [`${forged}.${mac}`, forged, `${payload}.x`, 'Your%20key%20leaked']) {
      admin.cookies.set('slotline_notice', bad);
      const page = await admin.get('/dashboard/keys');
      assert.doesNotMatch(page.body, /class="notice"/, bad);
    }

    // Its own session shows it once; a reload shows it no more.
    admin.cookies.set('slotline_notice', value);
    const shown = await admin.get('/dashboard/keys');
    assert.match(
      shown.body,
      /<p class="notice" role="status">Key “Old integration” revoked\.<\/p>/,
    );
    assert.equal(admin.cookies.has('slotline_notice'), false);
    const reload = await admin.get('/dashboard/keys');
    assert.doesNotMatch(reload.body, /class="notice"/);

    // A flash left unshown past its minute shows nothing, even if the browser kept it.
    admin.cookies.set('slotline_notice', value);
    t.clock.advance(61_000);
    assert.doesNotMatch((await admin.get('/dashboard/keys')).body, /class="notice"/);
  });

  test('creating a tag shows its notice on the page it leads to, then not on reload', async () => {
    const t = get();
    const co = await seedCompany(t);
    const editor = await signedIn(t, co.companyId, 'editor');
    const form = await editor.get('/dashboard/tags');
    const created = await editor.post('/dashboard/tags', {
      _csrf: hidden(form.body, '_csrf'),
      name: 'Launch',
      color: 'blue',
    });
    assert.equal(created.status, 303);
    assert.equal(created.location, '/dashboard/tags');
    const shown = await editor.get('/dashboard/tags');
    assert.match(shown.body, /role="status">Tag “Launch” created\.</);
    assert.doesNotMatch((await editor.get('/dashboard/tags')).body, /class="notice"/);
  });
});

test('no template has inline script, style or event-handler attributes', async () => {
  // The dashboard's templates and the workers' app's, which share its headers.
  const dirs = ['company', 'worker'].map(
    (app) => new URL(`../../../src/pages/${app}/views/`, import.meta.url),
  );
  const files: [URL, string][] = [];
  for (const dir of dirs) {
    for (const name of await readdir(dir)) if (name.endsWith('.eta')) files.push([dir, name]);
  }
  assert.ok(files.length > 50);
  for (const [dir, file] of files) {
    // The markup only: the templates' own code (`<% ... %>`) is not HTML.
    const text = (await readFile(new URL(file, dir), 'utf8')).replace(/<%[\s\S]*?%>/g, '');
    assert.doesNotMatch(text, /<script(?![^>]*\ssrc=)[^>]*>/i, `${file}: inline <script>`);
    assert.doesNotMatch(text, /<style[\s>]/i, `${file}: <style> element`);
    assert.doesNotMatch(text, /\sstyle\s*=/i, `${file}: style attribute`);
    assert.doesNotMatch(text, /\son[a-z]+\s*=/i, `${file}: event-handler attribute`);
    assert.doesNotMatch(text, /\shx-on[:-]|javascript:/i, `${file}: script in an attribute`);
  }
});
