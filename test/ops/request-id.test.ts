// X-Request-Id from a trusted proxy (TRUST_PROXY): logged as `upstreamRequestId` beside
// the service's own id, believed from trusted peers only and only when well formed; the
// response's X-Request-Id is always the service's own. With TRUST_PROXY, request.ip is
// the client's address from X-Forwarded-For.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';

/** A pino logger whose lines are kept, parsed, in `lines`. */
function capturingLogger() {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const PROXY = '10.0.0.7';
const CLIENT = '203.0.113.9';

function suite(name: string, env: Record<string, string>, trusted: boolean) {
  describe(name, () => {
    let t: TestApp;
    const { logger, lines } = capturingLogger();
    before(async () => {
      t = await createTestApp('sqlite', { env, logger });
    });
    after(() => t?.close());

    /** The log lines of one request, found by the service's id it answered with. */
    async function send(remoteAddress: string, upstream: string | undefined) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/healthz',
        remoteAddress,
        headers: {
          'x-forwarded-for': CLIENT,
          ...(upstream === undefined ? {} : { 'x-request-id': upstream }),
        },
      });
      assert.equal(res.statusCode, 200);
      const id = String(res.headers['x-request-id']);
      assert.match(id, /^req_/, 'the response carries the service’s own id');
      const mine = lines.filter((l) => l.reqId === id);
      assert.ok(mine.length >= 2, 'incoming and completed lines are logged');
      return mine;
    }

    test(`from the proxy, the upstream id is ${trusted ? '' : 'not '}logged`, async () => {
      const mine = await send(PROXY, 'Root=1-67891233-abcdef012345678912345678');
      for (const l of mine) {
        assert.equal(
          l.upstreamRequestId,
          trusted ? 'Root=1-67891233-abcdef012345678912345678' : undefined,
        );
      }
      const incoming = mine.find((l) => l.msg === 'incoming request');
      assert.equal(incoming.req.remoteAddress, trusted ? CLIENT : PROXY);
    });

    test('from any other peer, it is never logged', async () => {
      const mine = await send('198.51.100.20', 'forged-id-1');
      for (const l of mine) assert.equal(l.upstreamRequestId, undefined);
      const incoming = mine.find((l) => l.msg === 'incoming request');
      assert.equal(incoming.req.remoteAddress, '198.51.100.20', 'X-Forwarded-For not believed');
    });

    test('malformed values are ignored, even from the proxy', async () => {
      for (const bad of ['has spaces', 'x'.repeat(201), 'quote"d', 'new\tline', '']) {
        const mine = await send(PROXY, bad);
        for (const l of mine) assert.equal(l.upstreamRequestId, undefined, bad);
      }
      const longest = await send(PROXY, 'y'.repeat(200));
      assert.equal(longest[0].upstreamRequestId, trusted ? 'y'.repeat(200) : undefined);
    });
  });
}

suite('with TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/24, 2001:db8::1' }, true);
suite('without TRUST_PROXY', {}, false);

test('IPv4 peers on a dual-stack socket are matched, and TRUST_PROXY is validated', () => {
  const config = loadConfig({ TRUST_PROXY: '10.0.0.0/24,2001:db8::/32', DATA_DIR: '/tmp/x' });
  const trust = config.trustProxy!;
  assert.equal(trust.trusts('::ffff:10.0.0.9'), true);
  assert.equal(trust.trusts('10.0.1.1'), false);
  assert.equal(trust.trusts('2001:db8:0:1::5'), true);
  assert.equal(trust.trusts(undefined), false);
  assert.equal(loadConfig({ TRUST_PROXY: 'off', DATA_DIR: '/tmp/x' }).trustProxy, null);
  for (const bad of ['proxy.internal', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129', '10.0.0.0/x']) {
    assert.throws(() => loadConfig({ TRUST_PROXY: bad }), ConfigError, bad);
  }
});
