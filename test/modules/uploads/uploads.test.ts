// Uploads end to end through the API on both databases: the signed flow, every
// media fixture with its outcome, the byte-upload rules, caps and quotas.
import { test } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany } from '../../helpers/app.ts';
import { assertApiError, planWith, writePlansFile } from '../../helpers/api-error.ts';
import { fixture, local, putBytes, uploadFile } from '../../helpers/uploads.ts';
import { makeAccounts, readyUpload } from '../../helpers/posts.ts';
import { runThumbnailJob } from '../../../src/modules/uploads/thumbnail.jobs.ts';

const VIDEO_OUTCOMES: [string, string | null][] = [
  ['h264-aac-faststart.mp4', null],
  ['h264-aac-moov-end.mp4', null],
  ['h264-noaudio.mp4', null],
  ['hevc-aac.mp4', null],
  ['hevc-hev1-noaudio.mp4', null],
  ['h264-aac.mov', null],
  ['fragmented.mp4', null],
  ['fps-60.mp4', null],
  ['fps-59.94.mp4', null],
  ['fps-61.mp4', 'invalid_media_specs'],
  ['duration-180.mp4', null],
  ['duration-181.mp4', 'invalid_media_specs'],
  ['size-2160x3840.mp4', null],
  ['size-3840x2160.mp4', null],
  ['size-2160x3842.mp4', 'invalid_media_specs'],
  ['size-2162x3840.mp4', 'invalid_media_specs'],
  ['vp9.mp4', 'invalid_media_specs'],
  ['av1.mp4', 'invalid_media_specs'],
  ['h264-mp3.mp4', 'invalid_media_specs'],
  ['h264-opus.mp4', 'invalid_media_specs'],
  ['encrypted.mp4', 'invalid_media_specs'],
  ['truncated-no-moov.mp4', 'invalid_media_specs'],
  ['truncated-in-moov.mp4', 'invalid_media_specs'],
  ['vp9.webm', 'unsupported_media_type'],
  ['text.mp4', 'unsupported_media_type'],
];

const IMAGE_OUTCOMES: [string, string | null][] = [
  ['image.png', null],
  ['image.jpg', null],
  ['image-lossy.webp', null],
  ['image-alpha.webp', null],
  ['image.heic', null],
  ['image-8192x8.png', null],
  ['image-8193x8.png', 'invalid_media_specs'],
  ['image-truncated.png', 'invalid_media_specs'],
  ['text.png', 'unsupported_media_type'],
];

const STATUS: Record<string, number> = {
  invalid_media_specs: 422,
  unsupported_media_type: 415,
  file_too_large: 413,
};

