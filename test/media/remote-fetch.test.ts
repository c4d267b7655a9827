// The remote-upload fetcher (SPEC 4.1 remote form, DECISIONS 3, reliability anchors
// 2 and 8.D). Only 127.0.0.0/8 is ever connected to: "public" addresses come from an
// injected lookup, and every socket goes through a connector that refuses anything
// but loopback, so a fetcher bug fails here instead of reaching the outside.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  connect as netConnect,
  createServer as createNetServer,
  isIP,
  Socket,
  type Server as NetServer,
} from 'node:net';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';
import {
  fetchToStore,
  nonPublicReason,
  parseAddress,
  parseAllowList,
  REMOTE_FETCH_API_ERRORS,
  RemoteFetchError,
  type ConnectFn,
  type FetchPolicy,
  type FetchedInfo,
  type LookupFn,
  type RemoteFetchErrorCode,
} from '../../src/media/remote-fetch.ts';
import { dispositionFilename, sanitiseFilename } from '../../src/media/remote/filename.ts';

// A self-signed certificate for media.test and 127.0.0.1, valid 2000-2100; test only.
const CERT = `-----BEGIN CERTIFICATE-----
MIIBeDCCAR2gAwIBAgIBATAKBggqhkjOPQQDAjAVMRMwEQYDVQQDDAptZWRpYS50
ZXN0MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAVMRMwEQYDVQQD
DAptZWRpYS50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEaQmpojU2Iy9n
DOL5sUv9dU3kFvsJe+iBa/3C0xYzC2SV1ExVMp43YTe5VZrqZD1tn6g96LskdylO
UbgJLrNiXKNcMFowGwYDVR0RBBQwEoIKbWVkaWEudGVzdIcEfwAAATAPBgNVHRMB
Af8EBTADAQH/MAsGA1UdDwQEAwIChDAdBgNVHQ4EFgQU466WZoq5P3YFMc7/dLlK
LkV/GEwwCgYIKoZIzj0EAwIDSQAwRgIhAKtV2sRt2ThZxLQ2WsGZ3/CTJljo5X6R
iSZgvJDHTgHoAiEAyp+ShaSTAdrT5ba4WYr5jk2aFT9X9V8AW1++oVIWpio=
-----END CERTIFICATE-----
`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg1WcUq++eIFjnw9ij
V641cDs+EjQlyqmdLGF0o3J+VlWhRANCAARpCamiNTYjL2cM4vmxS/11TeQW+wl7
6IFr/cLTFjMLZJXUTFUynjdhN7lVmupkPW2fqD3ouyR3KU5RuAkus2Jc
-----END PRIVATE KEY-----
`;

const CAP = 64 * 1024;
const SMALL = randomBytes(4096);
const SECRET = 'UPSTREAM-SECRET-7f3a';
const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

// ---------------------------------------------------------------------------------
// Loopback fixture servers, each counting connections and requests.

interface Fixture {
  port: number;
  connections: number;
  requests: IncomingMessage[];
  open: Set<Socket>;
  close(): Promise<void>;
}

async function listen(server: Server | NetServer): Promise<Fixture> {
  const fixture: Fixture = {
    port: 0,
    connections: 0,
    requests: [],
    open: new Set(),
    close: () =>
      new Promise((resolve) => {
        for (const socket of fixture.open) socket.destroy();
        server.close(() => resolve());
      }),
  };
  // TLS servers report accepted TCP connections on 'connection' too.
  server.on('connection', (socket: Socket) => {
    fixture.connections += 1;
    fixture.open.add(socket);
    socket.on('close', () => fixture.open.delete(socket));
  });
  server.on('request', (req: IncomingMessage) => fixture.requests.push(req));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  fixture.port = address.port;
  return fixture;
}

function endless(res: ServerResponse, chunk: Buffer): void {
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('error', () => undefined);
  pump();
}

function routes(req: IncomingMessage, res: ServerResponse): void {
  res.on('error', () => undefined);
  const url = new URL(req.url ?? '/', 'http://fixture');
  const path = url.pathname;
  const redirect = /^\/redirect\/(\d+)$/.exec(path);
  if (redirect) {
    const left = Number(redirect[1]);
    if (left === 0) {
      res.writeHead(200, { 'content-type': 'video/mp4' }).end(SMALL);
    } else {
      res.writeHead(302, { location: `/redirect/${left - 1}` }).end();
    }
    return;
  }
  switch (path) {
    case '/small.bin':
      res.writeHead(200, {
        'content-type': 'video/mp4',
        'content-length': SMALL.length,
        'content-disposition': 'attachment; filename="../../etc/clip one.mp4"',
      });
      res.end(SMALL);
      return;
    case '/files/holiday%20clip.mov':
      res.writeHead(200, { 'content-type': 'video/quicktime' }).end(SMALL);
      return;
    case '/to':
      res.writeHead(url.searchParams.get('status') === '307' ? 307 : 302, {
        location: url.searchParams.get('url') ?? '/',
      });
      res.end();
      return;
    case '/exact':
      res.writeHead(200, { 'content-length': CAP }).end(Buffer.alloc(CAP, 7));
      return;
    case '/big-with-length':
      res.writeHead(200, { 'content-length': CAP * 4 });
      endless(res, Buffer.alloc(16 * 1024, 1));
      return;
    case '/big-chunked':
      res.writeHead(200, { 'content-type': 'video/mp4' });
      endless(res, Buffer.alloc(16 * 1024, 2));
      return;
    case '/drip': {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const timer = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case '/stall-headers':
      return; // never answers
    case '/stall-body':
      res.writeHead(200, { 'content-length': 1000 });
      res.write(Buffer.alloc(10));
      return; // then silence
    case '/truncated':
      res.writeHead(200, { 'content-length': 1000 });
      res.write(Buffer.alloc(10), () => res.destroy());
      return;
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/plain', 'x-debug': SECRET }).end(SECRET);
      return;
    case '/gzip':
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'video/mp4' });
      res.end(gzipSync(Buffer.alloc(CAP * 8)));
      return;
    case '/redirect-no-location':
      res.writeHead(302).end();
      return;
    default:
      res.writeHead(200, { 'content-type': 'text/plain' }).end('canary');
  }
}

let origin: Fixture;
let canary: Fixture;
let secure: Fixture;
let raw: Fixture;
const servernames: (string | false | null)[] = [];

before(async () => {
  origin = await listen(createServer(routes));
  canary = await listen(createServer(routes));
  const tlsServer = createHttpsServer({ cert: CERT, key: KEY }, routes);
  tlsServer.on('secureConnection', (socket: TLSSocket) => servernames.push(socket.servername));
  secure = await listen(tlsServer);
  // Speaks broken or unusual HTTP that Node's own server would not send.
  raw = await listen(
    createNetServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', (data) => {
        const line = data.toString('latin1').split('\r\n')[0] ?? '';
        if (line.includes('/transfer-gzip')) {
          socket.end(
            'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
          );
        } else {
          socket.end('SSH-2.0-not-http\r\n\r\n');
        }
      });
    }),
  );
});

after(async () => {
  await Promise.all([origin.close(), canary.close(), secure.close(), raw.close()]);
  assert.deepEqual(guardTrips, [], 'no socket may aim at a non-loopback address');
});

// ---------------------------------------------------------------------------------
// Injected resolver and the fail-closed loopback connector.

const isLoopback = (address: string) => /^127\./.test(address) || address === '::1';
const guardTrips: string[] = [];

/** Connects like the real connector, but only ever to loopback; anything else errors. */
const loopbackOnly: ConnectFn = ({ host, port, lookup }) => {
  if (isIP(host) !== 0 && !isLoopback(host)) {
    guardTrips.push(host);
    const socket = new Socket();
    process.nextTick(() => socket.destroy(new Error('test guard: non-loopback literal')));
    return socket;
  }
  return netConnect({
    host,
    port,
    autoSelectFamily: true,
    lookup: (name, options, callback) =>
      lookup(name, options, (error, address, family) => {
        const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
        if (!error && !list.every(isLoopback)) {
          guardTrips.push(list.join(','));
          callback(new Error('test guard: non-loopback answer'), '', 0);
        } else {
          callback(error, address, family);
        }
      }),
  });
};

function names(table: Record<string, string[]>, calls: string[] = []): LookupFn {
  return async (hostname) => {
    calls.push(hostname);
    const list = table[hostname];
    if (list === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

function policy(over: Partial<FetchPolicy> = {}): FetchPolicy {
  return {
    maxBytes: CAP,
    allow: parseAllowList('127.0.0.1'),
    lookup: names({}),
    connect: loopbackOnly,
    timeoutMs: 3000,
    connectTimeoutMs: 1000,
    headersTimeoutMs: 1000,
    idleTimeoutMs: 1000,
    ...over,
  };
}

async function collect(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Stored {
  bytes: Buffer;
  info: FetchedInfo;
}
const store = async (body: Readable, info: FetchedInfo): Promise<Stored> => ({
  bytes: await collect(body),
  info,
});

async function refused(
  work: Promise<unknown>,
  code: RemoteFetchErrorCode,
): Promise<RemoteFetchError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof RemoteFetchError, `expected a RemoteFetchError, got ${error}`);
    assert.equal(error.code, code, `${error.message} (${error.detail ?? ''})`);
    return error;
  }
  return assert.fail(`expected ${code}, but the fetch succeeded`);
}

/** Waits until the fixture has no open connections (the fetcher closed its side). */
async function drained(fixture: Fixture): Promise<void> {
  for (let i = 0; i < 100 && fixture.open.size > 0; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(fixture.open.size, 0, 'connection left open');
}

const at = (fixture: Fixture, path: string, host = '127.0.0.1') =>
  `http://${host}:${fixture.port}${path}`;

