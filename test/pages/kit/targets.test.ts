// The pages' rule for where a browser may be sent (a sign-in's `next`, every redirect):
// same-site paths of safe characters within the app's prefix pass; control characters,
// separators, other sites, backslashes, dot segments and overlong targets do not.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { redirect } from '../../../src/pages/kit/session.ts';
import { MAX_TARGET_LENGTH, isSafeTarget, safeTarget } from '../../../src/pages/kit/targets.ts';

const HOME = '/dashboard/approvals';

describe('page targets', () => {
  test('paths of the app pass as they are, query and fragment included', () => {
    for (const ok of [
      '/dashboard',
      '/dashboard/',
      '/dashboard/approvals',
      '/dashboard/posts?status=failed&account=acc_1',
      '/dashboard/posts/pst_01HX?tab=items#item-2',
      '/dashboard/calendar?view=month&date=2026-03-01',
      '/dashboard/posts?search=a%20b%0Ac',
      '/dashboard/tags/caf%C3%A9',
      `/dashboard/${'a'.repeat(MAX_TARGET_LENGTH - '/dashboard/'.length)}`,
    ]) {
      assert.equal(isSafeTarget(ok, '/dashboard'), true, ok);
      assert.equal(safeTarget(ok, '/dashboard', HOME), ok, ok);
    }
  });

  test('control characters, separators and other non-ASCII yield the default page', () => {
    const hostile = [
      '/dashboard/x\r\nSet-Cookie: a=b',
      '/dashboard/x\r',
      '/dashboard/x\n',
      '/dashboard/x\u0007',
      '/dashboard/x\u0000',
      '/dashboard/x\u001b[31m',
      '/dashboard/x\ty',
      '/dashboard/x y',
      '/dashboard/x\u007f',
      '/dashboard/x\u0085',
      '/dashboard/x\u009b',
      '/dashboard/x\u2028y',
      '/dashboard/x\u2029y',
      '/dashboard/caf\u00e9',
      '/dashboard/\ud800',
      '/dashboard/\ufeff',
      '/dashboard/posts?q=\r\n',
    ];
    for (const value of hostile) {
      assert.equal(isSafeTarget(value, '/dashboard'), false, JSON.stringify(value));
      assert.equal(safeTarget(value, '/dashboard', HOME), HOME, JSON.stringify(value));
    }
  });

  test('other sites, backslashes and schemes yield the default page', () => {
    for (const value of [
      '//evil.example',
      '//evil.example/dashboard/',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/dashboard/\\evil',
      '/dashboard\\..\\v2',
      'javascript:alert(1)',
      'JavaScript:alert(1)//dashboard/',
      'data:text/html,<script>alert(1)</script>',
      'https://evil.example/dashboard/',
      'http:/dashboard/x',
      'dashboard/approvals',
      ' /dashboard/approvals',
      '',
    ]) {
      assert.equal(isSafeTarget(value, '/dashboard'), false, value);
      assert.equal(safeTarget(value, '/dashboard', HOME), HOME, value);
    }
  });

  test('escapes may not hide what the raw rule refuses; dot and empty segments are refused', () => {
    for (const value of [
      '/dashboard/%0d%0aSet-Cookie:%20a=b',
      '/dashboard/%0D%0A',
      '/dashboard/%07',
      '/dashboard/%00',
      '/dashboard/%7f',
      '/dashboard/%C2%85',
      '/dashboard/%E2%80%A8',
      '/dashboard/%5cevil',
      '/dashboard/%ZZ',
      '/dashboard/%E0%A4%A',
      '/dashboard/%C0%AE%C0%AE',
      '/dashboard/../v2/posts',
      '/dashboard/./approvals',
      '/dashboard/%2e%2e/v2/posts',
      '/dashboard/%2E./v2/posts',
      '/dashboard//evil.example',
      '/dashboard/%2F%2Fevil',
      '/%0d%0a',
    ]) {
      assert.equal(isSafeTarget(value, '/dashboard'), false, value);
      assert.equal(safeTarget(value, '/dashboard', HOME), HOME, value);
    }
  });

  test('only the prefix’s own paths pass, and none past the length bound', () => {
    for (const value of [
      '/v2/posts',
      '/operator/companies',
      '/dashboardx',
      '/dashboard-evil/x',
      '/',
      `/dashboard/${'a'.repeat(MAX_TARGET_LENGTH)}`,
      `/dashboard/?${'a'.repeat(100_000)}`,
    ]) {
      assert.equal(safeTarget(value, '/dashboard', HOME), HOME, value.slice(0, 40));
    }
    assert.equal(
      safeTarget('/operator/companies', '/operator', '/operator/x'),
      '/operator/companies',
    );
    // Without a prefix, any safe same-site path passes (the guard in `redirect`).
    assert.equal(isSafeTarget('/operator/log?page=2'), true);
    assert.equal(isSafeTarget('//evil.example'), false);
  });

  test('anything but a string yields the default page', () => {
    for (const value of [undefined, null, 1, ['/dashboard/posts'], { toString: () => '/x' }]) {
      assert.equal(safeTarget(value, '/dashboard', HOME), HOME);
    }
  });

  test('a redirect never carries an unchecked target: the app’s top instead', async () => {
    const app = Fastify();
    app.get<{ Querystring: { to: string } }>('/dashboard/slip', async (req, reply) =>
      redirect(req, reply, req.query.to),
    );
    const slip = (to: string, htmx = false) =>
      app.inject({
        method: 'GET',
        url: `/dashboard/slip?to=${encodeURIComponent(to)}`,
        headers: htmx ? { 'hx-request': 'true' } : {},
      });
    for (const to of ['/dashboard/x\r\nX-Injected: 1', '/dashboard/\u2028', '//evil.example']) {
      const plain = await slip(to);
      assert.equal(plain.statusCode, 303, JSON.stringify(to));
      assert.equal(plain.headers.location, '/dashboard');
      assert.equal(plain.headers['x-injected'], undefined);
      const htmx = await slip(to, true);
      assert.equal(htmx.statusCode, 204);
      assert.equal(htmx.headers['hx-redirect'], '/dashboard');
    }
    const kept = await slip('/dashboard/posts?status=failed');
    assert.equal(kept.headers.location, '/dashboard/posts?status=failed');
    await app.close();
  });
});
