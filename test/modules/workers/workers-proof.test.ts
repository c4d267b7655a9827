// Proof screenshots through the worker API (PUT /worker/v1/tasks/{taskId}/proof) on both
// databases, with the service's default post URL patterns: a screenshot is shown to the
// company only for a task reported posted; a file cut short is refused before anything is
// stored; a body past the proof limit is told that limit; a failed task takes none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describeEachDialect } from '../../helpers/dialects.ts';
import type { TestApp } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { DEFAULT_PATTERNS, proofTrace } from '../../helpers/proof.ts';
import { fixture, local } from '../../helpers/uploads.ts';
import { releasedTask } from '../../pages/worker/worker-page.helpers.ts';
import { PROOF_MAX_BYTES } from '../../../src/modules/uploads/index.ts';

/** A PNG of random pixels, `width` x `height`: it does not compress below its raw size. */
async function noisyPng(width: number, height: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

describeEachDialect(
  'worker API: proof screenshots',
  (get) => {
    const put = (t: TestApp, token: string, taskId: string, type: string, bytes: Buffer) =>
      t.app
        .inject({
          method: 'PUT',
          url: `/worker/v1/tasks/${taskId}/proof`,
          headers: { authorization: `Bearer ${token}`, 'content-type': type },
          payload: bytes,
        })
        .then((res) => ({
          status: res.statusCode,
          body: res.json(),
          headers: res.headers,
          raw: res,
        }));

    test('a screenshot sent ahead of a refused report is shown to the company only once posted', async () => {
      const t = get();
      const s = await releasedTask(t, '2032-01-05');
      assert.equal((await s.work('POST', '/worker/v1/tasks/claim', {})).status, 200);
      const png = await fixture('image.png');
      const sent = await put(t, s.worker.token, s.taskId, 'image/png', png);
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.ok(sent.body.proofScreenshotUrl, 'the worker sees what it sent');

      const refused = await s.work('POST', `/worker/v1/tasks/${s.taskId}/result`, {
        outcome: 'posted',
        postUrl: 'https://platform-a.example/@somebody.else/video/1',
      });
      assertApiError(refused, 400, 'invalid_request', { startsWith: '/postUrl is a post of' });
      const open = await s.call('GET', `/v2/posts/${s.postId}/deliveries`);
      assert.equal(open.body.deliveries[0].status, 'posting');
      assert.equal(open.body.deliveries[0].proofScreenshotUrl, null, 'nothing shown before posted');

      const done = await s.work('POST', `/worker/v1/tasks/${s.taskId}/result`, {
        outcome: 'posted',
        postUrl: `https://platform-a.example/@${s.username}/video/1`,
      });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const posted = await s.call('GET', `/v2/posts/${s.postId}/deliveries`);
      const url = posted.body.deliveries[0].proofScreenshotUrl as string;
      assert.equal(new URL(url).pathname, new URL(sent.body.proofScreenshotUrl).pathname);
      const image = await t.app.inject({ method: 'GET', url: local(url) });
      assert.equal(image.statusCode, 200);
      assert.deepEqual(image.rawPayload, png);
      assert.equal((await proofTrace(t, s.co.companyId)).rows.length, 1);
    });

    test('a truncated PNG or JPEG is refused before anything is stored', async () => {
      const t = get();
      const s = await releasedTask(t, '2032-01-06');
      assert.equal((await s.work('POST', '/worker/v1/tasks/claim', {})).status, 200);
      const before = await proofTrace(t, s.co.companyId);
      const png = await fixture('image.png');
      const jpeg = await fixture('image.jpg');
      for (const [type, bytes, name] of [
        ['image/png', png.subarray(0, 200), 'PNG'],
        ['image/png', png.subarray(0, png.length - 64), 'PNG'],
        ['image/jpeg', jpeg.subarray(0, 600), 'JPEG'],
        ['image/jpeg', jpeg.subarray(0, jpeg.length - 2), 'JPEG'],
      ] as const) {
        const res = await put(t, s.worker.token, s.taskId, type, bytes);
        assertApiError(res, 422, 'invalid_media_specs', {
          includes: `Screenshot: the ${name} image data is cut short or damaged`,
        });
        assert.match(res.body.error.hint, /^Send the screenshot whole/);
      }
      assert.deepEqual(await proofTrace(t, s.co.companyId), before, 'no row, no blob');
      const task = await s.work('GET', `/worker/v1/tasks/${s.taskId}`);
      assert.equal(task.body.proofScreenshotUrl, null);
      // The whole file is taken.
      const whole = await put(t, s.worker.token, s.taskId, 'image/jpeg', jpeg);
      assert.equal(whole.status, 200, JSON.stringify(whole.body));
      assert.equal((await proofTrace(t, s.co.companyId)).rows.length, 1);
    });

    test('a screenshot past the proof limit is told that limit; one past the JSON limit is kept', async () => {
      const t = get();
      const s = await releasedTask(t, '2032-01-07');
      assert.equal((await s.work('POST', '/worker/v1/tasks/claim', {})).status, 200);
      const huge = Buffer.alloc(PROOF_MAX_BYTES + 1);
      (await fixture('image.png')).copy(huge);
      const over = await put(t, s.worker.token, s.taskId, 'image/png', huge);
      assertApiError(over, 413, 'file_too_large', {
        startsWith: `The screenshot may be at most ${PROOF_MAX_BYTES} bytes (15 MiB)`,
      });
      assert.equal(
        over.body.error.hint,
        'Send a screenshot of at most 15 MiB: a PNG or JPEG capture of the screen is far smaller.',
      );
      assert.deepEqual((await proofTrace(t, s.co.companyId)).rows, []);

      const large = await noisyPng(800, 800);
      assert.ok(large.length > t.config.bodyLimit, `${large.length} bytes, past the JSON limit`);
      const kept = await put(t, s.worker.token, s.taskId, 'image/png', large);
      assert.equal(kept.status, 200, JSON.stringify(kept.body));
      assert.ok(kept.body.proofScreenshotUrl);
    });

    test('a failed task takes no screenshot and shows none', async () => {
      const t = get();
      const s = await releasedTask(t, '2032-01-08');
      assert.equal((await s.work('POST', '/worker/v1/tasks/claim', {})).status, 200);
      const png = await fixture('image.png');
      assert.equal((await put(t, s.worker.token, s.taskId, 'image/png', png)).status, 200);
      const failed = await s.work('POST', `/worker/v1/tasks/${s.taskId}/result`, {
        outcome: 'failed',
        reason: 'The app crashed',
      });
      assert.equal(failed.status, 200, JSON.stringify(failed.body));
      assert.equal(failed.body.proofScreenshotUrl, null, 'a failed task shows no proof');
      const deliveries = await s.call('GET', `/v2/posts/${s.postId}/deliveries`);
      assert.equal(deliveries.body.deliveries[0].proofScreenshotUrl, null);
      const late = await put(t, s.worker.token, s.taskId, 'image/jpeg', await fixture('image.jpg'));
      assertApiError(late, 409, 'task_already_reported', {
        includes: 'a screenshot is kept only as proof of a posted task',
      });
    });
  },
  DEFAULT_PATTERNS,
);