// ---------------------------------------------------------------------------------

describe('allow list and address classes', () => {
  test('parseAllowList reads host names, IPs and CIDR ranges; blank allows nothing', () => {
    const empty = parseAllowList('');
    assert.equal(empty.hosts.size, 0);
    assert.equal(empty.ranges.length, 0);
    assert.equal(parseAllowList(' , ,').ranges.length, 0);

    const list = parseAllowList(' Media.Example.COM. , 10.1.2.3, 192.168.0.0/16,fd00::/8, 0x7f.1');
    assert.deepEqual([...list.hosts], ['media.example.com']);
    assert.deepEqual(
      list.ranges.map(([ip, bits]) => `${ip.toString()}/${bits}`),
      ['10.1.2.3/32', '192.168.0.0/16', 'fd00::/8', '127.0.0.1/32'],
    );
    const mapped = parseAllowList('::ffff:10.0.0.0/104');
    assert.equal(`${mapped.ranges[0]?.[0].toString()}/${mapped.ranges[0]?.[1]}`, '10.0.0.0/8');
    assert.deepEqual([...parseAllowList('bücher.example').hosts], ['xn--bcher-kva.example']);
  });

  test('parseAllowList refuses entries it cannot read exactly', () => {
    for (const entry of [
      'example.com:8080',
      'user@example.com',
      'example.com/path',
      '10.0.0.0/33',
      '10.0.0.0/8/1',
      '10.0.0.0/x',
      'a b',
      '*.example.com',
      'http://example.com',
    ]) {
      assert.throws(() => parseAllowList(entry), /allow list/, entry);
    }
  });

  test('public unicast addresses pass; every special range is named', () => {
    for (const address of [PUBLIC_V4, '8.8.8.8', '1.1.1.1', PUBLIC_V6, '64:ff9b::5db8:d822']) {
      assert.equal(nonPublicReason(parseAddress(address)!), null, address);
    }
    const blocked: Record<string, string> = {
      '0.0.0.0': 'unspecified',
      '0.1.2.3': 'unspecified',
      '10.0.0.1': 'private',
      '100.64.0.1': 'carrierGradeNat',
      '127.0.0.1': 'loopback',
      '169.254.169.254': 'linkLocal',
      '172.16.0.1': 'private',
      '172.31.255.255': 'private',
      '192.0.0.8': 'reserved',
      '192.0.2.1': 'reserved',
      '192.168.1.1': 'private',
      '198.18.0.1': 'reserved',
      '198.51.100.7': 'reserved',
      '203.0.113.9': 'reserved',
      '224.0.0.1': 'multicast',
      '240.0.0.1': 'reserved',
      '255.255.255.255': 'broadcast',
      '::': 'ipv4Compatible',
      '::1': 'ipv4Compatible',
      '::7f00:1': 'ipv4Compatible',
      '::ffff:127.0.0.1': 'ipv4Mapped',
      '::ffff:8.8.8.8': 'ipv4Mapped',
      '::ffff:0:7f00:1': 'ipv4Translated',
      '64:ff9b::7f00:1': 'nat64(loopback)',
      '64:ff9b::a9fe:a9fe': 'nat64(linkLocal)',
      '64:ff9b:1::a00:1': 'nat64Local',
      '100::1': 'discard',
      '2001::1': 'teredo',
      '2001:2::1': 'ietfProtocol',
      '2001:db8::1': 'documentation',
      '2002:7f00:1::1': '6to4',
      '2002:a9fe:a9fe::1': '6to4',
      '3fff::1': 'documentation',
      'fc00::1': 'uniqueLocal',
      'fd00:ec2::254': 'uniqueLocal',
      'fe80::1': 'linkLocal',
      'fec0::1': 'siteLocal',
      'ff02::1': 'multicast',
      '4000::1': 'notGlobalUnicast',
    };
    for (const [address, reason] of Object.entries(blocked)) {
      assert.equal(nonPublicReason(parseAddress(address)!), reason, address);
    }
  });

  test('every failure code has a proposed API answer within SPEC 4.1 statuses', () => {
    for (const { status } of Object.values(REMOTE_FETCH_API_ERRORS)) {
      assert.ok([400, 413, 415, 422].includes(status));
    }
    assert.equal(REMOTE_FETCH_API_ERRORS.file_too_large.status, 413);
  });
});

