// SPEC 7 and DECISIONS 1: every non-2xx response is the envelope, with a
// request id that is also the X-Request-Id header; never a stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { ERROR_CATALOG } from '../../src/errors.ts';

function assertEnvelope(res: {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): any;
}) {
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'hint', 'message', 'requestId']);
  for (const k of ['code', 'hint', 'message', 'requestId']) {
    assert.equal(typeof body.error[k], 'string');
    assert.ok(body.error[k].length > 0, k);
  }
  assert.equal(body.error.requestId, res.headers['x-request-id']);
  assert.equal(ERROR_CATALOG[body.error.code as keyof typeof ERROR_CATALOG].status, res.statusCode);
  return body.error;
}

describeEachDialect('error envelope', (get) => {
  test('unknown route is 404 not_found', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/v2/nothing-here' });
    assert.equal(res.statusCode, 404);
    assert.equal(assertEnvelope(res).code, 'not_found');
    const root = await get().app.inject({ method: 'GET', url: '/' });
    assert.equal(assertEnvelope(root).code, 'not_found');
  });

  test('unsupported method on a known path is 405 with Allow', async () => {
    const res = await get().app.inject({ method: 'PUT', url: '/v2/accounts' });
    assert.equal(res.statusCode, 405);
    assert.equal(assertEnvelope(res).code, 'method_not_allowed');
    assert.equal(res.headers.allow, 'GET, POST');
    const param = await get().app.inject({ method: 'POST', url: '/v2/accounts/acc_1' });
    assert.equal(param.statusCode, 405);
    assert.equal(param.headers.allow, 'GET');
  });

  test('malformed JSON, empty JSON body, wrong content type and oversize bodies', async () => {
    const t = get();
    const { key } = await seedCompany(t);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v2/content-tags',
      headers,
      payload: '{"name":',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(assertEnvelope(bad).code, 'invalid_request');
    const empty = await t.app.inject({ method: 'POST', url: '/v2/content-tags', headers });
    assert.equal(empty.statusCode, 400);
    assert.equal(assertEnvelope(empty).code, 'invalid_request');
    const text = await t.app.inject({
      method: 'POST',
      url: '/v2/content-tags',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    assert.equal(text.statusCode, 415);
    assert.equal(assertEnvelope(text).code, 'unsupported_media_type');
    const huge = await t.app.inject({
      method: 'POST',
      url: '/v2/content-tags',
      headers,
      payload: JSON.stringify({ name: 'x'.repeat(t.config.bodyLimit + 10) }),
    });
    assert.equal(huge.statusCode, 413);
    assert.equal(assertEnvelope(huge).code, 'request_too_large');
    const notObject = await t.app.inject({
      method: 'POST',
      url: '/v2/content-tags',
      headers,
      payload: '[1]',
    });
    assert.equal(notObject.statusCode, 400);
    assert.match(assertEnvelope(notObject).message, /must be an object/);
  });

  test('validation errors name the field as a JSON pointer', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const res = await call('POST', '/v2/content-tags', { name: 'ok', colour: 'blue' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'invalid_request');
    assert.match(res.body.error.message, /^\/colour is not an allowed field/);
    const missing = await call('POST', '/v2/content-tags', {});
    assert.match(missing.body.error.message, /^\/name is required/);
    const query = await call('GET', '/v2/accounts?limit=101');
    assert.equal(query.status, 400);
    assert.match(query.body.error.message, /^query parameter limit must be <= 100/);
    const unknownQuery = await call('GET', '/v2/accounts?colour=1');
    assert.equal(unknownQuery.status, 400);
    assert.match(unknownQuery.body.error.message, /colour is not an allowed field/);
  });

  test('unexpected failures are a masked 500 with the envelope and no stack', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const real = t.ctx.db;
    // Break the database under a real route for one request.
    (t.ctx as { db: unknown }).db = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === 'selectFrom') {
          return (table: string) =>
            table === 'companies'
              ? (() => {
                  throw new Error('boom: secret detail');
                })()
              : real.selectFrom(table as never);
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    try {
      const res = await call('GET', '/v2/schedule');
      assert.equal(res.status, 500);
      const err = assertEnvelope(res.raw);
      assert.equal(err.code, 'internal_error');
      assert.ok(!res.raw.body.includes('boom'));
      assert.ok(!res.raw.body.includes('at '));
    } finally {
      (t.ctx as { db: unknown }).db = real;
    }
  });

  test('X-Request-Id is on successful responses too, unique per request', async () => {
    const t = get();
    const a = await t.app.inject({ method: 'GET', url: '/v2/openapi.json' });
    const b = await t.app.inject({ method: 'GET', url: '/v2/openapi.json' });
    assert.equal(a.statusCode, 200);
    assert.match(String(a.headers['x-request-id']), /^req_[0-9a-z]+$/);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
    const spoofed = await t.app.inject({
      method: 'GET',
      url: '/v2/openapi.json',
      headers: { 'x-request-id': 'client-chosen' },
    });
    assert.notEqual(spoofed.headers['x-request-id'], 'client-chosen');
  });
});
