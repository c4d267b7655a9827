// The post composer through HTTP on both databases: a video post and a carousel (an uploaded
// image and a workspace image) created through the dashboard's own routes with real media
// fixtures and seen through the API; the slide preview drawn by the service's renderer and
// its refusals; every problem of a form shown at once with nothing typed lost; a form sent
// twice makes one post; roles and CSRF; other companies' uploads, images and accounts
// refused exactly like unknown ones.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload } from '../../helpers/posts.ts';
import { startS3 } from '../../helpers/s3.ts';
import { fixture } from '../../helpers/uploads.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import { addImage, createFolder } from '../../../src/modules/workspace/index.ts';
import { updateCompany } from '../../../src/modules/companies/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;
const s3 = await startS3();
after(() => s3.close());

interface Session {
  b: Browser;
  csrf: string;
  key: string;
  email: string;
}

/** A signed-in user of the company on the composer, with the form's CSRF token and key. */
async function composer(
  t: TestApp,
  companyId: string,
  role: UserRole = 'editor',
): Promise<Session> {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const page = await b.get('/dashboard/compose');
  if (role === 'viewer') {
    const other = await b.get('/dashboard/approvals');
    return { b, csrf: hidden(other.body, '_csrf'), key: '', email: u.email };
  }
  assert.equal(page.status, 200, page.body);
  return { b, csrf: hidden(page.body, '_csrf'), key: hidden(page.body, 'key'), email: u.email };
}

