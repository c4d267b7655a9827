// Posting from the workers' app, through HTTP on both databases: the task page shows the
// media itself, the caption and hashtags to copy, its window and deadline; the "Posted" form
// goes as multipart with the post's URL and a screenshot; a refused URL, screenshot or form
// says why next to its field and leaves the task open; a form sent twice is done, not an
// error; the list's empty state says when the next task is due.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { browser } from '../../helpers/dashboard.ts';
import { readyUpload } from '../../helpers/posts.ts';
import { PROOF_MAX_BYTES } from '../../../src/modules/uploads/index.ts';
import {
  TASKS,
  fieldError,
  fixture,
  postMultipart,
  releasedTask,
  sendRaw,
  signedInAt,
} from './worker-page.helpers.ts';

const png = async () => ({
  name: 'screenshot',
  filename: 'shot.png',
  type: 'image/png',
  bytes: await fixture('image.png'),
});

describeEachDialect('workers app: posting a task', (get) => {
  test('the task page: media, caption, hashtags with their #, window and deadline', async () => {
    const t = get();
    const s = await releasedTask(t, '2031-06-02');
    const b = browser(t, '198.51.100.70');
    await signedInAt(b, s.worker.token);
    const list = await b.get(TASKS);
    assert.match(list.body, new RegExp(`@${s.username}</span>`));
    assert.match(
      list.body,
      /Window <time datetime="2031-06-02T11:00:00.000Z">Mon 2 Jun, 11:00<\/time>: on time until <time datetime="2031-06-02T12:00:00.000Z">12:00<\/time>/,
    );
    assert.match(list.body, /Sunset over the bay/);

    const page = await b.get(`${TASKS}/${s.taskId}`);
    assert.equal(page.status, 200);
    assert.match(page.body, /<h2 id="media-h">Photo<\/h2>/);
    const img = /<img src="([^"]+)" alt="Photo 1 of 1"/.exec(page.body)?.[1] as string;
    assert.ok(img, 'the photo itself is on the page');
    const url = new URL(img.replaceAll('&amp;', '&'));
    const bytes = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    assert.equal(bytes.statusCode, 200);
    assert.equal(bytes.headers['content-type'], 'image/png');
    assert.match(
      page.body,
      /<textarea id="caption" readonly rows="\d">Sunset over the bay<\/textarea>/,
    );
    assert.match(page.body, /<textarea id="hashtags" readonly rows="2">#sea #sun<\/textarea>/);
    assert.match(page.body, /data-copy="hashtags" hidden>Copy hashtags</);
    assert.match(
      page.body,
      /<dt>Window<\/dt><dd><time datetime="2031-06-02T11:00:00.000Z">Mon 2 Jun, 11:00<\/time><\/dd>/,
    );
    assert.match(
      page.body,
      /<dt>On time until<\/dt><dd><time datetime="2031-06-02T12:00:00.000Z">/,
    );
    assert.match(
      page.body,
      /<dt>Report by<\/dt><dd><time datetime="2031-06-02T13:00:00.000Z">Mon 2 Jun, 13:00/,
    );
    assert.match(
      page.body,
      /<form method="post" action="[^"]+\/report" enctype="multipart\/form-data"/,
    );
    assert.match(
      page.body,
      /<input id="screenshot" name="screenshot" type="file" accept="image\/\*"/,
    );
  });

  test('a video plays in the page; a carousel shows its rendered slides', async () => {
    const t = get();
    const video = await releasedTask(t, '2031-06-03', { media: 'h264-noaudio.mp4' });
    const b = browser(t, '198.51.100.71');
    await signedInAt(b, video.worker.token);
    const page = await b.get(`${TASKS}/${video.taskId}`);
    const src = /<video class="wvideo" controls playsinline preload="metadata" src="([^"]+)"/.exec(
      page.body,
    )?.[1] as string;
    assert.ok(src, page.body);
    const url = new URL(src.replaceAll('&amp;', '&'));
    const res = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'video/mp4');
    assert.match(page.body, /Download the video<\/a>/);

    const carousel = await releasedTask(t, '2031-06-04', { carousel: true });
    const c = browser(t, '198.51.100.72');
    await signedInAt(c, carousel.worker.token);
    const slides = await c.get(`${TASKS}/${carousel.taskId}`);
    assert.match(slides.body, /<h2 id="media-h">Slides<\/h2>/);
    const srcs = [...slides.body.matchAll(/<img src="([^"]+)" alt="Slide (\d) of 2"/g)];
    assert.equal(srcs.length, 2);
    for (const [, href] of srcs) {
      const u = new URL((href as string).replaceAll('&amp;', '&'));
      const jpeg = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
      assert.equal(jpeg.statusCode, 200);
      assert.equal(jpeg.headers['content-type'], 'image/jpeg');
    }
  });

  test('posted with a URL and a screenshot; sent again it is done, not an error', async () => {
    const t = get();
    const s = await releasedTask(t, '2031-06-05');
    const b = browser(t, '198.51.100.73');
    const csrf = await signedInAt(b, s.worker.token);
    t.clock.advance(10 * 60_000);
    const form = { _csrf: csrf, outcome: 'posted', postUrl: 'https://platform-a.example/p/123' };
    const shot = await png();
    const res = await postMultipart(t, b, `${TASKS}/${s.taskId}/report`, form, shot);
    assert.equal(res.status, 303, res.body);
    assert.equal(res.location, TASKS);
    const task = await s.work('GET', `/worker/v1/tasks/${s.taskId}`);
    assert.equal(task.body.state, 'posted');
    assert.equal(task.body.postUrl, 'https://platform-a.example/p/123');
    assert.ok(task.body.proofScreenshotUrl, 'the screenshot is kept with the task');
    const deliveries = await s.call('GET', `/v2/posts/${s.postId}/deliveries`);
    assert.ok(deliveries.body.deliveries[0].proofScreenshotUrl);
    assert.equal(deliveries.body.deliveries[0].onTime, true);
    const list = await b.get(TASKS);
    assert.match(list.body, /role="status">Reported as posted\. Thank you\.</);
    assert.match(list.body, /<h2 id="posted-h">Posted this week<\/h2>/);
    assert.match(list.body, /No figures entered yet/);

    // The answer was lost on the way: the phone sends the same form again.
    const again = await postMultipart(t, b, `${TASKS}/${s.taskId}/report`, form, shot);
    assert.equal(again.status, 303, again.body);
    assert.match((await b.get(TASKS)).body, /Reported as posted\. Thank you\./);
    const same = await s.work('GET', `/worker/v1/tasks/${s.taskId}`);
    assert.equal(
      new URL(same.body.proofScreenshotUrl).pathname,
      new URL(task.body.proofScreenshotUrl).pathname,
      'the same screenshot is not stored twice',
    );
    // Another outcome for it is refused, on the task page, which shows it posted.
    const other = await postMultipart(t, b, `${TASKS}/${s.taskId}/report`, {
      ...form,
      postUrl: 'https://platform-a.example/p/456',
    });
    assert.equal(other.status, 409);
    assert.match(other.body, /role="alert">This task is already posted; its outcome cannot change/);
    const page = await b.get(`${TASKS}/${s.taskId}`);
    assert.match(
      page.body,
      /<img class="wproof" src="[^"]+" alt="The screenshot you sent of this post">/,
    );
    assert.match(page.body, /Replace the screenshot/);
  });

  test('without a screenshot, as a plain form, and failed: both still work', async () => {
    const t = get();
    const s = await releasedTask(t, '2031-06-06');
    const b = browser(t, '198.51.100.74');
    const csrf = await signedInAt(b, s.worker.token);
    // An empty file field, as a browser sends it when nothing was chosen.
    const empty = {
      name: 'screenshot',
      filename: '',
      type: 'application/octet-stream',
      bytes: Buffer.alloc(0),
    };
    const res = await postMultipart(
      t,
      b,
      `${TASKS}/${s.taskId}/report`,
      { _csrf: csrf, outcome: 'posted', postUrl: 'https://platform-a.example/p/9' },
      empty,
    );
    assert.equal(res.status, 303, res.body);
    const task = await s.work('GET', `/worker/v1/tasks/${s.taskId}`);
    assert.equal(task.body.state, 'posted');
    assert.equal(task.body.proofScreenshotUrl, null);

    // A screenshot added afterwards, on the posted task's page.
    const proof = await postMultipart(
      t,
      b,
      `${TASKS}/${s.taskId}/proof`,
      { _csrf: csrf },
      await png(),
    );
    assert.equal(proof.status, 303);
    assert.match((await b.get(`${TASKS}/${s.taskId}`)).body, /role="status">Screenshot saved\./);
    assert.ok((await s.work('GET', `/worker/v1/tasks/${s.taskId}`)).body.proofScreenshotUrl);
    const none = await postMultipart(t, b, `${TASKS}/${s.taskId}/proof`, { _csrf: csrf }, empty);
    assert.equal(none.status, 400);
    assert.equal(fieldError(none.body, 'proof'), 'Choose a screenshot.');

    const f = await releasedTask(t, '2031-06-07');
    const c = browser(t, '198.51.100.75');
    const token = await signedInAt(c, f.worker.token);
    const failed = await c.post(`${TASKS}/${f.taskId}/report`, {
      _csrf: token,
      outcome: 'failed',
      reason: 'The app crashed on upload',
    });
    assert.equal(failed.status, 303);
    const again = await c.post(`${TASKS}/${f.taskId}/report`, {
      _csrf: token,
      outcome: 'failed',
      reason: 'The app crashed on upload',
    });
    assert.equal(again.status, 303, 'the same report again is done');
    const fTask = await f.work('GET', `/worker/v1/tasks/${f.taskId}`);
    assert.equal(fTask.body.state, 'failed');
  });

  test('a bad screenshot is refused next to its field; the task stays open', async () => {
    const t = get();
    const s = await releasedTask(t, '2031-06-08');
    const b = browser(t, '198.51.100.76');
    const csrf = await signedInAt(b, s.worker.token);
    const url = `${TASKS}/${s.taskId}/report`;
    const form = { _csrf: csrf, outcome: 'posted', postUrl: 'https://platform-a.example/p/77' };

    const text = {
      name: 'screenshot',
      filename: 'notes.png',
      type: 'image/png',
      bytes: await fixture('text.png'),
    };
    const notImage = await postMultipart(t, b, url, form, text);
    assert.equal(notImage.status, 415);
    assert.match(
      fieldError(notImage.body, 'screenshot') ?? '',
      /^This file is not a PNG, JPEG, WebP or HEIC image/,
    );
    assert.match(
      notImage.body,
      /value="https:\/\/platform-a.example\/p\/77"/,
      'the URL stays typed',
    );
    assert.match(notImage.body, /id="screenshot"[^>]*aria-invalid="true"/);

    const pdf = {
      name: 'screenshot',
      filename: 'a.pdf',
      type: 'application/pdf',
      bytes: Buffer.from('%PDF-1.4'),
    };
    assert.equal((await postMultipart(t, b, url, form, pdf)).status, 415);

    const huge = {
      name: 'screenshot',
      filename: 'big.png',
      type: 'image/png',
      bytes: Buffer.alloc(PROOF_MAX_BYTES + 1),
    };
    const tooBig = await postMultipart(t, b, url, form, huge);
    assert.equal(tooBig.status, 413);
    assert.equal(
      fieldError(tooBig.body, 'screenshot'),
      'The screenshot is larger than 15 MiB. Choose a smaller image, or send the form without one.',
    );

    // Two files, and a body cut short: the form's own refusal, never a 500.
    const boundary = 'xyzBOUNDARY';
    const part = (name: string, body: string, file = '') =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: image/png` : ''}\r\n\r\n${body}\r\n`;
    const two = await sendRaw(t, b, url, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      payload:
        part('_csrf', csrf) +
        part('outcome', 'posted') +
        part('a', 'x', 'a.png') +
        part('b', 'y', 'b.png') +
        `--${boundary}--\r\n`,
    });
    assert.equal(two.status, 413);
    assert.match(two.body, /The form did not arrive whole/);
    const cut = await sendRaw(t, b, url, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      payload:
        part('_csrf', csrf) +
        `--${boundary}\r\nContent-Disposition: form-data; name="postUrl"\r\n\r\nhttps://pla`,
    });
    assert.equal(cut.status, 400, cut.body);
    assert.match(cut.body, /The form did not arrive whole/);

    const task = await s.work('GET', `/worker/v1/tasks/${s.taskId}`);
    assert.equal(task.body.state, 'claimed', 'claimed for the proof, still waiting for its report');
    assert.equal(task.body.proofScreenshotUrl, null);
    assert.equal((await postMultipart(t, b, url, form, await png())).status, 303);
  });

  test('a multipart form without the session’s CSRF token stores nothing', async () => {
    const t = get();
    const s = await releasedTask(t, '2031-06-09');
    const b = browser(t, '198.51.100.77');
    await signedInAt(b, s.worker.token);
    const res = await postMultipart(
      t,
      b,
      `${TASKS}/${s.taskId}/report`,
      { _csrf: 'forged', outcome: 'posted', postUrl: 'https://platform-a.example/p/1' },
      await png(),
    );
    assert.equal(res.status, 403);
    assert.match(res.body, /This form has expired/);
    const task = await s.work('GET', `/worker/v1/tasks/${s.taskId}`);
    assert.equal(task.body.state, 'released');
    assert.equal(task.body.proofScreenshotUrl, null);
    // Signed out, the form is not even read: sign in first.
    const anonymous = browser(t, '198.51.100.78');
    const out = await postMultipart(t, anonymous, `${TASKS}/${s.taskId}/report`, {}, await png());
    assert.equal(out.status, 303);
    assert.equal(out.location, '/dashboard/worker/sign-in');
  });

  test('the empty list says when the next task is due', async () => {
    const t = get();
    const s = await releasedTask(t, '2031-06-10');
    const b = browser(t, '198.51.100.79');
    const csrf = await signedInAt(b, s.worker.token);
    t.clock.advance(5 * 60_000);
    await postMultipart(t, b, `${TASKS}/${s.taskId}/report`, {
      _csrf: csrf,
      outcome: 'posted',
      postUrl: 'https://platform-a.example/p/5',
    });
    const idle = await b.get(TASKS);
    assert.match(idle.body, /Nothing to post right now\./);
    assert.match(
      idle.body,
      new RegExp(
        `No posts are waiting for your accounts yet\\. The next posting window opens <strong><time datetime="2031-06-10T14:00:00.000Z">today at 14:00</time></strong> \\(@${s.username}\\)`,
      ),
    );
    // Another post approved for the account: the next window is when it is due.
    const upload = await readyUpload(t, s.call, 'image.jpg');
    const next = await s.call('POST', '/v2/posts', {
      media: [upload],
      accountIds: [s.account],
      skipApproval: true,
    });
    assert.equal(next.status, 201, JSON.stringify(next.body));
    assert.match(
      (await b.get(TASKS)).body,
      new RegExp(
        `Your next task is due <strong><time datetime="2031-06-10T14:00:00.000Z">today at 14:00</time></strong>, on @${s.username}\\.`,
      ),
    );
  });
});

