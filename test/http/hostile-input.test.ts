// Input that databases or the router choke on: NUL characters (PostgreSQL cannot store
// them in text, SQLite can) and paths whose percent-encoding does not decode. Both
// databases answer alike, always in the envelope, never a 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, validAccount, type SeededCompany } from '../helpers/app.ts';
import { assertApiError, assertInvalidBody } from '../helpers/api-error.ts';
import { browser, hidden, signIn, userIn } from '../helpers/dashboard.ts';
import { createWorker } from '../../src/modules/workers/index.ts';
import { findNul } from '../../src/http/nul-guard.ts';
import { isUnstorableText } from '../../src/db/errors.ts';
import { sql } from 'kysely';

test('findNul points at the first string or key holding a NUL', () => {
  assert.equal(findNul({ a: 'x', b: ['y', 'z\u0000'] }), '/b/1');
  assert.equal(findNul({ 'a/b~c\u0000': 1 }), '/a~1b~0c\u0000');
  assert.equal(findNul('plain\u0000'), '/');
  assert.equal(findNul({ a: 'x', n: 1, t: true, z: null }), null);
  assert.equal(findNul(Buffer.from([0, 0])), null);
  assert.equal(findNul(undefined), null);
  // Document order: an earlier sibling's subtree before a later key.
  assert.equal(findNul({ a: [{ b: 'x\u0000' }], 'c\u0000': 1 }), '/a/0/b');
});

test('findNul walks values of any depth without running out of stack', () => {
  // A loop of its own: it needs no depth bound from the JSON parser (http/json-body.ts).
  let deep: unknown = 'bottom\u0000';
  let clean: unknown = 'bottom';
  for (let i = 0; i < 200_000; i++) {
    deep = i % 2 ? [deep] : { k: deep };
    clean = i % 2 ? [clean] : { k: clean };
  }
  assert.equal(findNul(deep), '/0/k'.repeat(100_000));
  assert.equal(findNul(clean), null);
});

describeEachDialect('NUL characters and malformed paths', (get) => {
  let co: SeededCompany;
  let call: ReturnType<typeof client>;

  test('setup', async () => {
    co = await seedCompany(get());
    call = client(get(), co.key);
  });

  test('an id containing NUL is the same 404 as any unknown id', async () => {
    for (const [path, code] of [
      ['/v2/posts/nul%00byte', 'post_not_found'],
      ['/v2/accounts/nul%00byte', 'account_not_found'],
      ['/v2/uploads/nul%00byte', 'upload_not_found'],
      ['/v2/webhooks/nul%00byte', 'webhook_not_found'],
      ['/v2/accounts/nul%00byte/queue', 'account_not_found'],
    ] as const) {
      const res = await call('GET', path);
      assertApiError(res, 404, code);
    }
    assertApiError(
      await call('PATCH', '/v2/content-tags/t%00g', { name: 'x' }),
      404,
      'tag_not_found',
    );
    assertApiError(await call('DELETE', '/v2/posts/p%00'), 404, 'post_not_found');
  });

  test('a NUL in a query value is invalid_request naming the parameter', async () => {
    const res = await call('GET', '/v2/posts?accountId=nul%00byte');
    assertApiError(res, 400, 'invalid_request', { startsWith: 'query parameter accountId ' });
    assert.match(res.body.error.message, /NUL/);
    // A cursor is opaque and signed: one holding a NUL is a cursor never issued.
    assertApiError(await call('GET', '/v2/posts?cursor=a%00b'), 400, 'invalid_cursor');
  });

  test('a NUL in a body field is invalid_request naming the field; nothing is stored', async () => {
    const before = await call('GET', '/v2/content-tags');
    assertInvalidBody(await call('POST', '/v2/content-tags', { name: 'a\u0000b' }), '/name');
    const after = await call('GET', '/v2/content-tags');
    assert.deepEqual(after.body, before.body);
    assertInvalidBody(
      await call('POST', '/v2/accounts', validAccount({ bio: 'one\u0000two' })),
      '/bio',
    );
    assertInvalidBody(
      await call(
        'POST',
        '/v2/accounts',
        validAccount({ warmup: { searchTerms: ['a', 'b\u0000'] } }),
      ),
      '/warmup/searchTerms/1',
    );
    const post = await call('POST', '/v2/posts', {
      media: ['upl_x'],
      accountIds: ['acc_x'],
      caption: 'caption with \u0000 inside',
    });
    assertInvalidBody(post, '/caption');
  });

  test('the worker API refuses NUL alike', async () => {
    const t = get();
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Nul', timezone: 'UTC' });
    const wcall = client(t, worker.token);
    assertApiError(
      await wcall('POST', '/worker/v1/tasks/t%00k/result', { outcome: 'failed', reason: 'x' }),
      404,
      'task_not_found',
    );
    const res = await wcall('POST', '/worker/v1/tasks/tsk_1/result', {
      outcome: 'failed',
      reason: 'bad\u0000reason',
    });
    assertInvalidBody(res, '/reason');
  });

  test('a dashboard form with a NUL gets an error page, not a 500', async () => {
    const t = get();
    const b = browser(t);
    const u = await userIn(t, co.companyId, 'admin');
    assert.equal((await signIn(b, u.email, u.password)).status, 303);
    const form = await b.get('/dashboard/tags');
    const res = await b.post('/dashboard/tags', {
      _csrf: hidden(form.body, '_csrf'),
      name: 'tag\u0000name',
      color: 'slate',
    });
    assert.equal(res.status, 400);
    assert.match(res.body, /\/name must not contain NUL characters/);
  });

  test('the database refusing a text value is invalid_request, not a 500', async (t) => {
    const ctx = get().ctx;
    if (get().dialect !== 'postgres') {
      t.skip('SQLite stores NUL characters');
      return;
    }
    const err = await sql`select ${'a\u0000b'}::text`.execute(ctx.db).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(isUnstorableText(err), `expected an encoding error, got ${String(err)}`);
  });

  test('malformed percent-encoding answers invalid_request in the envelope', async () => {
    const t = get();
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Pct', timezone: 'UTC' });
    for (const [method, url, token] of [
      ['GET', '/v2/posts/%ZZ', co.key],
      ['POST', '/v2/accounts/%E0%A4%A/pause', co.key],
      ['GET', '/v2/webhooks/%ZZ', co.key],
      ['POST', '/worker/v1/tasks/%ZZ/result', worker.token],
      ['GET', '/v2/posts/%ZZ', null],
    ] as const) {
      const res = await client(t, token)(method, url);
      assertApiError(res, 400, 'invalid_request', { includes: 'percent-encoding' });
    }
  });

  test("a body that is not JSON is refused in the service's own words", async () => {
    for (const payload of ['{"name": }', '{"name": "x"', 'nope', '{"a":1}}']) {
      const res = await call('POST', '/v2/content-tags', payload);
      assertApiError(res, 400, 'invalid_request');
      assert.equal(res.body.error.message, 'Request body is not valid JSON');
      assert.doesNotMatch(res.body.error.hint, /content-type is set/i);
    }
  });

  test('a path segment past the router limit answers invalid_request', async () => {
    const res = await call('GET', `/v2/posts/${'p'.repeat(600)}`);
    assertApiError(res, 400, 'invalid_request', { includes: 'too long' });
  });
});
