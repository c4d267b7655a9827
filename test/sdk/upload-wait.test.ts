// The SDK upload helper waits for ready: remote uploads from a URL, and (through a fetch
// that answers `pending` for a while) polling until ready, failed, or out of time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  SlotlineError,
  UploadFailedError,
  createClient,
  type SlotlineClient,
} from '../../sdk/src/index.ts';
import { uploadFile } from '../../sdk/src/upload.ts';
import { listeningApp } from '../helpers/browser.ts';
import { seedCompany, type TestApp } from '../helpers/app.ts';
import { FIXTURES, fixture } from '../helpers/uploads.ts';

const VIDEO = join(FIXTURES, 'h264-aac-faststart.mp4');

/** Rewrites the upload the service answers: `pending` for the first `pending` reads. */
function pendingFetch(pending: number, last: Record<string, unknown> | null = null) {
  const reads = { count: 0 };
  const fetch = async (request: Request): Promise<Response> => {
    const response = await globalThis.fetch(request);
    const { pathname } = new URL(request.url);
    const isComplete = request.method === 'POST' && pathname.endsWith('/complete');
    const isRead = request.method === 'GET' && pathname.startsWith('/v2/uploads/');
    if (!response.ok || (!isComplete && !isRead)) return response;
    const body = (await response.json()) as Record<string, unknown>;
    if (isRead) reads.count++;
    const changed = isComplete || reads.count <= pending ? { status: 'pending' } : last;
    const requestId = response.headers.get('x-request-id') ?? '';
    return Response.json({ ...body, ...changed }, { headers: { 'x-request-id': requestId } });
  };
  return { fetch, reads };
}

describe('the SDK upload helper waits for ready', { timeout: 120_000 }, () => {
  let t: TestApp;
  let url: string;
  let key: string;
  let api: SlotlineClient;
  let source: Server;
  let sourceBase: string;

  before(async () => {
    ({ t, url } = await listeningApp({ env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } }));
    key = (await seedCompany(t)).key;
    api = createClient({ baseUrl: url, apiKey: key });
    const mp4 = await fixture('h264-aac-faststart.mp4');
    source = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': mp4.length });
      res.end(mp4);
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    sourceBase = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => source?.close(() => resolve()));
    await t?.close();
  });

  test('a sourceUrl becomes a ready upload fetched by the service', async () => {
    const upload = await uploadFile(api, { sourceUrl: `${sourceBase}/clip.mp4` });
    assert.equal(upload.status, 'ready');
    assert.equal(upload.kind, 'video');
    assert.equal(upload.width, 160);
    const named = await uploadFile(api, {
      sourceUrl: `${sourceBase}/download`,
      kind: 'video',
      filename: 'holiday.mp4',
    });
    assert.equal(named.filename, 'holiday.mp4');
    await assert.rejects(uploadFile(api, { sourceUrl: `${sourceBase}/download` }), TypeError);
  });

  test('a pending upload is asked for until it is ready', async () => {
    const { fetch, reads } = pendingFetch(2);
    const slow = createClient({ baseUrl: url, apiKey: key, fetch });
    const upload = await uploadFile(slow, { path: VIDEO, pollIntervalMs: 1 });
    assert.equal(upload.status, 'ready');
    assert.equal(reads.count, 3);
  });

  test('an upload that fails while pending throws UploadFailedError with its error', async () => {
    const failed = { status: 'failed', error: 'the video has no frames' };
    const { fetch } = pendingFetch(1, failed);
    const slow = createClient({ baseUrl: url, apiKey: key, fetch });
    await assert.rejects(uploadFile(slow, { path: VIDEO, pollIntervalMs: 1 }), (err: unknown) => {
      assert.ok(err instanceof UploadFailedError);
      assert.ok(err instanceof SlotlineError);
      assert.equal(err.code, 'upload_failed');
      assert.equal(err.message, 'the video has no frames');
      assert.equal(err.upload.status, 'failed');
      assert.match(err.upload.uploadId, /./);
      return true;
    });
  });

  test('an upload still pending after timeoutMs throws upload_timeout', async () => {
    const { fetch, reads } = pendingFetch(Number.POSITIVE_INFINITY);
    const slow = createClient({ baseUrl: url, apiKey: key, fetch });
    await assert.rejects(
      uploadFile(slow, { path: VIDEO, pollIntervalMs: 20, timeoutMs: 200 }),
      (err: unknown) => err instanceof SlotlineError && err.code === 'upload_timeout',
    );
    // At least one look before giving up, however slow the machine is.
    assert.ok(reads.count >= 1, `asked ${reads.count} times`);
  });
});
