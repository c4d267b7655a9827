// What every operator console response carries and how its pages answer what browsers
// send: the pages' security headers (on redirects, error pages and assets too), templates
// with nothing inline, the QR code drawn in the page, and hostile or malformed input
// answered with a page that says what is wrong, never a 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { hidden } from '../../helpers/dashboard.ts';
import { enrolledOperator } from '../../helpers/operator.ts';
import { ADMIN_CLI, createOperator } from '../../../src/modules/operators/index.ts';

function assertHeaders(headers: Record<string, unknown>, what: string): void {
  const csp = String(headers['content-security-policy'] ?? '');
  assert.match(csp, /default-src 'none'/, what);
  assert.match(csp, /script-src 'self'/, what);
  assert.match(csp, /style-src 'self'/, what);
  assert.match(csp, /frame-ancestors 'none'/, what);
  assert.equal(headers['x-frame-options'], 'DENY', what);
  assert.equal(headers['x-content-type-options'], 'nosniff', what);
  assert.equal(headers['referrer-policy'], 'same-origin', what);
}

describeEachDialect('operator console pages', (get) => {
  test('every kind of response carries the pages’ security headers', async () => {
    const t = get();
    const op = await enrolledOperator(t);
    const cookie = `slotline_operator=${op.browser.cookies.get('slotline_operator')}`;
    for (const [url, status, headers] of [
      ['/operator/sign-in', 200, {}],
      ['/operator/companies', 303, {}],
      ['/operator/companies', 200, { cookie }],
      ['/operator/companies/cmp_unknown', 404, { cookie }],
      ['/operator/no-such-page', 404, {}],
      ['/operator/assets/operator.css', 200, {}],
      ['/operator/assets/kit.css', 200, {}],
      ['/operator/welcome?token=nope', 404, {}],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      assert.equal(res.statusCode, status, url);
      assertHeaders(res.headers, url);
      if (status !== 303 && !url.includes('/assets/')) {
        assert.match(String(res.headers['content-type']), /^text\/html/, url);
        assert.equal(res.headers['cache-control'], 'no-store', url);
      }
    }
    const missing = await t.app.inject({ method: 'GET', url: '/operator/no-such-page' });
    assert.match(missing.body, /There is no page at this address/);
  });

  test('no template has inline script, style or event-handler attributes', async () => {
    const dir = new URL('../../../src/pages/operator/views/', import.meta.url);
    const files = (await readdir(dir)).filter((f) => f.endsWith('.eta'));
    assert.ok(files.length >= 10);
    for (const file of files) {
      const text = (await readFile(new URL(file, dir), 'utf8')).replace(/<%[\s\S]*?%>/g, '');
      assert.doesNotMatch(text, /<script(?![^>]*\ssrc=)[^>]*>/i, `${file}: inline <script>`);
      assert.doesNotMatch(text, /<style[\s>]/i, `${file}: <style> element`);
      assert.doesNotMatch(text, /\sstyle\s*=/i, `${file}: style attribute`);
      assert.doesNotMatch(text, /\son[a-z]+\s*=/i, `${file}: event-handler attribute`);
      assert.doesNotMatch(text, /javascript:/i, `${file}: script in an attribute`);
    }
  });

  test('the QR code is inline SVG without styles, and nothing comes from elsewhere', async () => {
    const t = get();
    const { link } = await createOperator(
      t.ctx.db,
      t.ctx.clock,
      { email: 'qr@slotline.example' },
      ADMIN_CLI,
      null,
    );
    const w = await t.app.inject({ method: 'GET', url: `/operator/welcome?token=${link.token}` });
    const csrf = /name="_csrf" value="([^"]*)"/.exec(w.body)?.[1] as string;
    const set = await t.app.inject({
      method: 'POST',
      url: '/operator/welcome',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `slotline_operator_form=${csrf}`,
      },
      payload: new URLSearchParams({
        _csrf: csrf,
        token: link.token,
        password: 'a long enough password',
        confirmation: 'a long enough password',
      }).toString(),
    });
    assert.equal(set.statusCode, 303);
    const secret = ([] as string[])
      .concat(set.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('slotline_operator='))
      ?.split(';')[0];
    const page = await t.app.inject({
      method: 'GET',
      url: '/operator/welcome/authenticator',
      headers: { cookie: secret as string },
    });
    assert.equal(page.statusCode, 200);
    const svg = /<svg[\s\S]*?<\/svg>/.exec(page.body)?.[0];
    assert.ok(svg);
    assert.doesNotMatch(svg, /\sstyle\s*=|<style|<script|href=/i);
    assert.match(
      svg,
      /^<svg class="qr" role="img" aria-label="QR code of the Slotline key for qr@slotline\.example"/,
    );
    assert.doesNotMatch(page.body, /(src|href)="(https?:)?\/\//);
  });

  test('malformed and hostile input gets a page saying what is wrong, never a 500', async () => {
    const t = get();
    const op = await enrolledOperator(t);
    const b = op.browser;
    const form = await b.get('/operator/companies/new');
    const csrf = hidden(form.body, '_csrf');
    const nul = await b.post('/operator/companies', {
      _csrf: csrf,
      name: 'Bad\u0000Name',
      plan: 'starter',
    });
    assert.equal(nul.status, 400);
    assert.match(nul.body, /cannot be stored|NUL/);
    const repeated = await b.post('/operator/companies', {
      _csrf: csrf,
      name: ['A', 'B'],
      plan: 'starter',
    });
    assert.equal(repeated.status, 400);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/operator/companies',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      payload: `_csrf=${encodeURIComponent(csrf)}&name=${'x'.repeat(70 * 1024)}`,
    });
    assert.equal(huge.statusCode, 413);
    assert.match(huge.body, /<h1>/);
    const json = await t.app.inject({
      method: 'POST',
      url: '/operator/companies',
      headers: {
        'content-type': 'application/json',
        cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': csrf,
      },
      payload: '{"name":',
    });
    assert.ok(json.statusCode >= 400 && json.statusCode < 500, String(json.statusCode));
    const longQuery = await b.get(`/operator/companies?q=${'q'.repeat(300)}`);
    assert.equal(longQuery.status, 400);
    const badId = await b.get(`/operator/companies/${encodeURIComponent('cmp_\u0000x')}`);
    assert.ok([400, 404].includes(badId.status), String(badId.status));
    const badCursor = await b.get('/operator/log?before=not|a-position');
    assert.equal(badCursor.status, 200);
    const badLink = await b.get(`/operator/welcome?token=${'t'.repeat(500)}`);
    assert.equal(badLink.status, 404);
  });
});