describeEachDialect('uploads', (get) => {
  test('signed flow: create, PUT, complete, read, download', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const bytes = await fixture('h264-aac-faststart.mp4');
    const created = await call('POST', '/v2/uploads', {
      kind: 'video',
      filename: 'clip.mp4',
      contentType: 'video/mp4',
      sizeBytes: bytes.length,
    });
    assert.equal(created.status, 201);
    assert.match(created.body.uploadId, /^upl_/);
    assert.equal(
      created.body.expiresAt,
      new Date(t.clock.now().getTime() + 3600_000).toISOString(),
    );
    assert.match(
      created.body.uploadUrl,
      /^http:\/\/slotline\.test\/v2\/uploads\/upl_\w+\/bytes\?expires=\d+&signature=/,
    );
    const pending = await call('GET', `/v2/uploads/${created.body.uploadId}`);
    assert.deepEqual(
      { status: pending.body.status, kind: pending.body.kind, url: pending.body.url },
      { status: 'pending', kind: 'video', url: undefined },
    );
    const put = await putBytes(t, created.body.uploadUrl, bytes, 'video/mp4');
    assert.equal(put.statusCode, 200);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assert.deepEqual(put.json(), {
      uploadId: created.body.uploadId,
      status: 'pending',
      receivedBytes: bytes.length,
      sha256,
    });
    const done = await call('POST', `/v2/uploads/${created.body.uploadId}/complete`);
    assert.equal(done.status, 200);
    assert.equal(done.body.status, 'ready');
    assert.equal(done.body.width, 160);
    assert.equal(done.body.height, 90);
    assert.equal(done.body.durationSeconds, 2);
    assert.equal(done.body.sha256, sha256);
    assert.equal(done.body.sizeBytes, bytes.length);
    assert.equal(done.body.thumbnailStatus, 'pending');
    // The thumbnail is made off the request path and appears once done.
    await t.media.idle();
    const got = await call('GET', `/v2/uploads/${created.body.uploadId}`);
    assert.equal(got.body.status, 'ready');
    assert.equal(got.body.thumbnailStatus, 'ready');
    const thumb = await t.app.inject({ method: 'GET', url: local(got.body.thumbnailUrl) });
    assert.equal(thumb.statusCode, 200);
    assert.equal(thumb.headers['content-type'], 'image/jpeg');
    assert.deepEqual([...thumb.rawPayload.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    const download = await t.app.inject({ method: 'GET', url: local(got.body.url) });
    assert.equal(download.statusCode, 200);
    assert.equal(download.headers['content-type'], 'video/mp4');
    assert.ok(download.rawPayload.equals(bytes));
    const again = await call('POST', `/v2/uploads/${created.body.uploadId}/complete`);
    assertApiError(again, 409, 'upload_already_completed');
    const late = await putBytes(t, created.body.uploadUrl, bytes, 'video/mp4');
    assert.equal(late.statusCode, 409);
    assert.equal(late.json().error.code, 'upload_already_completed');
  });

  test('a download answers one byte range, as phones’ video players ask', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const bytes = await fixture('h264-aac-faststart.mp4');
    const uploadId = await readyUpload(t, call, 'h264-aac-faststart.mp4');
    const url = local((await call('GET', `/v2/uploads/${uploadId}`)).body.url);
    const size = bytes.length;
    const ask = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
    const whole = await ask({});
    assert.equal(whole.statusCode, 200);
    assert.equal(whole.headers['accept-ranges'], 'bytes');
    assert.equal(whole.headers['content-length'], String(size));
    const cases: [string, number, number][] = [
      ['bytes=0-1', 0, 1],
      ['bytes=100-199', 100, 199],
      [`bytes=${size - 10}-`, size - 10, size - 1],
      ['bytes=-10', size - 10, size - 1],
      [`bytes=5-${size + 500}`, 5, size - 1],
      ['bytes=0-9,5-20', 0, 20],
      ['bytes=0-9, 10-20', 0, 20],
      [`bytes=${size}-,0-1`, 0, 1],
      ['BYTES=0-1', 0, 1],
      // Satisfiable ranges of every byte are answered 206 too (RFC 9110 section 14.2), a
      // suffix longer than the file included: it selects the whole file (14.1.2).
      [`bytes=-${size + 100}`, 0, size - 1],
      [`bytes=-${size}`, 0, size - 1],
      ['bytes=0-', 0, size - 1],
      [`bytes=0-${size - 1}`, 0, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const part = await ask({ range });
      assert.equal(part.statusCode, 206, range);
      assert.equal(part.headers['content-range'], `bytes ${start}-${end}/${size}`, range);
      assert.equal(part.headers['content-length'], String(end - start + 1), range);
      assert.equal(part.headers['content-type'], 'video/mp4', range);
      assert.ok(part.rawPayload.equals(bytes.subarray(start, end + 1)), range);
    }
    // Whole file: no range, another unit, a malformed or invalid header (last-pos before
    // first-pos), several ranges apart, or an If-Range (the service hands out no validators
    // to match).
    for (const headers of <Record<string, string>[]>[
      { range: 'items=0-1' },
      { range: 'bytes=abc' },
      { range: 'bytes=5-1' },
      { range: 'bytes=0-1,x' },
      { range: 'bytes=-' },
      { range: 'bytes=0-1,100-101' },
      { range: 'bytes=0-1', 'if-range': '"x"' },
    ]) {
      const res = await ask(headers);
      assert.equal(res.statusCode, 200, JSON.stringify(headers));
      assert.ok(res.rawPayload.equals(bytes), JSON.stringify(headers));
    }
    for (const range of [
      `bytes=${size}-`,
      `bytes=${size + 10}-${size + 20}`,
      'bytes=-0',
      `bytes=-0,${size}-`,
    ]) {
      const res = await ask({ range });
      assertApiError(
        { status: res.statusCode, body: res.json(), headers: res.headers, raw: res },
        416,
        'range_not_satisfiable',
      );
      assert.equal(res.headers['content-range'], `bytes */${size}`);
      assert.match(res.json().error.message, new RegExp(`${size}-byte file`));
    }
  });

  test('a thumbnail that cannot be made shows on the upload, and no view promises one', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const uploadId = await readyUpload(t, call, 'h264-aac-faststart.mp4');
    await t.media.idle();
    // The stored file is damaged after validation (a disk fault): a new thumbnail fails.
    const row = await t.ctx.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .updateTable('uploads')
      .set({ thumbnail_key: null })
      .where('id', '=', uploadId)
      .execute();
    await t.ctx.blobs.delete(row.blob_key);
    await t.ctx.blobs.put(row.blob_key, Buffer.alloc(4096));
    const outcome = await runThumbnailJob(
      t.ctx,
      row.company_id,
      uploadId,
      new AbortController().signal,
    );
    assert.equal(outcome.ok, false);
    const got = await call('GET', `/v2/uploads/${uploadId}`);
    assert.equal(got.body.status, 'ready');
    assert.equal(got.body.thumbnailStatus, 'failed');
    assert.match(got.body.thumbnailError, /could not be decoded/);
    assert.equal(got.body.thumbnailUrl, undefined);
    const [accountId] = await makeAccounts(call, 1);
    const post = await call('POST', '/v2/posts', {
      media: [uploadId],
      accountIds: [accountId],
      skipApproval: true,
    });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    assert.equal(post.body.media.thumbnailUrl, null);
    const queue = await call('GET', `/v2/accounts/${accountId}/queue`);
    assert.equal(queue.body.data.length, 1);
    assert.equal(queue.body.data[0].thumbnailUrl, undefined);
  });

  test('every video fixture gets its outcome; failures are recorded on the upload', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    for (const [name, code] of VIDEO_OUTCOMES) {
      const flow = await uploadFile(t, call, name);
      assert.equal(flow.put.statusCode, 200, name);
      if (code === null) {
        assert.equal(flow.complete.status, 200, `${name}: ${JSON.stringify(flow.complete.body)}`);
        assert.equal(flow.complete.body.status, 'ready', name);
      } else {
        assert.equal(
          flow.complete.status,
          STATUS[code],
          `${name}: ${JSON.stringify(flow.complete.body)}`,
        );
        assert.equal(flow.complete.body.error.code, code, name);
        const got = await call('GET', `/v2/uploads/${flow.uploadId}`);
        assert.equal(got.body.status, 'failed', name);
        assert.equal(got.body.error, flow.complete.body.error.message, name);
        assert.equal(got.body.url, undefined);
        assertApiError(
          await call('POST', `/v2/uploads/${flow.uploadId}/complete`),
          409,
          'upload_already_completed',
        );
      }
    }
  });

  test('every image fixture gets its outcome', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    for (const [name, code] of IMAGE_OUTCOMES) {
      const flow = await uploadFile(t, call, name);
      if (code === null) {
        assert.equal(flow.complete.status, 200, `${name}: ${JSON.stringify(flow.complete.body)}`);
        assert.equal(flow.complete.body.kind, 'image');
        // DECISIONS 3: every ready upload gets a thumbnail (HEIC that cannot be decoded: a tile).
        await t.media.idle();
        const got = await call('GET', `/v2/uploads/${flow.uploadId}`);
        assert.ok(got.body.thumbnailUrl, `${name} has no thumbnail`);
      } else {
        assert.equal(flow.complete.status, STATUS[code], name);
        assert.equal(flow.complete.body.error.code, code, name);
      }
    }
  });

  test('create: bounds, forms and declared types', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const video = { kind: 'video', filename: 'a.mp4', contentType: 'video/mp4', sizeBytes: 10 };
    const ok = async (body: object) =>
      assert.equal((await call('POST', '/v2/uploads', body)).status, 201, JSON.stringify(body));
    await ok({ ...video, sizeBytes: 209_715_200 });
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, sizeBytes: 209_715_201 }),
      413,
      'file_too_large',
      { includes: '/sizeBytes' },
    );
    const image = {
      kind: 'image',
      filename: 'a.png',
      contentType: 'image/png',
      sizeBytes: 52_428_800,
    };
    await ok(image);
    assertApiError(
      await call('POST', '/v2/uploads', { ...image, sizeBytes: 52_428_801 }),
      413,
      'file_too_large',
    );
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, sizeBytes: 0 }),
      400,
      'invalid_request',
      { startsWith: '/sizeBytes ' },
    );
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, sizeBytes: 1.5 }),
      400,
      'invalid_request',
      { startsWith: '/sizeBytes ' },
    );
    await ok({ ...video, filename: `${'a'.repeat(251)}.mp4` });
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, filename: `${'a'.repeat(252)}.mp4` }),
      400,
      'invalid_request',
      { startsWith: '/filename ' },
    );
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, filename: '' }),
      400,
      'invalid_request',
      { startsWith: '/filename ' },
    );
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, contentType: 'x'.repeat(101) }),
      400,
      'invalid_request',
      { startsWith: '/contentType ' },
    );
    await ok({ ...video, filename: 'A.MOV', contentType: 'video/quicktime' });
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, filename: 'a.avi' }),
      415,
      'unsupported_media_type',
      { includes: '/filename' },
    );
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, contentType: 'video/webm' }),
      415,
      'unsupported_media_type',
      { includes: '/contentType' },
    );
    assertApiError(
      await call('POST', '/v2/uploads', { ...image, contentType: 'image/gif' }),
      415,
      'unsupported_media_type',
    );
    assertApiError(
      await call('POST', '/v2/uploads', { kind: 'video', filename: 'a.mp4' }),
      400,
      'invalid_request',
      { includes: '/contentType' },
    );
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, colour: 1 }),
      400,
      'invalid_request',
      { startsWith: '/colour ' },
    );
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, kind: 'audio' }),
      400,
      'invalid_request',
      { startsWith: '/kind ' },
    );
    assertApiError(
      await call('POST', '/v2/uploads', { ...video, sourceUrl: 'https://example.com/a.mp4' }),
      400,
      'invalid_request',
      { includes: 'sourceUrl' },
    );
  });

  test('PUT: type, size and signature rules; nothing half-stored', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const bytes = await fixture('h264-noaudio.mp4');
    const create = async () =>
      (
        await call('POST', '/v2/uploads', {
          kind: 'video',
          filename: 'a.mp4',
          contentType: 'video/mp4',
          sizeBytes: bytes.length,
        })
      ).body;
    const a = await create();
    const wrongType = await putBytes(t, a.uploadUrl, bytes, 'video/quicktime');
    assert.equal(wrongType.statusCode, 415);
    assert.equal(wrongType.json().error.code, 'unsupported_media_type');
    const longer = await putBytes(
      t,
      a.uploadUrl,
      Buffer.concat([bytes, Buffer.from('x')]),
      'video/mp4',
    );
    assert.equal(longer.statusCode, 413);
    assert.equal(longer.json().error.code, 'file_too_large');
    const shorter = await putBytes(t, a.uploadUrl, bytes.subarray(1), 'video/mp4');
    assert.equal(shorter.statusCode, 400);
    assert.equal(shorter.json().error.code, 'invalid_request');
    assertApiError(
      await call('POST', `/v2/uploads/${a.uploadId}/complete`),
      409,
      'upload_incomplete',
    );
    const u = new URL(a.uploadUrl);
    const sig = u.searchParams.get('signature') as string;
    const tampered = `${u.pathname}?expires=${u.searchParams.get('expires')}&signature=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    const bad = await t.app.inject({
      method: 'PUT',
      url: tampered,
      headers: { 'content-type': 'video/mp4' },
      payload: bytes,
    });
    assert.equal(bad.statusCode, 403);
    assert.equal(bad.json().error.code, 'invalid_signature');
    const otherId = await create();
    const swapped = await t.app.inject({
      method: 'PUT',
      url: local(a.uploadUrl).replace(a.uploadId, otherId.uploadId),
      headers: { 'content-type': 'video/mp4' },
      payload: bytes,
    });
    assert.equal(swapped.statusCode, 403);
    const ok = await putBytes(t, a.uploadUrl, bytes, 'video/mp4');
    assert.equal(ok.statusCode, 200);
    t.clock.advance(3600_000 + 1000);
    const expired = await putBytes(t, otherId.uploadUrl, bytes, 'video/mp4');
    assert.equal(expired.statusCode, 403);
    assert.match(expired.json().error.message, /expired/);
  });

  test('another company’s upload is not found', async () => {
    const t = get();
    const a = client(t, (await seedCompany(t)).key);
    const b = client(t, (await seedCompany(t)).key);
    const flow = await uploadFile(t, a, 'image.png');
    assertApiError(await b('GET', `/v2/uploads/${flow.uploadId}`), 404, 'upload_not_found');
    assertApiError(
      await b('POST', `/v2/uploads/${flow.uploadId}/complete`),
      404,
      'upload_not_found',
    );
  });

  test('posts:read or posts:write can poll an upload', async () => {
    const t = get();
    const co = await seedCompany(t);
    const flow = await uploadFile(t, client(t, co.key), 'image.png');
    for (const scope of ['posts:read', 'posts:write'] as const) {
      const r = await client(t, await co.keyWith([scope]))('GET', `/v2/uploads/${flow.uploadId}`);
      assert.equal(r.status, 200, scope);
    }
  });

  test('concurrent completes: exactly one succeeds', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const bytes = await fixture('h264-aac-faststart.mp4');
    const c = await call('POST', '/v2/uploads', {
      kind: 'video',
      filename: 'a.mp4',
      contentType: 'video/mp4',
      sizeBytes: bytes.length,
    });
    await putBytes(t, c.body.uploadUrl, bytes, 'video/mp4');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', `/v2/uploads/${c.body.uploadId}/complete`)),
    );
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    for (const r of results.filter((x) => x.status !== 200))
      assert.equal(r.body.error.code, 'upload_already_completed');
    const usage = await call('GET', '/v2/usage');
    assert.equal(usage.body.videoCount, 1);
  });
});

const PLANS = writePlansFile({ small: planWith({ uploadsPerDay: 2, videoQuota: 1 }) });

describeEachDialect(
  'uploads under a small plan',
  (get) => {
    test('daily upload cap and video quota', async () => {
      const t = get();
      const call = client(t, (await seedCompany(t)).key);
      const first = await uploadFile(t, call, 'h264-noaudio.mp4');
      assert.equal(first.complete.status, 200);
      const body = { kind: 'video', filename: 'a.mp4', contentType: 'video/mp4', sizeBytes: 10 };
      const quota = await call('POST', '/v2/uploads', body);
      assertApiError(quota, 429, 'quota_exceeded');
      const image = await call('POST', '/v2/uploads', {
        kind: 'image',
        filename: 'a.png',
        contentType: 'image/png',
        sizeBytes: 10,
      });
      assert.equal(image.status, 201);
      const capped = await call('POST', '/v2/uploads', {
        kind: 'image',
        filename: 'b.png',
        contentType: 'image/png',
        sizeBytes: 10,
      });
      assertApiError(capped, 429, 'rate_limited');
      assert.ok(Number(capped.headers['retry-after']) > 0);
    });
  },
  { env: { PLANS_FILE: PLANS, DEFAULT_PLAN: 'small' } },
);
