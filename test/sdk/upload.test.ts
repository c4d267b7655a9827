// The SDK's upload helper against the service: a file path or a stream goes through
// create, PUT with progress, and complete, and comes back a ready upload.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SlotlineError, createClient, type SlotlineClient } from '../../sdk/src/index.ts';
import { uploadFile } from '../../sdk/src/upload.ts';
import { listeningApp } from '../helpers/browser.ts';
import { seedCompany, type TestApp } from '../helpers/app.ts';
import { FIXTURES } from '../helpers/uploads.ts';

const VIDEO = join(FIXTURES, 'h264-aac-faststart.mp4');

describe('the SDK upload helper', { timeout: 120_000 }, () => {
  let t: TestApp;
  let api: SlotlineClient;

  before(async () => {
    const listening = await listeningApp();
    t = listening.t;
    api = createClient({ baseUrl: listening.url, apiKey: (await seedCompany(t)).key });
  });
  after(async () => {
    await t?.close();
  });

  test('a file path becomes a ready upload, with progress up to its size', async () => {
    const size = (await stat(VIDEO)).size;
    const progress: number[] = [];
    const upload = await uploadFile(api, {
      path: VIDEO,
      onProgress: (sent, total) => {
        assert.equal(total, size);
        progress.push(sent);
      },
    });
    assert.equal(upload.status, 'ready');
    assert.equal(upload.kind, 'video');
    assert.equal(upload.sizeBytes, size);
    assert.ok(progress.length >= 1);
    assert.equal(progress.at(-1), size);
    assert.deepEqual(
      progress,
      [...progress].sort((a, b) => a - b),
    );
  });

  test('a stream with its size uploads the same way', async () => {
    const size = (await stat(VIDEO)).size;
    const upload = await uploadFile(api, {
      stream: createReadStream(VIDEO),
      sizeBytes: size,
      filename: 'clip.mp4',
      contentType: 'video/mp4',
    });
    assert.equal(upload.status, 'ready');
    assert.equal(upload.filename, 'clip.mp4');
  });

  test('a refused upload is a SlotlineError with the envelope code', async () => {
    await assert.rejects(
      uploadFile(api, {
        path: VIDEO,
        contentType: 'image/png',
        kind: 'video',
      }),
      (err: unknown) =>
        err instanceof SlotlineError && err.code === 'unsupported_media_type' && err.status === 415,
    );
  });
});
