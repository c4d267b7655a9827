// A ready upload's bytes never change: PUT attempts that overlap `complete` or each
// other, over real sockets with bodies held half-sent. The content `complete`
// validated (its SHA-256) is what is served, the loser gets a 409, and no file is
// left behind in the blob store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { fixture, local } from '../../helpers/uploads.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every file under the blob store, relative to it. */
async function blobFiles(t: TestApp): Promise<string[]> {
  const root = join(t.config.dataDir, 'blobs');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface HeldPut {
  /** Sends the rest of the body and resolves with the response. */
  finish(): Promise<{ status: number; body: any }>;
}

/** A PUT whose body is sent halfway; the rest waits for finish(). */
function heldPut(base: string, uploadUrl: string, bytes: Buffer): HeldPut {
  const held = Math.floor(bytes.length / 2);
  const req = request(`${base}${local(uploadUrl)}`, {
    method: 'PUT',
    headers: { 'content-type': 'video/mp4', 'content-length': String(bytes.length) },
  });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString()),
        }),
      );
    });
  });
  // A test that fails midway must not leave a request open to hang the suite.
  const abort = setTimeout(() => req.destroy(new Error('held PUT never finished')), 10_000);
  req.write(bytes.subarray(0, held));
  return {
    finish: () => {
      req.end(bytes.subarray(held));
      return response.finally(() => clearTimeout(abort));
    },
  };
}

describeEachDialect('upload content never changes after validation', (get) => {
  async function setup() {
    const t = get();
    const base = t.app.server.listening
      ? `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
      : await t.app.listen({ port: 0, host: '127.0.0.1' });
    const call = client(t, (await seedCompany(t)).key);
    const a = await fixture('h264-aac-faststart.mp4');
    // Same size, other bytes: the last byte of the media data differs.
    const b = Buffer.from(a);
    b[b.length - 1] = (b[b.length - 1] as number) ^ 0xff;
    const created = await call('POST', '/v2/uploads', {
      kind: 'video',
      filename: 'clip.mp4',
      contentType: 'video/mp4',
      sizeBytes: a.length,
    });
    assert.equal(created.status, 201);
    const uploadId = created.body.uploadId as string;
    const partials = async () => (await blobFiles(t)).filter((f) => f.endsWith('.partial'));
    return { t, base, call, a, b, uploadId, uploadUrl: created.body.uploadUrl, partials };
  }

  /** What is served for the upload, and the blob store's files (thumbnail made). */
  async function served(t: TestApp, call: ReturnType<typeof client>, uploadId: string) {
    await t.media.idle();
    const got = await call('GET', `/v2/uploads/${uploadId}`);
    assert.equal(got.status, 200);
    const download = await t.app.inject({ method: 'GET', url: local(got.body.url) });
    assert.equal(download.statusCode, 200);
    return { upload: got.body, bytes: download.rawPayload, files: await blobFiles(t) };
  }

  function assertNoOrphans(files: string[], uploadId: string) {
    const mine = files.filter((f) => f.includes(uploadId));
    assert.equal(mine.length, 2, `the content and its thumbnail only: ${mine.join(', ')}`);
    assert.ok(mine.some((f) => f.endsWith('.thumb.jpg')));
    assert.ok(!files.some((f) => f.endsWith('.partial')), files.join(', '));
  }

  test('a PUT still streaming when complete runs cannot replace the validated bytes', async () => {
    const { t, base, call, a, b, uploadId, uploadUrl, partials } = await setup();
    const first = await heldPut(base, uploadUrl, a).finish();
    assert.equal(first.status, 200);
    const slow = heldPut(base, uploadUrl, b);
    await until('the second PUT to be streaming', async () => (await partials()).length === 1);
    const done = await call('POST', `/v2/uploads/${uploadId}/complete`);
    assert.equal(done.status, 200);
    assert.equal(done.body.status, 'ready');
    assert.equal(done.body.sha256, sha(a));
    const late = await slow.finish();
    assert.equal(late.status, 409);
    assert.equal(late.body.error.code, 'upload_already_completed');
    assert.match(late.body.error.message, /content is unchanged/);
    const now = await served(t, call, uploadId);
    assert.equal(now.upload.sha256, sha(a));
    assert.equal(sha(now.bytes), sha(a), 'the served bytes are the validated ones');
    assertNoOrphans(now.files, uploadId);
  });

  test('of two overlapping PUTs the first to finish wins; the other is refused', async () => {
    const { t, base, call, a, b, uploadId, uploadUrl, partials } = await setup();
    const slowA = heldPut(base, uploadUrl, a);
    const slowB = heldPut(base, uploadUrl, b);
    await until('both PUTs to be streaming', async () => (await partials()).length === 2);
    const won = await slowB.finish();
    assert.equal(won.status, 200);
    assert.equal(won.body.sha256, sha(b));
    const lost = await slowA.finish();
    assert.equal(lost.status, 409);
    assert.equal(lost.body.error.code, 'upload_content_conflict');
    assert.match(lost.body.error.message, new RegExp(sha(b)));
    const done = await call('POST', `/v2/uploads/${uploadId}/complete`);
    assert.equal(done.status, 200);
    assert.equal(done.body.sha256, sha(b));
    const now = await served(t, call, uploadId);
    assert.equal(sha(now.bytes), sha(b));
    assertNoOrphans(now.files, uploadId);
  });

  test('the same bytes sent again are a harmless retry', async () => {
    const { t, base, call, a, uploadId, uploadUrl } = await setup();
    const first = await heldPut(base, uploadUrl, a).finish();
    const retry = await heldPut(base, uploadUrl, a).finish();
    assert.deepEqual(retry, first);
    assert.equal(retry.status, 200);
    const done = await call('POST', `/v2/uploads/${uploadId}/complete`);
    assert.equal(done.body.sha256, sha(a));
    const now = await served(t, call, uploadId);
    assert.equal(sha(now.bytes), sha(a));
    assertNoOrphans(now.files, uploadId);
  });
});
