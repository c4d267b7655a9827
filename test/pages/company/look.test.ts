// The dashboard's finished look through HTTP, on both databases: `GET /` sends a browser to
// the dashboard while API clients keep the JSON envelope, the favicon answers, unknown
// addresses and refusals are designed pages with a way back (for signed-in and signed-out
// visitors, at any depth or with a trailing slash), the header's navigation follows the
// role, stacked tables label every cell, and times read in the reader's timezone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, signIn, userIn } from '../../helpers/dashboard.ts';
import { makeAccounts } from '../../helpers/posts.ts';
import { prefersHtml } from '../../../src/http/errors.ts';
import { createWebhook } from '../../../src/modules/webhooks/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

const CHROME_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let ips = 0;

async function signedIn(t: TestApp, companyId: string, role: UserRole) {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return { b, email: u.email };
}

/** The rows of a page's first `table.log` body, each as its cells' HTML. */
function rowsOf(html: string, tableClass = 'log'): { head: string; cells: string[] }[] {
  const table = new RegExp(`<table class="${tableClass}[^"]*">([\\s\\S]*?)</table>`).exec(html);
  assert.ok(table, `no table.${tableClass}`);
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table[1] as string)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) => {
    const html = row[1] as string;
    const head = /<th scope="row"[^>]*>([\s\S]*?)<\/th>/.exec(html)?.[1] ?? '';
    const cells = [...html.matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/g)]
      // A cell of only buttons and links needs no label.
      .filter(
        (c) =>
          !/row-actions|cell-actions/.test(c[1] as string) &&
          !/^\s*<div class="actions">/.test(c[2] as string),
      )
      .filter((c) => !/^\s*(<% |$)/.test(c[2] as string))
      .map((c) => (c[2] as string).trim());
    return { head, cells };
  });
}

/** Asserts every data cell of every row starts with its label, and each row has a heading. */
function assertLabelled(html: string, what: string, tableClass?: string) {
  const rows = rowsOf(html, tableClass);
  assert.ok(rows.length > 0, `${what}: rows`);
  for (const row of rows) {
    assert.ok(row.head.length > 0, `${what}: a row heading`);
    for (const cell of row.cells) {
      if (cell === '') continue;
      assert.match(cell, /^<span class="cell-label">[^<]+: <\/span>/, `${what}: ${cell}`);
    }
  }
}

