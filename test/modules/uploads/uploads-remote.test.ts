// The remote form of POST /v2/uploads and the byte upload over a real socket.
// The source server runs on 127.0.0.1, reachable only because the operator
// setting REMOTE_FETCH_ALLOW lists it; without it, loopback is refused before
// any connection is made.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { fixture, local } from '../../helpers/uploads.ts';

let server: Server;
let base = '';
let connections = 0;

before(async () => {
  const mp4 = await fixture('h264-aac-faststart.mp4');
  const webm = await fixture('vp9.webm');
  const png = await fixture('image.png');
  server = createServer((req, res) => {
    switch (req.url) {
      case '/clip.mp4':
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': mp4.length });
        return res.end(mp4);
      case '/download?id=7':
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="holiday.mov"',
        });
        return res.end(mp4);
      case '/moved':
        res.writeHead(302, { location: '/clip.mp4' });
        return res.end();
      case '/clip.webm':
        res.writeHead(200, { 'content-type': 'video/webm' });
        return res.end(webm);
      case '/picture':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(png);
      case '/huge.mp4':
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 209_715_201 });
        return res.end();
      case undefined:
      default:
        res.writeHead(404);
        return res.end('missing');
    }
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

describeEachDialect(
  'remote uploads (source allowed by the operator)',
  (get) => {
    test('a supported file becomes ready at once, also through a redirect', async () => {
      const t = get();
      const call = client(t, (await seedCompany(t)).key);
      for (const path of ['/clip.mp4', '/moved', '/download?id=7']) {
        const r = await call('POST', '/v2/uploads', { kind: 'video', sourceUrl: `${base}${path}` });
        assert.equal(r.status, 201, `${path}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.status, 'ready');
        const got = await call('GET', `/v2/uploads/${r.body.uploadId}`);
        assert.equal(got.body.status, 'ready');
        assert.equal(got.body.width, 160);
        const bytes = await t.app.inject({ method: 'GET', url: local(got.body.url) });
        assert.ok(bytes.rawPayload.equals(await fixture('h264-aac-faststart.mp4')));
      }
      const named = await call('POST', '/v2/uploads', {
        kind: 'image',
        sourceUrl: `${base}/picture`,
        filename: 'brand.png',
      });
      assert.equal(named.status, 201);
      assert.equal(
        (await call('GET', `/v2/uploads/${named.body.uploadId}`)).body.filename,
        'brand.png',
      );
    });

    test('unsupported content, missing source and oversize files fail with their codes', async () => {
      const t = get();
      const call = client(t, (await seedCompany(t)).key);
      const webm = await call('POST', '/v2/uploads', {
        kind: 'video',
        sourceUrl: `${base}/clip.webm`,
      });
      assertApiError(webm, 415, 'unsupported_media_type');
      const missing = await call('POST', '/v2/uploads', {
        kind: 'video',
        sourceUrl: `${base}/nothing.mp4`,
      });
      assertApiError(missing, 422, 'source_fetch_failed', { includes: '/sourceUrl' });
      const huge = await call('POST', '/v2/uploads', {
        kind: 'video',
        sourceUrl: `${base}/huge.mp4`,
      });
      assertApiError(huge, 413, 'file_too_large', { includes: '/sourceUrl' });
      assertApiError(
        await call('POST', '/v2/uploads', {
          kind: 'video',
          sourceUrl: `${base}/clip.mp4`,
          sizeBytes: 5,
        }),
        400,
        'invalid_request',
        { startsWith: '/sizeBytes' },
      );
      assertApiError(
        await call('POST', '/v2/uploads', { kind: 'video', sourceUrl: 'ftp://example.com/a.mp4' }),
        400,
        'invalid_request',
        { startsWith: '/sourceUrl' },
      );
    });

    test('the byte upload streams over a real socket', async () => {
      const t = get();
      const call = client(t, (await seedCompany(t)).key);
      const bytes = await fixture('hevc-aac.mp4');
      const created = await call('POST', '/v2/uploads', {
        kind: 'video',
        filename: 'clip.mp4',
        contentType: 'video/mp4',
        sizeBytes: bytes.length,
      });
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const chunks = Array.from({ length: 8 }, (_, i) =>
          bytes.subarray((i * bytes.length) / 8, ((i + 1) * bytes.length) / 8),
        );
        const res = await fetch(`${address}${local(created.body.uploadUrl)}`, {
          method: 'PUT',
          headers: { 'content-type': 'video/mp4', 'content-length': String(bytes.length) },
          body: Readable.toWeb(Readable.from(chunks)) as ReadableStream,
          duplex: 'half',
        });
        assert.equal(res.status, 200, await res.clone().text());
        const done = await call('POST', `/v2/uploads/${created.body.uploadId}/complete`);
        assert.equal(done.status, 200);
        assert.equal(done.body.status, 'ready');
      } finally {
        // server.close() returns the server, not a promise: wait for its callback so the
        // next test starts with the socket really closed.
        await new Promise<void>((resolve, reject) =>
          t.app.server.close((err) => (err ? reject(err) : resolve())),
        );
      }
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);

describeEachDialect('remote uploads (default: private targets refused)', (get) => {
  test('loopback is refused before any connection', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const before = connections;
    for (const url of [
      `${base}/clip.mp4`,
      base.replace('127.0.0.1', 'localhost') + '/clip.mp4',
      base.replace('127.0.0.1', '2130706433') + '/clip.mp4',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/a.mp4',
      'http://[::1]/a.mp4',
    ]) {
      const r = await call('POST', '/v2/uploads', { kind: 'video', sourceUrl: url });
      assertApiError(r, 400, 'invalid_request', { startsWith: '/sourceUrl' });
    }
    assert.equal(connections, before, 'no connection reached the source');
  });
});
