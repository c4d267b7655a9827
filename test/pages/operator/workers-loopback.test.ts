// A PUBLIC_URL on a loopback address: the console still makes the worker's phone link and
// its QR code, and says beside them that a phone cannot open it and what to set instead.
// (Under a public address there is no such warning: workers.test.ts checks that.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { hidden, type Browser } from '../../helpers/dashboard.ts';
import { enrolledOperator } from '../../helpers/operator.ts';

async function submit(b: Browser, pageUrl: string, action: string, form: Record<string, string>) {
  const page = await b.get(pageUrl);
  assert.equal(page.status, 200, `${pageUrl}: ${page.status}`);
  return b.post(action, { _csrf: hidden(page.body, '_csrf'), ...form });
}

const WARNING =
  /<p class="alert" role="alert" id="link-unreachable"><strong>A phone cannot open this link\.<\/strong>/;

describeEachDialect(
  'operator console: worker phone links under a loopback PUBLIC_URL',
  (get) => {
    test('the new worker’s link and QR code carry a warning saying what to set', async () => {
      const op = await enrolledOperator(get(), 'Lou');
      const b = op.browser;
      const created = await submit(b, '/operator/workers', '/operator/workers', {
        name: 'Ana',
        timezone: 'UTC',
      });
      assert.equal(created.status, 200, created.body);
      assert.match(created.body, WARNING);
      assert.match(created.body, /It starts with <code>http:\/\/localhost:3000<\/code>/);
      assert.match(created.body, /Set <code>PUBLIC_URL<\/code> to the address phones reach/);
      assert.match(created.body, /make a new phone link/);
      // The link and its code are still shown: a phone on this machine's browser may use it.
      assert.match(created.body, /id="worker-link"[^>]*value="http:\/\/localhost:3000\//);
      assert.match(created.body, /<svg class="qr"/);

      const id = /href="\/operator\/workers\/(wrk_\w+)"/.exec(created.body)?.[1] as string;
      const page = `/operator/workers/${id}`;
      const linked = await submit(b, page, `${page}/link`, {});
      assert.equal(linked.status, 200);
      assert.match(linked.body, WARNING, 'a new phone link warns too');

      const rotated = await submit(b, `${page}/rotate`, `${page}/rotate`, {});
      assert.equal(rotated.status, 200);
      assert.doesNotMatch(
        rotated.body,
        /A phone cannot open this link/,
        'a token alone has no link',
      );
    });
  },
  { env: { PUBLIC_URL: 'http://localhost:3000' } },
);