describeEachDialect('dashboard look and feel', (get) => {
  test('GET /: a browser is sent to the dashboard, an API client gets the JSON 404', async () => {
    const t = get();
    for (const accept of [CHROME_ACCEPT, FIREFOX_ACCEPT, 'text/html']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url: '/', headers: { accept } });
        assert.equal(res.statusCode, 302, `${method} ${accept}`);
        assert.equal(res.headers.location, '/dashboard/');
      }
    }
    const withQuery = await t.app.inject({
      method: 'GET',
      url: '/?utm=x',
      headers: { accept: 'text/html' },
    });
    assert.equal(withQuery.statusCode, 302);
    for (const headers of [
      {},
      { accept: '*/*' },
      { accept: 'application/json' },
      { accept: 'application/json, text/html' },
      { accept: 'text/html;q=0.5, application/json' },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/', headers });
      assert.equal(res.statusCode, 404, JSON.stringify(headers));
      assert.match(String(res.headers['content-type']), /application\/json/);
      const body = res.json();
      assert.equal(body.error.code, 'not_found');
      assert.equal(body.error.requestId, res.headers['x-request-id']);
    }
    // Only the root: any other unknown address is the envelope for browsers too, and a
    // method other than GET on the root stays a 404.
    const other = await t.app.inject({
      method: 'GET',
      url: '/nothing',
      headers: { accept: CHROME_ACCEPT },
    });
    assert.equal(other.statusCode, 404);
    assert.equal(other.json().error.code, 'not_found');
    const post = await t.app.inject({
      method: 'POST',
      url: '/',
      headers: { accept: CHROME_ACCEPT },
    });
    assert.equal(post.statusCode, 404);
    // Where the browser lands: the dashboard, which sends a signed-out visitor to sign in.
    const landing = await t.app.inject({ method: 'GET', url: '/dashboard/' });
    assert.equal(landing.statusCode, 303);
    assert.match(String(landing.headers.location), /^\/dashboard\/sign-in/);
  });

  test('Accept ranking', () => {
    assert.equal(prefersHtml(undefined), false);
    assert.equal(prefersHtml(''), false);
    assert.equal(prefersHtml('*/*'), false);
    assert.equal(prefersHtml('application/json'), false);
    assert.equal(prefersHtml('text/html, application/json'), false);
    assert.equal(prefersHtml('text/html;q=0, */*'), false);
    assert.equal(prefersHtml('text/html;q=0.8, */*;q=0.9'), false);
    assert.equal(prefersHtml(CHROME_ACCEPT), true);
    assert.equal(prefersHtml(FIREFOX_ACCEPT), true);
    assert.equal(prefersHtml('application/xhtml+xml'), true);
    assert.equal(prefersHtml('text/html;q=0.9, application/json;q=0.5'), true);
  });

  test('the favicon answers at /favicon.ico and as the pages’ linked icon', async () => {
    const t = get();
    const ico = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    assert.equal(ico.statusCode, 200);
    assert.equal(ico.headers['content-type'], 'image/x-icon');
    // An ICO directory (reserved 0, type 1) of PNG images.
    const bytes = ico.rawPayload;
    assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0]);
    assert.ok(bytes.readUInt16LE(4) >= 1);
    assert.ok(bytes.includes(Buffer.from('\x89PNG', 'latin1')));
    const etag = String(ico.headers.etag);
    const again = await t.app.inject({
      method: 'GET',
      url: '/favicon.ico',
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.statusCode, 304);
    assert.equal((await t.app.inject({ method: 'HEAD', url: '/favicon.ico' })).statusCode, 200);

    const signInPage = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in' });
    const link = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(signInPage.body);
    assert.ok(link, 'the layout links the icon');
    const svg = await t.app.inject({ method: 'GET', url: link[1] as string });
    assert.equal(svg.statusCode, 200);
    assert.match(String(svg.headers['content-type']), /^image\/svg\+xml/);
    assert.match(svg.body, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // The header's mark, inline.
    assert.match(signInPage.body, /<a class="brand" href="\/dashboard\/"><svg class="logo"/);
  });

  test('unknown addresses and refusals are pages with a way back', async () => {
    const t = get();
    const co = await seedCompany(t);
    const html = { accept: CHROME_ACCEPT };
    const unknown = [
      '/dashboard/no-such-page',
      '/dashboard/no-such-page/',
      '/dashboard/a/b/c',
      '/dashboard/a/b/c/',
      '/dashboard/tags/x/y/',
      '/dashboard/assets/nothing.css',
    ];
    for (const url of unknown) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      assert.match(res.body, /<h1 id="error-heading">Page not found<\/h1>/, url);
      assert.match(res.body, /There is no page at this address/, url);
      // Signed out: no navigation, a way to sign in.
      assert.doesNotMatch(res.body, /aria-label="Dashboard"/, url);
      assert.match(res.body, /href="\/dashboard\/sign-in">Sign in</, url);
    }
    // A page's address with a slash added goes to the page, query and all.
    const slash = await t.app.inject({ method: 'GET', url: '/dashboard/usage/?x=1' });
    assert.equal(slash.statusCode, 301);
    assert.equal(slash.headers.location, '/dashboard/usage?x=1');

    const viewer = await signedIn(t, co.companyId, 'viewer');
    for (const url of unknown) {
      const res = await viewer.b.get(url);
      assert.equal(res.status, 404, url);
      // Signed in: the navigation and the way back to the dashboard.
      assert.match(res.body, /<nav aria-label="Dashboard">/, url);
      assert.match(res.body, /href="\/dashboard\/approvals">Go to approvals</, url);
      assert.doesNotMatch(res.body, />Sign in</, url);
    }
    const refused = await viewer.b.get('/dashboard/keys');
    assert.equal(refused.status, 403);
    assert.match(refused.body, /<title>Not allowed · Slotline<\/title>/);
    assert.match(refused.body, /<h1 id="error-heading">Not allowed<\/h1>/);
    assert.match(refused.body, /This needs the admin role/);
    assert.match(refused.body, /Go to approvals/);
    const missing = await viewer.b.get('/dashboard/tags/tag_unknown/delete');
    assert.ok([403, 404].includes(missing.status));
    const post = await viewer.b.get('/dashboard/posts/pst_unknown');
    assert.equal(post.status, 404);
    assert.match(post.body, /Page not found/);
  });

  test('the header: the navigation follows the role, with New post, Users and the account', async () => {
    const t = get();
    const co = await seedCompany(t);
    const nav = (html: string) =>
      /<nav aria-label="Dashboard">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    const admin = await signedIn(t, co.companyId, 'admin');
    const page = (await admin.b.get('/dashboard/tags')).body;
    assert.match(
      page,
      /<a class="button primary new-post" href="\/dashboard\/compose">New post<\/a>/,
    );
    assert.match(
      page,
      /<button type="button" class="menu-toggle" aria-expanded="false" aria-controls="site-menu">/,
    );
    assert.match(page, /<div class="site-menu" id="site-menu">/);
    assert.match(nav(page), /<a href="\/dashboard\/tags" aria-current="page">Tags<\/a>/);
    assert.match(
      nav(page),
      /<a href="\/dashboard\/keys">API keys<\/a>\s*<a href="\/dashboard\/users">Users<\/a>/,
    );
    assert.ok(page.includes(admin.email), 'the email is in the header');
    assert.match(page, /<button type="submit">Sign out<\/button>/);
    assert.match(page, /<html lang="en" data-theme="auto">/);

    const editor = await signedIn(t, co.companyId, 'editor');
    const editorPage = (await editor.b.get('/dashboard/approvals')).body;
    assert.match(editorPage, /New post/);
    assert.doesNotMatch(nav(editorPage), /Users|API keys/);
    const viewer = await signedIn(t, co.companyId, 'viewer');
    const viewerPage = (await viewer.b.get('/dashboard/approvals')).body;
    assert.doesNotMatch(viewerPage, /New post/);
    assert.match(nav(viewerPage), /aria-current="page">Approvals/);
  });

  test('stacked tables label every cell; times read in the reader’s timezone', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    await makeAccounts(call, 2);
    assert.equal(
      (await call('POST', '/v2/content-tags', { name: 'Launch', color: 'blue' })).status,
      201,
    );
    await createWebhook(t.ctx, co.companyId, {
      url: 'https://hooks.example.com/look',
      events: ['post.item.posted'],
      description: 'Look',
    });
    const admin = await signedIn(t, co.companyId, 'admin');
    // The browser's timezone, as dashboard.js keeps it (the user chose none).
    admin.b.cookies.set('slotline_tz', 'Asia/Tokyo');

    const accounts = (await admin.b.get('/dashboard/accounts')).body;
    assertLabelled(accounts, 'accounts');
    assert.match(accounts, /<span class="cell-label">Posted today: <\/span>0 of \d+/);
    const keys = (await admin.b.get('/dashboard/keys')).body;
    assertLabelled(keys, 'keys');
    assertLabelled((await admin.b.get('/dashboard/tags')).body, 'tags');
    const webhooks = (await admin.b.get('/dashboard/webhooks')).body;
    assertLabelled(webhooks, 'webhooks');

    // The key seeded at the fake clock's start, shown in Tokyo time (UTC+9), no UTC print.
    const created =
      /<td><span class="cell-label">Created: <\/span><time datetime="([^"]+)">([^<]+)<\/time>/.exec(
        keys,
      );
    assert.ok(created, 'a creation time');
    const iso = created[1] as string;
    const tokyo = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Tokyo',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(iso));
    assert.equal(created[2], tokyo);
    for (const body of [accounts, keys, webhooks, (await admin.b.get('/dashboard/usage')).body]) {
      // The text read, not the machine-readable attributes (<time datetime>).
      const text = body.replace(/<[^>]*>/g, ' ');
      assert.doesNotMatch(text, /\d{4}-\d\d-\d\d[ T]\d\d:\d\d/, 'no ISO time printed');
      assert.doesNotMatch(text, /\(UTC\)/);
    }
    const usage = (await admin.b.get('/dashboard/usage')).body;
    assert.match(usage, /Resets <time datetime="[^"]+">\d+ \w+ \d{4}, \d\d:\d\d GMT\+9<\/time>/);
  });
});
