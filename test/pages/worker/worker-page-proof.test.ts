// The screenshot of the workers' app "Posted" form through HTTP on both databases, with the
// service's default post URL patterns: it is kept only with the report it came with, so a
// refused report leaves nothing (no row, no blob, nothing on the task, the API or the
// company's post page); a file cut short is refused at its field before anything is stored;
// an accepted report still keeps and shows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import type { TestApp } from '../../helpers/app.ts';
import { browser, signIn, userIn } from '../../helpers/dashboard.ts';
import { DEFAULT_PATTERNS, proofTrace } from '../../helpers/proof.ts';
import {
  TASKS,
  fieldError,
  fixture,
  postMultipart,
  releasedTask,
  signedInAt,
} from './worker-page.helpers.ts';

const shot = (type: string, bytes: Buffer) => ({
  name: 'screenshot',
  filename: type === 'image/png' ? 'shot.png' : 'shot.jpg',
  type,
  bytes,
});

/** The company's post page, as a viewer of the company sees it. */
async function postPage(t: TestApp, companyId: string, postId: string, ip: string) {
  const u = await userIn(t, companyId, 'viewer');
  const b = browser(t, ip);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return (await b.get(`/dashboard/posts/${postId}`)).body;
}

const SHOWN = /alt="Screenshot of the post on @/;

describeEachDialect(
  'workers app: the screenshot of a report',
  (get) => {
    test('a refused Posted report keeps no screenshot anywhere; the accepted one shows it', async () => {
      const t = get();
      const s = await releasedTask(t, '2032-02-02');
      const b = browser(t, '198.51.100.90');
      const csrf = await signedInAt(b, s.worker.token);
      const url = `${TASKS}/${s.taskId}/report`;
      const png = await fixture('image.png');
      const before = await proofTrace(t, s.co.companyId);

      const refused = await postMultipart(
        t,
        b,
        url,
        {
          _csrf: csrf,
          outcome: 'posted',
          postUrl: 'https://platform-a.example/@somebody.else/video/9',
        },
        shot('image/png', png),
      );
      assert.equal(refused.status, 400);
      assert.match(fieldError(refused.body, 'postUrl') ?? '', /is a post of @somebody\.else/);
      assert.equal(fieldError(refused.body, 'screenshot'), null);
      assert.deepEqual(await proofTrace(t, s.co.companyId), before, 'no row, no blob');
      const task = await s.work('GET', `/worker/v1/tasks/${s.taskId}`);
      assert.equal(task.body.state, 'claimed');
      assert.equal(task.body.proofScreenshotUrl, null);
      assert.doesNotMatch(refused.body, /class="wproof"/);
      const open = await s.call('GET', `/v2/posts/${s.postId}/deliveries`);
      assert.equal(open.body.deliveries[0].proofScreenshotUrl, null);
      assert.doesNotMatch(await postPage(t, s.co.companyId, s.postId, '198.51.100.91'), SHOWN);

      const done = await postMultipart(
        t,
        b,
        url,
        {
          _csrf: csrf,
          outcome: 'posted',
          postUrl: `https://platform-a.example/@${s.username}/video/9`,
        },
        shot('image/png', png),
      );
      assert.equal(done.status, 303, done.body);
      const after = await proofTrace(t, s.co.companyId);
      assert.equal(after.rows.length, 1, 'one screenshot kept');
      assert.ok(after.blobs.includes(after.rows[0] as string), 'its blob stored');
      const posted = await s.call('GET', `/v2/posts/${s.postId}/deliveries`);
      const proof = posted.body.deliveries[0].proofScreenshotUrl as string;
      assert.ok(new URL(proof).pathname.includes(`/${after.rows[0]}`), proof);
      assert.match(await postPage(t, s.co.companyId, s.postId, '198.51.100.92'), SHOWN);
      const page = await b.get(`${TASKS}/${s.taskId}`);
      assert.match(page.body, /<img class="wproof" src="[^"]+"/);
    });

    test('a truncated screenshot is refused at its field; nothing is reported or stored', async () => {
      const t = get();
      const s = await releasedTask(t, '2032-02-03');
      const b = browser(t, '198.51.100.93');
      const csrf = await signedInAt(b, s.worker.token);
      const before = await proofTrace(t, s.co.companyId);
      const form = {
        _csrf: csrf,
        outcome: 'posted',
        postUrl: `https://platform-a.example/@${s.username}/video/3`,
      };
      const png = await fixture('image.png');
      const cut = await postMultipart(
        t,
        b,
        `${TASKS}/${s.taskId}/report`,
        form,
        shot('image/png', png.subarray(0, 200)),
      );
      assert.equal(cut.status, 422);
      assert.equal(
        fieldError(cut.body, 'screenshot'),
        'This image cannot be used (the PNG image data is cut short or damaged, so its pixels cannot be decoded). Choose another, or send the form without one.',
      );
      assert.equal((await s.work('GET', `/worker/v1/tasks/${s.taskId}`)).body.state, 'claimed');
      assert.deepEqual(await proofTrace(t, s.co.companyId), before, 'no row, no blob');

      // Posted without one, a JPEG cut short is refused by the later screenshot form too.
      const posted = await postMultipart(t, b, `${TASKS}/${s.taskId}/report`, form);
      assert.equal(posted.status, 303, posted.body);
      const jpeg = await fixture('image.jpg');
      const later = await postMultipart(
        t,
        b,
        `${TASKS}/${s.taskId}/proof`,
        { _csrf: csrf },
        shot('image/jpeg', jpeg.subarray(0, jpeg.length - 2)),
      );
      assert.equal(later.status, 422);
      assert.match(fieldError(later.body, 'proof') ?? '', /the JPEG image data is cut short/);
      assert.deepEqual(await proofTrace(t, s.co.companyId), before, 'no row, no blob');
      const task = await s.work('GET', `/worker/v1/tasks/${s.taskId}`);
      assert.equal(task.body.state, 'posted');
      assert.equal(task.body.proofScreenshotUrl, null);
    });
  },
  DEFAULT_PATTERNS,
);