describe('fetching from an allowed loopback origin', () => {
  test('streams a small file, with its declared type, length and a safe filename', async () => {
    const { bytes, info } = await fetchToStore(at(origin, '/small.bin#frag'), policy(), store);
    assert.deepEqual(bytes, SMALL);
    assert.deepEqual(info, {
      contentType: 'video/mp4',
      contentLength: SMALL.length,
      finalUrl: at(origin, '/small.bin'),
      filename: 'clip one.mp4',
    });
    const seen = origin.requests.at(-1)!;
    assert.equal(seen.headers.host, `127.0.0.1:${origin.port}`);
    assert.equal(seen.headers['accept-encoding'], 'identity');
    assert.equal(seen.headers.authorization, undefined);
    assert.equal(seen.headers.cookie, undefined);
    await drained(origin);
  });

  test('the filename falls back to the last path segment', async () => {
    const { info } = await fetchToStore(at(origin, '/files/holiday%20clip.mov'), policy(), store);
    assert.equal(info.filename, 'holiday clip.mov');
    assert.equal(info.contentLength, null);
  });

  test('a CIDR entry allows the range; a listed host name allows what it resolves to', async () => {
    const byRange = await fetchToStore(
      at(origin, '/small.bin'),
      policy({ allow: parseAllowList('127.0.0.0/8') }),
      store,
    );
    assert.deepEqual(byRange.bytes, SMALL);
    const byName = await fetchToStore(
      at(origin, '/small.bin', 'Allowed.Test'),
      policy({
        allow: parseAllowList('allowed.test'),
        lookup: names({ 'allowed.test': ['127.0.0.1'] }),
      }),
      store,
    );
    assert.deepEqual(byName.bytes, SMALL);
    assert.equal(origin.requests.at(-1)!.headers.host, `allowed.test:${origin.port}`);
  });

  test('follows up to 5 redirects and refuses the 6th', async () => {
    for (let hops = 1; hops <= 5; hops += 1) {
      const { bytes, info } = await fetchToStore(at(origin, `/redirect/${hops}`), policy(), store);
      assert.deepEqual(bytes, SMALL, `${hops} hops`);
      assert.equal(info.finalUrl, at(origin, '/redirect/0'));
    }
    const before = origin.requests.length;
    await refused(fetchToStore(at(origin, '/redirect/6'), policy(), store), 'too_many_redirects');
    assert.equal(origin.requests.length - before, 6, 'the 7th request is never sent');
    await refused(
      fetchToStore(at(origin, '/redirect/3'), policy({ maxRedirects: 2 }), store),
      'too_many_redirects',
    );
  });

  test('any port is allowed: a redirect to another port of an allowed address works', async () => {
    const target = encodeURIComponent(at(canary, '/'));
    const { bytes } = await fetchToStore(at(origin, `/to?url=${target}`), policy(), store);
    assert.equal(bytes.toString(), 'canary');
  });

  test('a file of exactly the cap is accepted', async () => {
    const { bytes } = await fetchToStore(at(origin, '/exact'), policy(), store);
    assert.equal(bytes.length, CAP);
  });

  test('https keeps the host name for SNI, Host and the certificate check', async () => {
    const httpsPolicy = policy({
      allow: parseAllowList('media.test'),
      lookup: names({ 'media.test': ['127.0.0.1'] }),
      ca: [CERT],
    });
    const url = `https://media.test:${secure.port}/small.bin`;
    const { bytes } = await fetchToStore(url, httpsPolicy, store);
    assert.deepEqual(bytes, SMALL);
    assert.equal(servernames.at(-1), 'media.test');
    assert.equal(secure.requests.at(-1)!.headers.host, `media.test:${secure.port}`);

    // An IP literal sends no SNI and is checked against the certificate's IP names.
    const literal = await fetchToStore(
      `https://127.0.0.1:${secure.port}/small.bin`,
      policy({ ca: [CERT] }),
      store,
    );
    assert.deepEqual(literal.bytes, SMALL);
    assert.equal(servernames.at(-1), false);

    // Without trusting the test authority the handshake fails, and nothing is sent.
    const requests = secure.requests.length;
    await refused(
      fetchToStore(url, { ...httpsPolicy, ca: undefined }, store),
      'source_unreachable',
    );
    assert.equal(secure.requests.length, requests);
  });

  test('a redirect from https to http is refused before connecting', async () => {
    const before = origin.connections;
    const target = encodeURIComponent(at(origin, '/small.bin'));
    await refused(
      fetchToStore(
        `https://127.0.0.1:${secure.port}/to?url=${target}`,
        policy({ ca: [CERT] }),
        store,
      ),
      'source_blocked',
    );
    assert.equal(origin.connections, before);
  });
});

