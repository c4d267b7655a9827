// The SDK's transport against a scripted server: 429 waits for Retry-After, a cap too far
// off is handed back at once, and a network error is retried only when replay is safe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SlotlineError, createClient } from '../../sdk/src/index.ts';

type Script = (req: IncomingMessage, res: ServerResponse, n: number) => void;

async function fakeServer(script: Script) {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    script(req, res, seen.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const json = (res: ServerResponse, status: number, body: unknown, headers = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const limited = {
  error: { code: 'rate_limited', message: 'slow down', hint: 'wait', requestId: 'req-1' },
};

test('a 429 is retried after its Retry-After', { timeout: 10_000 }, async () => {
  const server = await fakeServer((_req, res, n) =>
    n === 1
      ? json(res, 429, limited, { 'retry-after': '1' })
      : json(res, 200, { data: [], nextCursor: null }),
  );
  try {
    const api = createClient({ baseUrl: server.url, apiKey: 'k' });
    const started = Date.now();
    const { data } = await api.GET('/v2/content-tags');
    const elapsed = Date.now() - started;
    assert.deepEqual(data, { data: [], nextCursor: null });
    assert.equal(server.seen.length, 2);
    assert.ok(elapsed >= 1000, `waited ${elapsed} ms`);
    assert.ok(elapsed < 3000, `waited ${elapsed} ms`);
  } finally {
    await server.close();
  }
});

test(
  'a Retry-After beyond the limit is thrown at once as SlotlineError',
  { timeout: 10_000 },
  async () => {
    const server = await fakeServer((_req, res) =>
      json(res, 429, limited, { 'retry-after': '3600' }),
    );
    try {
      const api = createClient({ baseUrl: server.url, apiKey: 'k' });
      await assert.rejects(api.GET('/v2/content-tags'), (err: unknown) => {
        assert.ok(err instanceof SlotlineError);
        assert.equal(err.code, 'rate_limited');
        assert.equal(err.status, 429);
        assert.equal(err.requestId, 'req-1');
        return true;
      });
      assert.equal(server.seen.length, 1);
    } finally {
      await server.close();
    }
  },
);

test('attempts are bounded', { timeout: 10_000 }, async () => {
  const server = await fakeServer((_req, res) => json(res, 429, limited, { 'retry-after': '0' }));
  try {
    const api = createClient({ baseUrl: server.url, apiKey: 'k', retry: { attempts: 3 } });
    await assert.rejects(api.GET('/v2/content-tags'), SlotlineError);
    assert.equal(server.seen.length, 3);
  } finally {
    await server.close();
  }
});

test('network errors are retried for reads and keyed creates, not other POSTs', async () => {
  const sent: { method: string; path: string; key: string | null }[] = [];
  const failing = async (request: Request): Promise<Response> => {
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname,
      key: request.headers.get('idempotency-key'),
    });
    throw new TypeError('fetch failed');
  };
  const api = createClient({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'k',
    fetch: failing,
    retry: { attempts: 3, baseDelayMs: 1 },
  });
  await assert.rejects(api.GET('/v2/content-tags'), TypeError);
  await assert.rejects(api.POST('/v2/content-tags', { body: { name: 'x' } }), TypeError);
  await assert.rejects(
    api.POST('/v2/posts', { body: { media: ['upl_1'], accountIds: ['acc_1'] } }),
    TypeError,
  );
  assert.deepEqual(
    sent.map((s) => `${s.method} ${s.path}`),
    [
      ...Array(3).fill('GET /v2/content-tags'),
      'POST /v2/content-tags',
      ...Array(3).fill('POST /v2/posts'),
    ],
  );
  const keys = sent.filter((s) => s.path === '/v2/posts').map((s) => s.key);
  assert.ok(keys[0]);
  assert.deepEqual(keys, [keys[0], keys[0], keys[0]], 'every attempt sends the same key');
  assert.equal(sent[3]?.key, null);
});