/** What the page's script sends: JSON with the session cookie and the CSRF header. */
async function json(
  t: TestApp,
  s: Session,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  csrf: string | null = s.csrf,
) {
  const res = await t.app.inject({
    method,
    url,
    remoteAddress: '198.51.100.250',
    headers: {
      cookie: [...s.b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  const type = String(res.headers['content-type'] ?? '');
  return {
    status: res.statusCode,
    type,
    body: type.includes('json') ? res.json() : res.body,
    raw: res.rawPayload,
  };
}

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  png: 'image/png',
  jpg: 'image/jpeg',
  heic: 'image/heic',
};

/** The script's upload: create through the dashboard, PUT the bytes, complete. */
async function upload(t: TestApp, s: Session, name: string) {
  const bytes = await fixture(name);
  const contentType = CONTENT_TYPES[name.split('.').pop() as string] as string;
  const kind = contentType.startsWith('video/') ? 'video' : 'image';
  const created = await json(t, s, 'POST', '/dashboard/compose/uploads', {
    kind,
    filename: name,
    contentType,
    sizeBytes: bytes.length,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  // The service's own address comes as a path: the browser sends to the origin it is on.
  assert.match(created.body.uploadUrl, /^\/v2\/uploads\/[^/]+\/bytes\?/);
  const put = await t.app.inject({
    method: 'PUT',
    url: created.body.uploadUrl,
    headers: { 'content-type': contentType },
    payload: bytes,
  });
  assert.equal(put.statusCode, 200, put.body);
  const complete = await json(
    t,
    s,
    'POST',
    `/dashboard/compose/uploads/${created.body.uploadId}/complete`,
    {},
  );
  return { uploadId: created.body.uploadId as string, complete };
}

/** The post a composer's redirect leads to. */
function postIdOf(location: string | undefined): string {
  const m = /^\/dashboard\/posts\/([^/?]+)$/.exec(location ?? '');
  assert.ok(m, `not a post page: ${location}`);
  return decodeURIComponent(m[1] as string);
}

/** A workspace image of the company, added as the workspace page adds one. */
async function workspaceImage(t: TestApp, companyId: string, name = 'image.jpg') {
  const folder = await createFolder(t.ctx.db, t.ctx.clock, companyId, `Folder ${Math.random()}`, {
    id: 'operator',
    label: 'test',
  });
  const bytes = await fixture(name);
  return addImage(
    t.ctx,
    companyId,
    folder.folderId,
    {
      bytes,
      contentType: CONTENT_TYPES[name.split('.').pop() as string] as string,
      label: 'Beach',
    },
    { id: 'operator', label: 'test' },
  );
}

function slide(image: string, style: Record<string, unknown> = {}) {
  return {
    image,
    imageFit: 'fill',
    textElements: [
      {
        content: 'Three tips for crisp mornings',
        style: { positionY: 30, fontSize: 28, ...style },
      },
    ],
  };
}

describeEachDialect('dashboard composer', (get) => {
  test('an editor uploads a video and creates a post; sending the form again makes no second post', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [account] = (await makeAccounts(call, 1)) as [string];
    const s = await composer(t, co.companyId);

    const video = await upload(t, s, 'h264-aac-faststart.mp4');
    assert.equal(video.complete.status, 200, JSON.stringify(video.complete.body));
    assert.equal(video.complete.body.status, 'ready');
    assert.equal(video.complete.body.kind, 'video');
    const status = await json(t, s, 'GET', `/dashboard/compose/uploads/${video.uploadId}`);
    assert.equal(status.status, 200);
    assert.equal(status.body.uploadId, video.uploadId);

    const form = {
      _csrf: s.csrf,
      key: s.key,
      kind: 'video',
      video: video.uploadId,
      caption: 'Morning routine, in one minute',
      hashtags: '#morning, routine  #coffee',
      soundMode: 'original',
      account: account,
      priority: '3',
      platformBPostFormat: 'reel',
    };
    const sent = await s.b.post('/dashboard/compose', form);
    assert.equal(sent.status, 303, sent.body);
    const postId = postIdOf(sent.location);
    const post = await call('GET', `/v2/posts/${postId}`);
    assert.equal(post.status, 200);
    assert.equal(post.body.media.kind, 'video');
    assert.equal(post.body.caption, 'Morning routine, in one minute');
    assert.deepEqual(post.body.hashtags, ['morning', 'routine', 'coffee']);
    assert.deepEqual(post.body.sound, { mode: 'original' });
    assert.equal(post.body.status, 'pending_approval');
    assert.deepEqual(
      post.body.accounts.map((a: { accountId: string }) => a.accountId),
      [account],
    );
    const shown = await s.b.get(sent.location as string);
    assert.match(shown.body, /Post created for 1 account: it waits for approval\./);

    // The same form again (a second click, a resubmit): the same post, nothing new.
    const again = await s.b.post('/dashboard/compose', form);
    assert.equal(again.status, 303, again.body);
    assert.equal(postIdOf(again.location), postId);
    const listed = await call('GET', '/v2/posts');
    assert.equal(listed.body.data.length, 1);

    const log = await listActivity(t.ctx.db, co.companyId, { limit: 10 });
    const created = log.find((e) => e.action === 'post.created');
    assert.ok(created, JSON.stringify(log));
    assert.equal(created.target, postId);
    assert.equal(created.actorLabel, s.email);
    assert.match(created.detail ?? '', new RegExp(`accounts ${account}, priority 3`));
  });

  test('a carousel of an uploaded and a workspace image, previewed by the renderer', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b] = (await makeAccounts(call, 2)) as [string, string];
    const s = await composer(t, co.companyId);
    const png = await upload(t, s, 'image.png');
    assert.equal(png.complete.status, 200, JSON.stringify(png.complete.body));
    const ws = await workspaceImage(t, co.companyId);
    const page = await s.b.get('/dashboard/compose?kind=carousel');
    assert.match(page.body, new RegExp(`value="ws:${ws.imageId}"`));
    assert.match(page.body, /<input type="radio" name="kind" value="carousel" checked>/);

    for (const image of [png.uploadId, `ws:${ws.imageId}`]) {
      const preview = await json(t, s, 'POST', '/dashboard/compose/preview', slide(image));
      assert.equal(preview.status, 200, String(preview.body));
      assert.equal(preview.type, 'image/jpeg');
      const meta = await sharp(preview.raw).metadata();
      assert.equal(meta.format, 'jpeg');
      assert.deepEqual([meta.width, meta.height], [540, 960]);
    }
    // One preview is drawn at a time for a person: the others are told to ask again.
    const together = await Promise.all(
      [1, 2, 3].map(() => json(t, s, 'POST', '/dashboard/compose/preview', slide(png.uploadId))),
    );
    const statuses = together.map((r) => r.status).sort();
    assert.equal(statuses[0], 200, JSON.stringify(statuses));
    assert.equal(statuses[2], 429, JSON.stringify(statuses));
    const busy = together.find((r) => r.status === 429);
    assert.match(busy?.body.error, /Another preview is being drawn/);
    // A slide outside SPEC 2.3 is refused in words, naming what is wrong.
    const big = await json(
      t,
      s,
      'POST',
      '/dashboard/compose/preview',
      slide(png.uploadId, { fontSize: 99 }),
    );
    assert.equal(big.status, 400);
    assert.match(big.body.error, /^Text 1, font size: at most 72\.$/);
    const extra = await json(t, s, 'POST', '/dashboard/compose/preview', {
      ...slide(png.uploadId),
      textElements: Array.from({ length: 7 }, () => ({ content: 'x', style: { positionY: 1 } })),
      colour: 'red',
    });
    assert.equal(extra.status, 400);
    assert.match(extra.body.error, /Text boxes: at most 6 \(you entered 7\)/);
    assert.match(extra.body.error, /colour: is not a field of this form/);
    const heic = await upload(t, s, 'image.heic');
    assert.equal(heic.complete.status, 200, JSON.stringify(heic.complete.body));
    const heicPreview = await json(
      t,
      s,
      'POST',
      '/dashboard/compose/preview',
      slide(heic.uploadId),
    );
    assert.equal(heicPreview.status, 400);
    assert.match(heicPreview.body.error, /HEIC images cannot be drawn on slides/);

    const sent = await s.b.post('/dashboard/compose', {
      _csrf: s.csrf,
      key: s.key,
      kind: 'carousel',
      uploaded: [png.uploadId],
      's0.image': png.uploadId,
      's0.imageFit': 'fill',
      's0.role': 'hook',
      's0.t0.content': 'Three tips',
      's0.t0.positionY': '30',
      's0.t0.fontSize': '28',
      's0.t0.textMode': 'background',
      's0.t0.backgroundColor': 'yellow',
      's0.t0.textColor': 'black',
      // An empty text box is no text.
      's0.t1.content': '',
      's0.t1.positionY': '70',
      's1.image': `ws:${ws.imageId}`,
      's1.imageFit': 'fit',
      's1.role': '',
      's1.t0.content': 'Follow for more',
      's1.t0.positionY': '80',
      's1.t0.textAlign': 'left',
      's1.t0.width': '60',
      's1.t0.padding': '4',
      caption: 'Crisp mornings',
      account: [a, b],
      skipApproval: 'true',
    });
    assert.equal(sent.status, 303, sent.body);
    const postId = postIdOf(sent.location);
    await t.media.idle();
    const post = await call('GET', `/v2/posts/${postId}`);
    assert.equal(post.status, 200);
    assert.equal(post.body.media.kind, 'image');
    assert.equal(post.body.media.count, 2);
    assert.equal(post.body.status, 'queued');
    assert.equal(post.body.accounts.length, 2);
    // The workspace image became an upload of the company, used once.
    const uploads = await t.ctx.db
      .selectFrom('posts')
      .select(['media_upload_ids', 'slides'])
      .where('id', '=', postId)
      .executeTakeFirstOrThrow();
    const media = JSON.parse(uploads.media_upload_ids) as string[];
    assert.equal(media.length, 2);
    assert.equal(media[0], png.uploadId);
    assert.notEqual(media[1], `ws:${ws.imageId}`);
    const slides = JSON.parse(uploads.slides as string);
    assert.equal(slides[0].textElements.length, 1);
    assert.equal(slides[0].textElements[0].style.textMode, 'background');
    assert.equal(slides[0].role, 'hook');
    assert.equal(slides[1].imageFit, 'fit');
    assert.equal(slides[1].textElements[0].style.width, 60);
  });

  test('every problem of a form at once, beside its field, with what was typed kept', async () => {
    const t = get();
    const co = await seedCompany(t);
    const s = await composer(t, co.companyId);
    const png = await upload(t, s, 'image.png');
    const caption = `${'a'.repeat(2200)}é`;
    const res = await s.b.post('/dashboard/compose', {
      _csrf: s.csrf,
      key: s.key,
      kind: 'carousel',
      uploaded: [png.uploadId],
      's0.image': png.uploadId,
      's0.t0.content': 'Big words',
      's0.t0.fontSize': '99',
      's0.t0.positionY': '',
      's1.image': '',
      's1.t0.content': 'Second',
      's1.t0.positionY': '50',
      caption,
      hashtags: Array.from({ length: 31 }, (_, i) => `#tag${i}`).join(' '),
      soundMode: 'specific',
      soundUrl: 'not a link',
      priority: '-1',
    });
    assert.equal(res.status, 400);
    const want = [
      'Slide 1, text 1, font size: at most 72',
      'Slide 1, text 1, position down: required',
      'Slide 2, background image: choose an image',
      'Caption: at most 2,200 characters (this has 2,201)',
      'Hashtags: at most 30 (you entered 31)',
      'Sound link: must be an http or https URL',
      'Accounts: choose at least one account to post to',
      'Priority: at least 0',
    ];
    for (const message of want) assert.ok(res.body.includes(message), `missing: ${message}`);
    assert.match(res.body, /8 things to fix before this can be saved/);
    // Beside each control, and linked from the summary.
    assert.match(res.body, /<a href="#s0-t0-fontSize">/);
    assert.match(
      res.body,
      /id="s0-t0-fontSize"[^>]*aria-invalid="true" aria-describedby="s0-t0-fontSize-error"/,
    );
    assert.match(res.body, /<p class="field-error" id="caption-error">/);
    // Nothing typed is lost.
    assert.ok(res.body.includes(`>${caption}</textarea>`));
    assert.match(res.body, /value="#tag0 #tag1/);
    assert.match(res.body, /value="not a link"/);
    assert.match(res.body, /value="-1"/);
    assert.match(res.body, /Big words<\/textarea>/);
    assert.match(res.body, new RegExp(`<option value="${png.uploadId}" selected>`));
    assert.equal(hidden(res.body, 'key'), s.key);
    // Nothing was created.
    assert.equal((await client(t, co.key)('GET', '/v2/posts')).body.data.length, 0);
  });

  test('a video that breaks the media rules is refused in plain words', async () => {
    const t = get();
    const co = await seedCompany(t);
    const s = await composer(t, co.companyId);
    const fast = await upload(t, s, 'fps-61.mp4');
    assert.equal(fast.complete.status, 422);
    assert.match(
      fast.complete.body.error,
      /^Video frame rate 61\.\d+ fps exceeds the 60 fps limit\.$/,
    );
    const huge = await json(t, s, 'POST', '/dashboard/compose/uploads', {
      kind: 'video',
      filename: 'long.mp4',
      contentType: 'video/mp4',
      sizeBytes: 300 * 1024 * 1024,
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.error, '“long.mp4” is 300 MB; a video can be at most 200 MB.');
    const wrong = await json(t, s, 'POST', '/dashboard/compose/uploads', {
      kind: 'video',
      filename: 'clip.webm',
      contentType: 'video/webm',
      sizeBytes: 1000,
    });
    assert.equal(wrong.status, 415);
    assert.equal(wrong.body.error, 'Video filename must end in .mp4 or .mov.');
    const remote = await json(t, s, 'POST', '/dashboard/compose/uploads', {
      kind: 'image',
      sourceUrl: 'https://example.com/a.png',
    });
    assert.equal(remote.status, 400);
  });

  test('the carousel buttons work without the script; empty states point the way', async () => {
    const t = get();
    const co = await seedCompany(t);
    const s = await composer(t, co.companyId);
    const page = await s.b.get('/dashboard/compose');
    assert.match(
      page.body,
      /No accounts yet\. <a href="\/dashboard\/accounts\/new">Add an account<\/a>/,
    );
    assert.match(page.body, /No workspace images yet/);
    assert.match(page.body, /No content tags yet/);
    assert.match(page.body, /<noscript>/);
    assert.match(page.body, /<script src="\/dashboard\/assets\/compose\.js" defer><\/script>/);
    const base = {
      _csrf: s.csrf,
      key: s.key,
      kind: 'carousel',
      's0.t0.content': 'First',
      's0.t0.positionY': '40',
      's1.t0.content': 'Second',
      's1.t0.positionY': '60',
      caption: 'kept',
    };
    const added = await s.b.post('/dashboard/compose', { ...base, op: 'add-slide' });
    assert.equal(added.status, 200);
    assert.match(added.body, /<h3 data-slide-title>Slide 3<\/h3>/);
    assert.match(added.body, />kept<\/textarea>/);
    const moved = await s.b.post('/dashboard/compose', { ...base, op: 'down-slide:0' });
    assert.ok(moved.body.indexOf('>Second</textarea>') < moved.body.indexOf('>First</textarea>'));
    const text = await s.b.post('/dashboard/compose', { ...base, op: 'add-text:1' });
    assert.match(text.body, /name="s1\.t1\.content"/);
    // Without the script, a photo post of workspace images: they become uploads once.
    const ws = await workspaceImage(t, co.companyId);
    const [account] = (await makeAccounts(client(t, co.key), 1)) as [string];
    const withImage = await s.b.get('/dashboard/compose?kind=photos');
    const photo = {
      _csrf: s.csrf,
      key: hidden(withImage.body, 'key'),
      kind: 'photos',
      image: `ws:${ws.imageId}`,
      account,
    };
    const posted = await s.b.post('/dashboard/compose', photo);
    assert.equal(posted.status, 303, posted.body);
    const postId = postIdOf(posted.location);
    const post = await client(t, co.key)('GET', `/v2/posts/${postId}`);
    assert.deepEqual([post.body.media.kind, post.body.media.count], ['image', 1]);
    // Sent again (the back button, a second click): the same post, no new upload.
    const uploads = async () =>
      (
        await t.ctx.db
          .selectFrom('uploads')
          .select('id')
          .where('company_id', '=', co.companyId)
          .execute()
      ).length;
    const before = await uploads();
    const again = await s.b.post('/dashboard/compose', photo);
    assert.equal(postIdOf(again.location), postId);
    assert.equal(await uploads(), before);
    assert.match(
      (await s.b.get(again.location as string)).body,
      /This form had already created this post/,
    );
    // The script is served, and only to those who may load assets.
    const js = await t.app.inject({ method: 'GET', url: '/dashboard/assets/compose.js' });
    assert.equal(js.statusCode, 200);
  });

  test('platformB feed posts only where the company has them', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [account] = (await makeAccounts(call, 1, 'platformB')) as [string];
    const s = await composer(t, co.companyId);
    const video = await upload(t, s, 'h264-noaudio.mp4');
    const send = (key: string) =>
      s.b.post('/dashboard/compose', {
        _csrf: s.csrf,
        key,
        kind: 'video',
        video: video.uploadId,
        account,
        platformBPostFormat: 'post',
      });
    const page = await s.b.get('/dashboard/compose');
    assert.doesNotMatch(page.body, /name="platformBPostFormat" value="post"/);
    assert.match(page.body, /this company posts Reels/);
    const refused = await send('k-no-feed');
    assert.equal(refused.status, 409);
    assert.match(refused.body, /platformB format: this company may post Reels only on platformB/);

    await updateCompany(t.ctx.db, t.ctx.clock, t.config.plans, co.companyId, {
      platformBFeedPosts: true,
    });
    const capable = await s.b.get('/dashboard/compose');
    assert.match(capable.body, /name="platformBPostFormat" value="post"/);
    const sent = await send('k-feed');
    assert.equal(sent.status, 303, sent.body);
    const post = await call('GET', `/v2/posts/${postIdOf(sent.location)}`);
    assert.equal(post.body.platformBPostFormat, 'post');
  });

  test('roles and CSRF: viewers cannot compose; every change needs the form token', async () => {
    const t = get();
    const co = await seedCompany(t);
    const viewer = await composer(t, co.companyId, 'viewer');
    assert.equal((await viewer.b.get('/dashboard/compose')).status, 403);
    const refused = await viewer.b.post('/dashboard/compose', {
      _csrf: viewer.csrf,
      kind: 'video',
    });
    assert.equal(refused.status, 403);
    assert.match(refused.body, /needs the editor role/);
    const body = { kind: 'image', filename: 'a.png', contentType: 'image/png', sizeBytes: 10 };
    assert.equal((await json(t, viewer, 'POST', '/dashboard/compose/uploads', body)).status, 403);
    assert.equal(
      (await json(t, viewer, 'POST', '/dashboard/compose/preview', slide('upl_x'))).status,
      403,
    );

    const editor = await composer(t, co.companyId);
    const noToken = await editor.b.post('/dashboard/compose', { kind: 'video' });
    assert.equal(noToken.status, 403);
    assert.match(noToken.body, /This form has expired/);
    for (const [url, payload] of [
      ['/dashboard/compose/uploads', body],
      ['/dashboard/compose/preview', slide('upl_x')],
      ['/dashboard/compose/uploads/upl_x/complete', {}],
    ] as const) {
      const res = await json(t, editor, 'POST', url, payload, null);
      assert.equal(res.status, 403, url);
    }
    // Signed out: sent to sign in, nothing done.
    const anonymous = await t.app.inject({ method: 'GET', url: '/dashboard/compose' });
    assert.equal(anonymous.statusCode, 303);
  });

  test('another company’s uploads, images and accounts read exactly like unknown ones', async () => {
    const t = get();
    const co = await seedCompany(t);
    const other = await seedCompany(t, { name: 'Other Co' });
    const otherCall = client(t, other.key);
    const [otherAccount] = (await makeAccounts(otherCall, 1)) as [string];
    const otherVideo = await readyUpload(t, otherCall, 'h264-noaudio.mp4');
    const otherImage = await readyUpload(t, otherCall, 'image.png');
    const otherWs = await workspaceImage(t, other.companyId);
    const [account] = (await makeAccounts(client(t, co.key), 1)) as [string];
    const s = await composer(t, co.companyId);
    const video = await upload(t, s, 'h264-noaudio.mp4');

    const send = (fields: Record<string, string>) =>
      s.b.post('/dashboard/compose', {
        _csrf: s.csrf,
        key: `k-${Math.random()}`,
        kind: 'video',
        video: video.uploadId,
        account,
        ...fields,
      });
    for (const [field, foreign, unknown] of [
      ['video', otherVideo, 'upl_unknown'],
      ['account', otherAccount, 'acc_unknown'],
    ] as const) {
      const a = await send({ [field]: foreign });
      const b = await send({ [field]: unknown });
      assert.equal(a.status, 400, a.body);
      assert.equal(b.status, a.status);
      const message = /<p class="field-error" id="[^"]+">([^<]+)<\/p>/.exec(a.body)?.[1];
      assert.ok(message, a.body);
      assert.ok(b.body.includes(message), `${field}: ${message}`);
      assert.ok(!a.body.includes(foreign), `${field}: the other company’s id is not shown`);
    }
    // A photo post naming another company's workspace image.
    const photos = async (ref: string) =>
      s.b.post('/dashboard/compose', {
        _csrf: s.csrf,
        key: `k-${Math.random()}`,
        kind: 'photos',
        image: ref,
        account,
      });
    const foreignWs = await photos(`ws:${otherWs.imageId}`);
    const unknownWs = await photos('ws:img_unknown');
    assert.equal(foreignWs.status, 400);
    assert.equal(unknownWs.status, 400);
    const wsMessage = /<p class="field-error" id="images-error">([^<]+)<\/p>/.exec(
      foreignWs.body,
    )?.[1];
    assert.equal(
      wsMessage,
      'Images: an image you chose is no longer in the workspace; choose again',
    );
    assert.ok(unknownWs.body.includes(wsMessage));

    const pairs: [string, string][] = [
      [otherImage, 'upl_unknown'],
      [`ws:${otherWs.imageId}`, 'ws:img_unknown'],
    ];
    for (const [foreign, unknown] of pairs) {
      const a = await json(t, s, 'POST', '/dashboard/compose/preview', slide(foreign));
      const b = await json(t, s, 'POST', '/dashboard/compose/preview', slide(unknown));
      assert.equal(a.status, 400);
      assert.deepEqual([a.status, a.body], [b.status, b.body]);
    }
    for (const path of ['complete', '']) {
      const url = (id: string) => `/dashboard/compose/uploads/${id}${path ? `/${path}` : ''}`;
      const method = path ? 'POST' : 'GET';
      const a = await json(t, s, method, url(otherImage), path ? {} : undefined);
      const b = await json(t, s, method, url('upl_unknown'), path ? {} : undefined);
      assert.equal(a.status, 404);
      assert.deepEqual([a.status, a.body], [b.status, b.body]);
    }
    assert.equal((await client(t, co.key)('GET', '/v2/posts')).body.data.length, 0);
  });
});

describeEachDialect(
  'dashboard composer with object storage',
  (get) => {
    test('the browser sends the file straight to the bucket, which the page’s policy allows', async () => {
      const t = get();
      const co = await seedCompany(t);
      const s = await composer(t, co.companyId);
      const bytes = await fixture('image.png');
      const created = await json(t, s, 'POST', '/dashboard/compose/uploads', {
        kind: 'image',
        filename: 'dot.png',
        contentType: 'image/png',
        sizeBytes: bytes.length,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const bucket = new URL(created.body.uploadUrl as string).origin;
      assert.equal(bucket, new URL(s3.config.publicEndpoint).origin);
      const page = await t.app.inject({
        method: 'GET',
        url: '/dashboard/compose',
        headers: { cookie: [...s.b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, new RegExp(`connect-src 'self' ${bucket.replace(/[.]/g, '\\.')};`));
      const put = await fetch(created.body.uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: bytes,
      });
      assert.equal(put.status, 200, await put.text());
      const uploadId = created.body.uploadId as string;
      const done = await json(t, s, 'POST', `/dashboard/compose/uploads/${uploadId}/complete`, {});
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const preview = await json(t, s, 'POST', '/dashboard/compose/preview', slide(uploadId));
      assert.equal(preview.status, 200, String(preview.body));
      assert.equal(preview.type, 'image/jpeg');
    });
  },
  { env: { STORAGE_URL: s3.url } },
);