describe('refusals before any connection', () => {
  test('with an empty allow list, loopback is refused without connecting', async () => {
    const empty = parseAllowList('');
    const before = origin.connections;
    await refused(
      fetchToStore(at(origin, '/small.bin'), policy({ allow: empty }), store),
      'source_blocked',
    );
    await refused(
      fetchToStore(
        at(origin, '/small.bin', 'localhost'),
        policy({ allow: empty, lookup: names({ localhost: ['127.0.0.1', '::1'] }) }),
        store,
      ),
      'source_blocked',
    );
    assert.equal(origin.connections, before);
  });

  // Spellings of internal targets (after ssrf-req-filter's blocked-URL corpus) and
  // URLs the fetcher must not accept at all.
  const BLOCKED: [string, RemoteFetchErrorCode][] = [
    ['http://127.0.0.1/', 'source_blocked'],
    ['http://127.1/', 'source_blocked'],
    ['http://127.0.0.1./', 'source_blocked'],
    ['http://2130706433/', 'source_blocked'],
    ['http://017700000001/', 'source_blocked'],
    ['http://0177.0.0.1/', 'source_blocked'],
    ['http://0x7f.1/', 'source_blocked'],
    ['http://0x7f000001/', 'source_blocked'],
    ['http://0x7f.0x0.0x0.0x1/', 'source_blocked'],
    ['http://127.000.000.001/', 'source_blocked'],
    ['http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/', 'source_blocked'],
    ['http://0/', 'source_blocked'],
    ['http://0.0.0.0:8080/', 'source_blocked'],
    ['http://[::]/', 'source_blocked'],
    ['http://[::1]/', 'source_blocked'],
    ['http://[0000:0000::01]/', 'source_blocked'],
    ['http://[::ffff:127.0.0.1]/', 'source_blocked'],
    ['http://[::fFFf:7f00:1]/', 'source_blocked'],
    ['http://[::127.0.0.1]/', 'source_blocked'],
    ['http://[::ffff:0:127.0.0.1]/', 'source_blocked'],
    ['http://169.254.169.254/latest/meta-data/', 'source_blocked'],
    ['http://2852039166/', 'source_blocked'],
    ['http://[::ffff:169.254.169.254]/', 'source_blocked'],
    ['http://[fd00:ec2::254]/', 'source_blocked'],
    ['http://10.0.0.1/', 'source_blocked'],
    ['http://012.1.2.3/', 'source_blocked'],
    ['http://172.16.0.1/', 'source_blocked'],
    ['http://172.31.255.254/', 'source_blocked'],
    ['http://192.168.0.1/', 'source_blocked'],
    ['http://100.64.0.1/', 'source_blocked'],
    ['http://100.127.255.254/', 'source_blocked'],
    ['http://224.0.0.1/', 'source_blocked'],
    ['http://239.255.255.250:1900/', 'source_blocked'],
    ['http://255.255.255.255/', 'source_blocked'],
    ['http://192.0.0.1/', 'source_blocked'],
    ['http://192.0.2.10/', 'source_blocked'],
    ['http://198.18.0.1/', 'source_blocked'],
    ['http://198.51.100.1/', 'source_blocked'],
    ['http://203.0.113.1/', 'source_blocked'],
    ['http://240.0.0.1/', 'source_blocked'],
    ['http://[fe80::1]/', 'source_blocked'],
    ['http://[fc00::1]/', 'source_blocked'],
    ['http://[fec0::1]/', 'source_blocked'],
    ['http://[ff02::1]/', 'source_blocked'],
    ['http://[64:ff9b::127.0.0.1]/', 'source_blocked'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'source_blocked'],
    ['http://[64:ff9b:1::10.0.0.1]/', 'source_blocked'],
    ['http://[2002:7f00:1::]/', 'source_blocked'],
    ['http://[2002:a9fe:a9fe::1]/', 'source_blocked'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'source_blocked'],
    ['http://[2001:db8::1]/', 'source_blocked'],
    ['https://127.0.0.1:443/', 'source_blocked'],
    ['http://127.0.0.1#@example.com/', 'source_blocked'],
    ['http://127.0.0.1?@example.com/', 'source_blocked'],
    ['http://a@127.0.0.1/', 'invalid_source_url'],
    ['http://example.com@127.0.0.1/', 'invalid_source_url'],
    ['http://user:pass@example.com/', 'invalid_source_url'],
    ['http://:pass@example.com/', 'invalid_source_url'],
    ['ftp://example.com/file.mp4', 'invalid_source_url'],
    ['file:///etc/passwd', 'invalid_source_url'],
    ['gopher://127.0.0.1:6379/_INFO', 'invalid_source_url'],
    ['data:video/mp4;base64,AAAA', 'invalid_source_url'],
    ['javascript:alert(1)', 'invalid_source_url'],
    ['ws://example.com/', 'invalid_source_url'],
    ['//example.com/clip.mp4', 'invalid_source_url'],
    ['not a url', 'invalid_source_url'],
    ['http://1.2.3.4.5/', 'invalid_source_url'],
    ['http://[fe80::1%25eth0]/', 'invalid_source_url'],
  ];

  test(`${BLOCKED.length} blocked URL spellings are refused without a lookup or a socket`, async () => {
    let sockets = 0;
    const lookups: string[] = [];
    const spy = policy({
      allow: parseAllowList(''),
      lookup: names({}, lookups),
      connect: (request) => {
        sockets += 1;
        return loopbackOnly(request);
      },
    });
    for (const [url, code] of BLOCKED) {
      const error = await refused(fetchToStore(url, spy, store), code).catch((e: Error) => {
        throw new Error(`${url}: ${e.message}`);
      });
      assert.ok(!error.message.includes('127.0.0.1'), 'messages never echo addresses');
    }
    assert.equal(sockets, 0);
    assert.deepEqual(lookups, []);
  });

  test('names resolving to any non-public address are refused (all answers judged)', async () => {
    const answers: Record<string, string[]> = {
      'loopback.test': ['127.0.0.1'],
      'nip.test': ['127.0.0.1'],
      'metadata.test': ['169.254.169.254'],
      'mixed-v4.test': [PUBLIC_V4, '10.0.0.1'],
      'private-last.test': [PUBLIC_V4, '8.8.8.8', '192.168.1.20'],
      'mixed-v6.test': [PUBLIC_V6, 'fe80::1'],
      'mixed-family.test': [PUBLIC_V6, PUBLIC_V4, '::ffff:127.0.0.1'],
      'ula.test': ['fd00:ec2::254'],
      'nat64.test': ['64:ff9b::a9fe:a9fe'],
      'unspecified.test': ['0.0.0.0'],
      'garbage.test': ['not-an-address'],
    };
    let sockets = 0;
    const spy = policy({
      allow: parseAllowList(''),
      lookup: names(answers),
      connect: (request) => {
        sockets += 1;
        return loopbackOnly(request);
      },
    });
    for (const name of Object.keys(answers)) {
      await refused(fetchToStore(`http://${name}/clip.mp4`, spy, store), 'source_blocked');
    }
    await refused(fetchToStore('http://unknown.test/', spy, store), 'source_unreachable');
    await refused(
      fetchToStore('http://empty.test/', { ...spy, lookup: async () => [] }, store),
      'source_unreachable',
    );
    assert.equal(sockets, 0);
  });

  test('an allowed host name does not let 0.0.0.0 or multicast through', async () => {
    const spy = policy({
      allow: parseAllowList('zero.test, 0.0.0.0/0'),
      lookup: names({ 'zero.test': ['0.0.0.0'], 'group.test': ['224.0.0.251'] }),
    });
    await refused(fetchToStore('http://zero.test/', spy, store), 'source_blocked');
    await refused(fetchToStore('http://group.test/', spy, store), 'source_blocked');
    await refused(fetchToStore('http://0.0.0.0/', spy, store), 'source_blocked');
  });

  test('redirects from an allowed host to internal targets are refused before connecting', async () => {
    const allowed = policy({
      allow: parseAllowList('allowed.test'),
      lookup: names({ 'allowed.test': ['127.0.0.1'], 'internal.test': ['127.0.0.1'] }),
    });
    const canaryConnections = canary.connections;
    const targets = [
      at(canary, '/'),
      at(canary, '/', 'internal.test'),
      at(canary, '/', '2130706433'),
      `http://[::1]:${canary.port}/`,
      'http://169.254.169.254/latest/meta-data/iam/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      `http://user:pw@allowed.test:${canary.port}/`,
      'file:///etc/passwd',
    ];
    for (const target of targets) {
      const url = at(origin, `/to?status=307&url=${encodeURIComponent(target)}`, 'allowed.test');
      const error = await refused(fetchToStore(url, allowed, store), 'source_blocked');
      assert.match(error.message, /redirect 1 of sourceUrl/);
    }
    assert.equal(canary.connections, canaryConnections);
  });
});

