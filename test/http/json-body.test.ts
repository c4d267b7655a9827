// JSON request bodies nest at most MAX_JSON_DEPTH levels: deeper ones are refused with
// `invalid_request` naming the limit, on every JSON route (the API, the worker API, MCP,
// the dashboard), before any walker of the value runs; bodies up to the limit reach the
// route, whose walkers (NUL check, validation, the dry run) all answer them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, type SeededCompany, type TestApp } from '../helpers/app.ts';
import { assertApiError } from '../helpers/api-error.ts';
import { browser, hidden, signIn, userIn } from '../helpers/dashboard.ts';
import { createWorker } from '../../src/modules/workers/index.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-body.ts';

/** Arrays `depth` levels deep, two bytes a level. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const TOO_DEEP = `Request body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`;

test('nesting is counted outside strings, escapes included', () => {
  assert.equal(nestsDeeperThan('{"a":[{"b":[]}]}', 4), false);
  assert.equal(nestsDeeperThan('{"a":[{"b":[]}]}', 3), true);
  // Brackets in strings, escaped quotes and backslashes are text, not nesting.
  assert.equal(nestsDeeperThan('{"a":"[[[[{{{{"}', 1), false);
  assert.equal(nestsDeeperThan('{"a\\"[[[[":"\\\\","b":"\\"{{{{"}', 1), false);
  assert.equal(nestsDeeperThan('{"a":"\\\\"}[[', 1), true);
  // Closing brackets bring the depth back: siblings do not add up.
  assert.equal(nestsDeeperThan('[[],[],[[]],[]]', 3), false);
  assert.equal(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH), false);
  assert.equal(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH), true);
  assert.equal(nestsDeeperThan('', MAX_JSON_DEPTH), false);
});

test('a body far too deep is refused after its first levels, however long it is', () => {
  const deep = nested(500_000);
  const flat = `"${'x'.repeat(deep.length - 2)}"`;
  const timed = (text: string, expected: boolean) => {
    // The first read flattens the concatenated string, as any first read of a body does.
    nestsDeeperThan(text, MAX_JSON_DEPTH);
    const started = performance.now();
    for (let i = 0; i < 20; i++) assert.equal(nestsDeeperThan(text, MAX_JSON_DEPTH), expected);
    return performance.now() - started;
  };
  // A text of the same length read to its end takes far longer than the refusal, which
  // stops at the first level past the limit.
  const whole = timed(flat, false);
  const refused = timed(deep, true);
  assert.ok(refused * 20 < whole, `refused in ${refused} ms, a full read ${whole} ms`);
});

/** A raw JSON body to any route, /mcp included (which the contract check of `client` omits). */
async function send(t: TestApp, method: string, url: string, token: string, payload: string) {
  const res = await t.app.inject({
    method: method as 'POST',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    payload,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers, raw: res };
}

describeEachDialect('JSON bodies nested too deep', (get) => {
  let co: SeededCompany;
  let call: ReturnType<typeof client>;
  let workerToken: string;

  test('setup', async () => {
    const t = get();
    co = await seedCompany(t);
    call = client(t, co.key);
    workerToken = (await createWorker(t.ctx.db, t.ctx.clock, { name: 'Deep', timezone: 'UTC' }))
      .token;
  });

  const routes = (): [string, string, string, (value: string) => string][] => [
    [
      'POST',
      '/v2/posts/validate',
      co.key,
      (v) => `{"media":["upl_x"],"accountIds":["acc_x"],"x":${v}}`,
    ],
    ['POST', '/v2/posts', co.key, (v) => `{"media":["upl_x"],"accountIds":["acc_x"],"x":${v}}`],
    ['POST', '/v2/content-tags', co.key, (v) => `{"name":${v}}`],
    ['PATCH', '/v2/content-tags/tag_x', co.key, (v) => `{"name":${v}}`],
    ['POST', '/v2/webhooks', co.key, (v) => `{"url":${v},"events":["upload.ready"]}`],
    [
      'POST',
      '/worker/v1/tasks/tsk_x/result',
      workerToken,
      (v) => `{"outcome":"failed","reason":${v}}`,
    ],
    [
      'POST',
      '/mcp',
      co.key,
      (v) =>
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"createContentTag","arguments":{"name":${v}}}}`,
    ],
  ];

  test('past the limit, every JSON route answers invalid_request naming it', async () => {
    const t = get();
    const tagsBefore = (await call('GET', '/v2/content-tags')).body;
    // The value sits one level inside the body, so the body nests one level more.
    for (const depth of [MAX_JSON_DEPTH, 5_000, 100_000, 499_990]) {
      for (const [method, url, token, wrap] of routes()) {
        const res = await send(t, method, url, token, wrap(nested(depth)));
        assertApiError(res, 400, 'invalid_request', { includes: TOO_DEEP });
        assert.match(res.body.error.hint, new RegExp(`at most ${MAX_JSON_DEPTH} levels`));
      }
    }
    assert.deepEqual((await call('GET', '/v2/content-tags')).body, tagsBefore, 'nothing stored');
  });

  test('up to the limit, the route itself answers, its walkers included', async () => {
    const t = get();
    const inner = nested(MAX_JSON_DEPTH - 1);
    // The dry run copies and checks the whole value, and lists its problem.
    const dry = await call('POST', '/v2/posts/validate', routes()[0]![3](inner));
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.equal(dry.body.valid, false);
    assert.ok(dry.body.problems.some((p: { field?: string }) => p.field === '/x'));
    assertApiError(
      await call('POST', '/v2/posts', routes()[1]![3](inner)),
      400,
      'invalid_request',
      {
        startsWith: '/x ',
      },
    );
    assertApiError(
      await call('POST', '/v2/content-tags', `{"name":${inner}}`),
      400,
      'invalid_request',
      { startsWith: '/name must be a string' },
    );
    assertApiError(
      await client(t, workerToken)('POST', '/worker/v1/tasks/tsk_x/result', routes()[5]![3](inner)),
      400,
      'invalid_request',
      { startsWith: '/reason must be a string' },
    );
    // A NUL at the bottom of a value nested to the limit is found and named.
    const nul = `{"name":${'['.repeat(MAX_JSON_DEPTH - 1)}"a\\u0000"${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
    const res = await call('POST', '/v2/content-tags', nul);
    assertApiError(res, 400, 'invalid_request', {
      startsWith: `/name${'/0'.repeat(MAX_JSON_DEPTH - 1)} must not contain NUL`,
    });
    // The MCP tool call re-sends its arguments as the REST body, refused by the API's schema.
    const mcp = await send(t, 'POST', '/mcp', co.key, routes()[6]![3](nested(MAX_JSON_DEPTH - 4)));
    assert.equal(mcp.status, 200, JSON.stringify(mcp.body));
    const result = mcp.body.result;
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /\/name must be a string/);
  });

  test('the dashboard refuses a deep body on its error page', async () => {
    const t = get();
    const b = browser(t, '192.0.2.77');
    const u = await userIn(t, co.companyId, 'admin');
    assert.equal((await signIn(b, u.email, u.password)).status, 303);
    const form = await b.get('/dashboard/tags');
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/tags',
      remoteAddress: '192.0.2.77',
      headers: {
        cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'content-type': 'application/json',
        'x-csrf-token': hidden(form.body, '_csrf'),
      },
      payload: `{"name":${nested(100_000)}}`,
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    assert.ok(res.body.includes(TOO_DEEP), 'the page names the limit');
  });

  test('other malformed bodies keep their own answers', async () => {
    assertApiError(await call('POST', '/v2/content-tags', '{"name": ['), 400, 'invalid_request', {
      includes: 'Request body is not valid JSON',
    });
    assertApiError(
      await call('POST', '/v2/content-tags', '{"__proto__":{"x":1},"name":"a"}'),
      400,
      'invalid_request',
      { includes: 'Request body is not valid JSON' },
    );
    assertApiError(await call('POST', '/v2/content-tags', ''), 400, 'invalid_request', {
      includes: 'Request body is empty',
    });
    // Brackets in a string are text: a tag may be named with many of them.
    const named = await call('POST', '/v2/content-tags', { name: `${'['.repeat(40)}x` });
    assert.equal(named.status, 201, JSON.stringify(named.body));
  });
});