describeEachDialect(
  'workers app: post URLs checked against the account and platform',
  (get) => {
    test('a URL of another account or platform is refused next to the field', async () => {
      const t = get();
      const s = await releasedTask(t, '2031-06-11');
      const b = browser(t, '198.51.100.80');
      const csrf = await signedInAt(b, s.worker.token);
      const url = `${TASKS}/${s.taskId}/report`;
      const send = (postUrl: string) =>
        postMultipart(t, b, url, { _csrf: csrf, outcome: 'posted', postUrl });

      const other = await send('https://platform-a.example/@someone_else/video/123');
      assert.equal(other.status, 400);
      assert.equal(
        fieldError(other.body, 'postUrl'),
        `This link is a post of @someone_else, not of this task's account @${s.username}`,
      );
      assert.match(other.body, /id="postUrl"[^>]*aria-invalid="true"/);
      const platform = await send('https://platform-b.example/p/Cx12ab/');
      assert.equal(platform.status, 400);
      assert.match(
        fieldError(platform.body, 'postUrl') ?? '',
        new RegExp(
          `^This link is a platformB post, but this task's account @${s.username} is on platformA`,
        ),
      );
      const none = await send('https://example.com/whatever');
      assert.match(
        fieldError(none.body, 'postUrl') ?? '',
        /^This link is not the address of a platformA post/,
      );
      assert.equal((await s.work('GET', `/worker/v1/tasks/${s.taskId}`)).body.state, 'claimed');

      const right = await send(`https://platform-a.example/@${s.username}/video/7345`);
      assert.equal(right.status, 303, right.body);
      assert.equal((await s.work('GET', `/worker/v1/tasks/${s.taskId}`)).body.state, 'posted');
    });
  },
  { env: { POST_URL_PATTERN_PLATFORMA: '', POST_URL_PATTERN_PLATFORMB: '' } },
);