describe('pinning: the socket only reaches judged addresses', () => {
  test('a rebinding resolver is asked once; the connection gets only the first answer', async () => {
    const calls: string[] = [];
    let answer = 0;
    const rebinding: LookupFn = async (hostname) => {
      calls.push(hostname);
      answer += 1;
      return [{ address: answer === 1 ? PUBLIC_V4 : '127.0.0.1', family: 4 }];
    };
    const offered: string[] = [];
    const recorder: ConnectFn = ({ host, lookup }) => {
      const socket = new Socket();
      // Ask the pinned lookup what it would connect to, then fail closed.
      lookup(host, { all: true }, (error, addresses) => {
        if (!error && Array.isArray(addresses)) offered.push(...addresses.map((a) => a.address));
        socket.destroy(new Error('test connector: refusing to leave loopback'));
      });
      return socket;
    };
    await refused(
      fetchToStore(
        'http://rebind.test/clip.mp4',
        policy({ lookup: rebinding, connect: recorder }),
        store,
      ),
      'source_unreachable',
    );
    assert.deepEqual(calls, ['rebind.test']);
    assert.deepEqual(offered, [PUBLIC_V4]);
  });

  test('the pinned lookup answers for no other name and honours the family', async () => {
    const answers: string[][] = [];
    const recorder: ConnectFn = ({ host, lookup }) => {
      const socket = new Socket();
      const ask = (name: string, family: 0 | 4 | 6) =>
        new Promise<void>((resolve) =>
          lookup(name, { all: true, family }, (error, addresses) => {
            answers.push(
              error
                ? [`error:${error.code}`]
                : (addresses as { address: string }[]).map((a) => a.address),
            );
            resolve();
          }),
        );
      void ask(host, 0)
        .then(() => ask(host, 6))
        .then(() => ask('other.test', 0))
        .then(() => socket.destroy(new Error('test connector: done')));
      return socket;
    };
    await refused(
      fetchToStore(
        'http://dual.test/',
        policy({ lookup: names({ 'dual.test': [PUBLIC_V4, PUBLIC_V6] }), connect: recorder }),
        store,
      ),
      'source_unreachable',
    );
    assert.deepEqual(answers, [[PUBLIC_V4, PUBLIC_V6], [PUBLIC_V6], ['error:ENOTFOUND']]);
  });

  test('a socket that reaches another address than the judged one is closed before the request', async () => {
    // The resolver says "public"; the (misbehaving) connector reaches loopback instead.
    const astray: ConnectFn = ({ port }) => netConnect({ host: '127.0.0.1', port });
    const connections = origin.connections;
    const requests = origin.requests.length;
    await refused(
      fetchToStore(
        `http://media.example:${origin.port}/small.bin`,
        policy({
          allow: parseAllowList(''),
          lookup: names({ 'media.example': [PUBLIC_V4] }),
          connect: astray,
        }),
        store,
      ),
      'source_blocked',
    );
    assert.equal(origin.connections, connections + 1);
    assert.equal(origin.requests.length, requests, 'no request bytes were sent');
    await drained(origin);
  });

  test('a public name is fetched through its judged address, keeping its Host', async () => {
    // Stands in for a real public server: the socket goes to loopback but reports the
    // judged public address as its peer, so the whole public path runs offline.
    const standIn: ConnectFn = ({ host, port, lookup }) => {
      assert.equal(host, 'media.example');
      const socket = netConnect({ host: '127.0.0.1', port });
      lookup(host, { all: true }, (_error, addresses) => {
        const first = Array.isArray(addresses) ? addresses[0]?.address : addresses;
        Object.defineProperty(socket, 'remoteAddress', { value: first });
      });
      return socket;
    };
    const { bytes } = await fetchToStore(
      `http://media.example:${origin.port}/redirect/1`,
      policy({
        allow: parseAllowList(''),
        lookup: names({ 'media.example': [PUBLIC_V4] }),
        connect: standIn,
      }),
      store,
    );
    assert.deepEqual(bytes, SMALL);
    assert.equal(origin.requests.at(-1)!.headers.host, `media.example:${origin.port}`);
  });
});

