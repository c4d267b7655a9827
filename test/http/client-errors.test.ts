// Requests Node's HTTP parser refuses before any route runs (SPEC 7): they answer
// in the error envelope with a request id and close the connection. Raw bytes over a
// real socket, since app.inject never goes through the parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describeEachDialect } from '../helpers/dialects.ts';
import { ERROR_CATALOG } from '../../src/errors.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent before it closed the connection. */
  raw: string;
}

/** Sends `bytes`, reads until the server closes the socket (bounded by a timeout). */
function rawExchange(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`server did not close the connection: ${Buffer.concat(chunks)}`));
    }, 5000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.write(bytes);
  });
}

/** The responses of a connection, framed by their Content-Length. */
function responses(raw: string): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < raw.length) {
    const split = raw.indexOf('\r\n\r\n', at);
    assert.ok(split > at, `no header block in ${raw.slice(at)}`);
    const [statusLine, ...lines] = raw.slice(at, split).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const end = split + 4 + Number(headers['content-length']);
    out.push({
      status: Number(statusLine?.split(' ')[1]),
      headers,
      body: raw.slice(split + 4, end),
      raw,
    });
    at = end;
  }
  return out;
}

const lastResponse = (raw: string): RawResponse => responses(raw).at(-1) as RawResponse;

function assertEnvelope(res: RawResponse, status: number, code: string, includes: RegExp) {
  assert.equal(res.status, status, res.raw);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(res.headers.connection, 'close');
  assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
  const body = JSON.parse(res.body);
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'hint', 'message', 'requestId']);
  assert.equal(body.error.code, code);
  assert.ok(code in ERROR_CATALOG);
  assert.match(body.error.message, includes);
  assert.ok(body.error.hint.length > 10);
  assert.match(body.error.requestId, /^req_/);
  assert.equal(res.headers['x-request-id'], body.error.requestId);
  return body.error as { message: string; hint: string; requestId: string };
}

describeEachDialect('protocol-level errors', (get) => {
  const listening = async () => {
    const t = get();
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    return (t.app.server.address() as AddressInfo).port;
  };

  test('a 20 KB query string is 431 request_too_large naming the limit', async () => {
    const port = await listening();
    const raw = await rawExchange(
      port,
      `GET /v2/accounts?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    const err = assertEnvelope(lastResponse(raw), 431, 'request_too_large', /headers exceed \d+/);
    assert.match(err.hint, /\d+ bytes/);
  });

  test('an oversized header is 431 request_too_large', async () => {
    const port = await listening();
    const raw = await rawExchange(
      port,
      `GET /v2/accounts HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    assertEnvelope(lastResponse(raw), 431, 'request_too_large', /exceed/);
  });

  test('malformed request lines and header names are 400 invalid_request', async () => {
    const port = await listening();
    const cases: [string, RegExp][] = [
      ['GARBAGE\r\n\r\n', /Malformed HTTP request/],
      ['GET /v2/accounts HTTP/9\r\nHost: x\r\n\r\n', /Malformed HTTP request/],
      ['G@T /v2/accounts HTTP/1.1\r\nHost: x\r\n\r\n', /method/],
      ['GET /v2/accounts HTTP/1.1\r\nBad Header: x\r\nHost: x\r\n\r\n', /header/],
      [
        'POST /v2/posts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
        /Content-Length/,
      ],
    ];
    for (const [bytes, includes] of cases) {
      const res = lastResponse(await rawExchange(port, bytes));
      assertEnvelope(res, 400, 'invalid_request', includes);
    }
  });

  test('a malformed request after a good one on a kept-alive connection', async () => {
    const port = await listening();
    const raw = await rawExchange(
      port,
      'GET /v2/openapi.json HTTP/1.1\r\nHost: x\r\n\r\nGET /v2/x HTTP/1.1\r\nBad Header: y\r\n\r\n',
    );
    const [ok, refused, ...more] = responses(raw);
    assert.equal(ok?.status, 200);
    assert.equal(more.length, 0);
    const err = assertEnvelope(refused as RawResponse, 400, 'invalid_request', /header/);
    assert.notEqual(err.requestId, ok?.headers['x-request-id'], 'each answer has its own id');
  });
});
