// Uploads, thumbnails, carousels and worker tasks with media in an S3-compatible bucket
// (s3rver in process, or SLOTLINE_TEST_S3_URL): bytes go to and come from the bucket
// through presigned URLs, never through the service.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { fixture, local, putBytes, uploadFile } from '../../helpers/uploads.ts';
import { makeActiveAccounts, readyUpload } from '../../helpers/posts.ts';
import { startS3 } from '../../helpers/s3.ts';
import { outbox, seedListeningCompany } from '../../helpers/webhook-events.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { uploadThumbnailKey } from '../../../src/modules/uploads/index.ts';
import { incomingKey } from '../../../src/modules/uploads/upload-incoming.service.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

const T = { timeout: 60_000 };
const s3 = await startS3();
const bucketHost = new URL(s3.config.publicEndpoint).host;
const mp4 = await fixture('h264-aac-faststart.mp4');
const source = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': mp4.length });
  res.end(mp4);
});
await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
const sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/clip.mp4`;
after(async () => {
  source.close();
  await s3.close();
});

/** A presigned GET of the bucket, and what it serves. */
async function download(url: string): Promise<{ type: string | null; bytes: Buffer }> {
  const u = new URL(url);
  assert.equal(u.host, bucketHost);
  assert.ok(u.searchParams.get('X-Amz-Signature'), url);
  assert.equal(u.searchParams.get('X-Amz-Expires'), '3600');
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return { type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

async function create(call: ReturnType<typeof client>, size: number, type = 'video/mp4') {
  const kind = type.startsWith('video/') ? 'video' : 'image';
  const ext = kind === 'video' ? 'mp4' : 'png';
  const res = await call('POST', '/v2/uploads', {
    kind,
    filename: `clip.${ext}`,
    contentType: type,
    sizeBytes: size,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { uploadId: string; uploadUrl: string };
}

describeEachDialect(
  'uploads with object storage',
  (get) => {
    test('signed upload: PUT to the bucket, complete, presigned downloads', T, async () => {
      const t: TestApp = get();
      const co = await seedListeningCompany(t);
      const call = client(t, co.key);
      const flow = await uploadFile(t, call, 'h264-aac-faststart.mp4');
      assert.equal(new URL(flow.created.body.uploadUrl).host, bucketHost);
      assert.equal(flow.put.statusCode, 200);
      assert.equal(flow.complete.status, 200, JSON.stringify(flow.complete.body));
      assert.equal(flow.complete.body.status, 'ready');
      assert.equal(flow.complete.body.width, 160);
      assert.ok(flow.complete.body.height > 0);
      assert.ok(flow.complete.body.durationSeconds > 0);
      // Never read through the service, so never hashed by it.
      assert.equal(flow.complete.body.sha256, undefined);
      assert.deepEqual(await outbox(t, co.companyId), [
        {
          type: 'upload.ready',
          data: { uploadId: flow.uploadId, kind: 'video', status: 'ready', error: null },
        },
      ]);
      await t.media.idle();
      const got = await call('GET', `/v2/uploads/${flow.uploadId}`);
      assert.equal(got.body.thumbnailStatus, 'ready');
      assert.ok(await t.ctx.blobs.stat(uploadThumbnailKey(flow.uploadId)));
      const file = await download(got.body.url);
      assert.equal(file.type, 'video/mp4');
      assert.ok(file.bytes.equals(mp4));
      const thumb = await download(got.body.thumbnailUrl);
      assert.equal(thumb.type, 'image/jpeg');
      assert.equal(thumb.bytes[0], 0xff);
      // The incoming object is gone once copied.
      assert.equal(await t.ctx.blobs.stat(incomingKey(co.companyId, flow.uploadId)), null);

      // A PUT after complete lands on the incoming key, never on the validated copy.
      const other = Buffer.alloc(mp4.length, 7);
      const late = await putBytes(t, flow.created.body.uploadUrl, other, 'video/mp4');
      assert.equal(late.statusCode, 200);
      assert.ok((await download(got.body.url)).bytes.equals(mp4));

      // URLs the service signed (handed out before) redirect to a fresh presigned GET.
      const path = `/v2/media/uploads/${flow.uploadId}`;
      const signed = t.ctx.signer.sign(path, new Date(t.clock.now().getTime() + 60_000));
      const redirect = await t.app.inject({ method: 'GET', url: local(signed) });
      assert.equal(redirect.statusCode, 302);
      const location = redirect.headers.location as string;
      assert.equal(new URL(location).host, bucketHost);
      assert.ok((await fetch(location).then((r) => r.arrayBuffer())).byteLength === mp4.length);
    });

    test('complete before the PUT, a PUT of another size, an invalid video', T, async () => {
      const t = get();
      const co = await seedListeningCompany(t);
      const call = client(t, co.key);
      const early = await create(call, mp4.length);
      assertApiError(
        await call('POST', `/v2/uploads/${early.uploadId}/complete`),
        409,
        'upload_incomplete',
      );

      const wrong = await create(call, mp4.length);
      const put = await putBytes(t, wrong.uploadUrl, Buffer.concat([mp4, mp4]), 'video/mp4');
      const done = await call('POST', `/v2/uploads/${wrong.uploadId}/complete`);
      if (s3.enforcesSignatures) {
        // The bucket refuses a Content-Length other than the signed one.
        assert.equal(put.statusCode, 403);
        assertApiError(done, 409, 'upload_incomplete');
      } else {
        // s3rver stores it (it checks no signatures); the service's size check fails it.
        assert.equal(put.statusCode, 200);
        assertApiError(done, 413, 'file_too_large', { includes: `${mp4.length * 2} bytes` });
        const failed = await call('GET', `/v2/uploads/${wrong.uploadId}`);
        assert.equal(failed.body.status, 'failed');
        const error = failed.body.error;
        assert.deepEqual(await outbox(t, co.companyId), [
          {
            type: 'upload.failed',
            data: { uploadId: wrong.uploadId, kind: 'video', status: 'failed', error },
          },
        ]);
      }

      const garbage = Buffer.alloc(4096, 1);
      const bad = await create(call, garbage.length);
      assert.equal((await putBytes(t, bad.uploadUrl, garbage, 'video/mp4')).statusCode, 200);
      const refused = await call('POST', `/v2/uploads/${bad.uploadId}/complete`);
      assert.ok(refused.status >= 400 && refused.status < 500, JSON.stringify(refused.body));
      const failed = await call('GET', `/v2/uploads/${bad.uploadId}`);
      assert.equal(failed.body.status, 'failed');
      assert.equal(failed.body.error, refused.body.error.message);
    });

    test('a remote upload streams into the bucket', T, async () => {
      const t = get();
      const call = client(t, (await seedCompany(t)).key);
      const r = await call('POST', '/v2/uploads', { kind: 'video', sourceUrl });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const got = await call('GET', `/v2/uploads/${r.body.uploadId}`);
      assert.equal(got.body.status, 'ready');
      assert.match(got.body.sha256, /^[0-9a-f]{64}$/);
      assert.ok((await download(got.body.url)).bytes.equals(mp4));
    });

    test('a carousel renders into the bucket; worker tasks get presigned URLs', T, async () => {
      const t = get();
      t.clock.set('2026-03-09T10:00:00.000Z');
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const [accountId] = await makeActiveAccounts(t, call, 1);
      const img = await readyUpload(t, call, 'image.png');
      const img2 = await readyUpload(t, call, 'image.jpg');
      const slide = (image: string) => ({
        image,
        textElements: [{ content: 'Hello', style: { positionY: 30 } }],
      });
      const post = await call('POST', '/v2/posts', {
        media: [img, img2],
        slides: [slide(img), slide(img2)],
        accountIds: [accountId],
        skipApproval: true,
      });
      assert.equal(post.status, 201, JSON.stringify(post.body));
      await t.media.idle();
      const viewed = await call('GET', `/v2/posts/${post.body.postId}`);
      const cover = await download(viewed.body.media.thumbnailUrl);
      assert.equal(cover.type, 'image/jpeg');
      const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'w', timezone: 'UTC' });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [accountId as string]);
      t.clock.set('2026-03-09T11:00:00.000Z');
      await releaseDue(t.ctx, t.clock.now());
      const work = client(t, worker.token);
      const claimed = await work('POST', '/worker/v1/tasks/claim', { accountId });
      assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
      const [task] = claimed.body.data;
      assert.equal(task.media.kind, 'carousel');
      assert.equal(task.media.items.length, 2);
      for (const item of task.media.items) {
        const u = new URL(item.url);
        assert.equal(u.host, bucketHost);
        assert.ok(u.searchParams.get('X-Amz-Signature'));
        const res = await fetch(item.url);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'image/jpeg');
      }
    });
  },
  { env: { STORAGE_URL: s3.url, REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