describe('limits, timeouts and upstream failures', () => {
  test('a declared Content-Length over the cap is refused before the sink runs', async () => {
    let sinkRan = false;
    await refused(
      fetchToStore(at(origin, '/big-with-length'), policy(), async () => {
        sinkRan = true;
      }),
      'file_too_large',
    );
    assert.equal(sinkRan, false);
    await drained(origin);
  });

  test('a body without Content-Length is cut at the cap while streaming', async () => {
    let delivered = 0;
    const error = await refused(
      fetchToStore(at(origin, '/big-chunked'), policy(), async (body) => {
        for await (const chunk of body) delivered += (chunk as Buffer).length;
      }),
      'file_too_large',
    );
    assert.ok(delivered <= CAP, `${delivered} bytes reached the sink`);
    assert.match(error.message, new RegExp(`${CAP} bytes`));
    await drained(origin);
  });

  test('a slow drip is stopped by the total time limit', async () => {
    const started = Date.now();
    let delivered = 0;
    await refused(
      fetchToStore(at(origin, '/drip'), policy({ timeoutMs: 300 }), async (body) => {
        for await (const chunk of body) delivered += (chunk as Buffer).length;
      }),
      'source_timeout',
    );
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 290 && elapsed < 2500, `${elapsed} ms`);
    assert.ok(delivered > 0, 'the drip had started');
    await drained(origin);
  });

  test('a server that never answers hits the header limit', async () => {
    const started = Date.now();
    const error = await refused(
      fetchToStore(at(origin, '/stall-headers'), policy({ headersTimeoutMs: 200 }), store),
      'source_timeout',
    );
    assert.ok(Date.now() - started < 2000);
    assert.match(error.message, /did not answer within 200 ms/);
    await drained(origin);
  });

  test('a body that stalls hits the idle limit', async () => {
    const error = await refused(
      fetchToStore(at(origin, '/stall-body'), policy({ idleTimeoutMs: 200 }), store),
      'source_timeout',
    );
    assert.match(error.message, /sent nothing for 200 ms/);
    await drained(origin);
  });

  test('resolution and connection are bounded by the connect limit', async () => {
    const hanging: LookupFn = () => new Promise(() => undefined);
    const slowDns = await refused(
      fetchToStore('http://slow.test/', policy({ lookup: hanging, connectTimeoutMs: 150 }), store),
      'source_timeout',
    );
    assert.match(slowDns.message, /could not connect to the host of sourceUrl within 150 ms/);

    let silent: Socket | undefined;
    const neverConnects: ConnectFn = () => {
      silent = new Socket();
      return silent;
    };
    await refused(
      fetchToStore(
        'http://quiet.test/',
        policy({
          lookup: names({ 'quiet.test': [PUBLIC_V4] }),
          connect: neverConnects,
          connectTimeoutMs: 150,
        }),
        store,
      ),
      'source_timeout',
    );
    assert.equal(silent?.destroyed, true);
  });

  test('a 404 names the status and echoes nothing the source sent', async () => {
    const error = await refused(
      fetchToStore(at(origin, '/missing'), policy(), store),
      'source_http_error',
    );
    assert.equal(error.upstreamStatus, 404);
    assert.match(error.message, /HTTP 404/);
    const everything = JSON.stringify({
      message: error.message,
      detail: error.detail,
      stack: error.stack,
    });
    assert.ok(!everything.includes(SECRET));
    await refused(
      fetchToStore(at(origin, '/redirect-no-location'), policy(), store),
      'source_http_error',
    );
  });

  test('compressed responses are refused, whatever coding', async () => {
    let sinkRan = false;
    const sink = async () => {
      sinkRan = true;
    };
    await refused(
      fetchToStore(at(origin, '/gzip'), policy(), sink),
      'unsupported_content_encoding',
    );
    assert.equal(origin.requests.at(-1)!.headers['accept-encoding'], 'identity');
    await refused(
      fetchToStore(at(raw, '/transfer-gzip'), policy(), sink),
      'unsupported_content_encoding',
    );
    assert.equal(sinkRan, false);
  });

  test('a truncated body and a non-HTTP answer are reported as unreachable', async () => {
    await refused(fetchToStore(at(origin, '/truncated'), policy(), store), 'source_unreachable');
    await refused(fetchToStore(at(raw, '/ssh'), policy(), store), 'source_unreachable');
    await refused(
      fetchToStore(`http://127.0.0.1:${await closedPort()}/`, policy(), store),
      'source_unreachable',
    );
  });

  test("the sink's own error passes through and the connection is closed", async () => {
    const own = new Error('disk full');
    await assert.rejects(
      fetchToStore(at(origin, '/big-chunked'), policy(), async () => {
        throw own;
      }),
      (error) => error === own,
    );
    await drained(origin);
  });
});

