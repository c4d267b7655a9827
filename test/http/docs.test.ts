// GET /docs: the API reference page. Public, every asset of this service, the document it
// renders unchanged by it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../helpers/app.ts';

describe('API reference page', { timeout: 60_000 }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(async () => t.close());

  test('GET /docs answers HTML without an API key, referencing only local assets', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    const csp = res.headers['content-security-policy'] as string;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(res.body, /<redoc spec-url="\/v2\/openapi\.json"><\/redoc>/);
    const refs = [...res.body.matchAll(/(?:src|href|spec-url)="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(refs, ['data:,', '/v2/openapi.json', '/docs/assets/redoc.standalone.js']);
    assert.doesNotMatch(res.body, /https?:\/\//);
  });

  test('the Redoc bundle is served as JavaScript, cacheable, compressed, with no CDN logo', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/assets/redoc.standalone.js' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /javascript/);
    assert.match(res.headers['cache-control'] as string, /max-age=86400/);
    assert.ok(res.rawPayload.length > 500_000);
    assert.doesNotMatch(res.body, /cdn\.redoc\.ly/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/docs/assets/redoc.standalone.js',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    assert.equal(again.statusCode, 304);
    const gz = await t.app.inject({
      method: 'GET',
      url: '/docs/assets/redoc.standalone.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gz.rawPayload.length < res.rawPayload.length / 2);
  });

  test('nothing else of the package is served, and the page is not an API operation', async () => {
    for (const url of [
      '/docs/assets/redoc.standalone.js.map',
      '/docs/assets/redoc.lib.js',
      '/docs/assets/../package.json',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
    }
    const doc = (await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    const paths = Object.keys(doc.paths as Record<string, unknown>);
    assert.ok(paths.length > 0);
    assert.ok(
      paths.every((p) => !p.startsWith('/docs')),
      paths.join(' '),
    );
  });

  test('the dashboard links to the page from every page, outside htmx boosting', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in' });
    assert.equal(res.statusCode, 200);
    assert.match(
      res.body,
      /<footer class="foot" hx-boost="false">\s*<a href="\/docs">API reference<\/a>/,
    );
  });
});
