// The pages' stylesheets and scripts go out minified, with an ETag that answers 304, and only
// the assets a page family allows; every asset whole, whatever Range asks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp('sqlite');
});
after(() => t.close());

test('stylesheets and scripts are minified and revalidated by ETag', async () => {
  for (const [path, file, type] of [
    ['/dashboard/assets/kit.css', 'src/pages/kit/assets/kit.css', 'text/css'],
    ['/dashboard/assets/dashboard.css', 'src/pages/company/assets/dashboard.css', 'text/css'],
    ['/dashboard/assets/dashboard.js', 'src/pages/kit/assets/dashboard.js', 'text/javascript'],
    ['/dashboard/assets/compose.js', 'src/pages/company/assets/compose.js', 'text/javascript'],
    ['/dashboard/assets/worker.css', 'src/pages/worker/assets/worker.css', 'text/css'],
    ['/dashboard/assets/worker.js', 'src/pages/worker/assets/worker.js', 'text/javascript'],
    ['/operator/assets/operator.css', 'src/pages/operator/assets/operator.css', 'text/css'],
    ['/operator/assets/kit.css', 'src/pages/kit/assets/kit.css', 'text/css'],
  ] as const) {
    const source = await readFile(file);
    const res = await t.app.inject({ url: path });
    assert.equal(res.statusCode, 200, path);
    assert.equal(res.headers['content-type'], `${type}; charset=utf-8`);
    assert.ok(res.rawPayload.length < source.length * 0.85, `${path} is minified`);
    assert.ok(!res.body.includes('/*'), `${path} carries no comments`);
    assert.equal(res.headers['cache-control'], 'public, max-age=3600');
    const etag = res.headers.etag as string;
    assert.match(etag, /^"[\w-]{22}"$/);
    const again = await t.app.inject({ url: path, headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304, path);
    assert.equal(again.rawPayload.length, 0);
  }
  // Already minified files come from the static files; others are not served at all.
  const htmx = await t.app.inject({ url: '/dashboard/assets/htmx.min.js' });
  assert.equal(htmx.statusCode, 200);
  assert.equal((await t.app.inject({ url: '/dashboard/assets/operator.css' })).statusCode, 404);
  assert.equal((await t.app.inject({ url: '/operator/assets/worker.js' })).statusCode, 404);
  // Each app serves the kit's stylesheet and its own, never another app's.
  assert.equal((await t.app.inject({ url: '/operator/assets/dashboard.css' })).statusCode, 404);
});

test('assets go out whole whatever Range asks, never as an error page', async () => {
  for (const path of [
    '/dashboard/assets/worker-icon-180.png',
    '/dashboard/assets/favicon.svg',
    '/dashboard/assets/htmx.min.js',
    '/dashboard/assets/dashboard.css',
  ]) {
    const whole = await t.app.inject({ url: path });
    assert.equal(whole.statusCode, 200, path);
    const size = whole.rawPayload.length;
    // A suffix longer than the file and a start past its end were a 500 page before.
    for (const range of [`bytes=-${size + 100}`, `bytes=${size}-`, 'bytes=0-0', 'bytes=-10']) {
      const res = await t.app.inject({ url: path, headers: { range } });
      assert.equal(res.statusCode, 200, `${path} ${range}`);
      assert.equal(res.headers['content-range'], undefined, `${path} ${range}`);
      assert.ok(res.rawPayload.equals(whole.rawPayload), `${path} ${range}`);
    }
  }
});