describe('filenames', () => {
  test('Content-Disposition: filename* wins, quotes and escapes are read', () => {
    assert.equal(
      dispositionFilename(
        `attachment; filename="fallback.mp4"; filename*=UTF-8''caf%C3%A9%20clip.mp4`,
      ),
      'café clip.mp4',
    );
    assert.equal(
      dispositionFilename('attachment; filename="a \\"quoted\\" ; name.mov"'),
      'a "quoted" ; name.mov',
    );
    assert.equal(dispositionFilename('inline; filename=plain.jpg'), 'plain.jpg');
    assert.equal(dispositionFilename('attachment; xfilename=nope.mp4'), null);
    assert.equal(dispositionFilename(`attachment; filename*=UTF-8''%E0%A4%A`), null);
  });

  test('sanitised to one harmless segment of at most 255 characters', () => {
    assert.equal(sanitiseFilename('../../etc/passwd'), 'passwd');
    assert.equal(sanitiseFilename('C:\\temp\\clip.mp4'), 'clip.mp4');
    assert.equal(sanitiseFilename('..'), null);
    assert.equal(sanitiseFilename('  .hidden.mp4 '), 'hidden.mp4');
    assert.equal(sanitiseFilename('evil\u202Egnp.mp4'), 'evilgnp.mp4');
    assert.equal(sanitiseFilename('a\r\nb<c>.mp4'), 'ab_c_.mp4');
    const long = sanitiseFilename(`${'x'.repeat(400)}.mp4`)!;
    assert.equal(long.length, 255);
    assert.ok(long.endsWith('.mp4'));
  });
});

/** A loopback port with nothing listening (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  await new Promise((resolve) => server.close(resolve));
  return address.port;
}
