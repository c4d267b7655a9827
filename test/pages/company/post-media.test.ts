// A post's media on the dashboard, through HTTP on both databases: the lists say what the
// media is in words ("Video · 0:02", "Carousel · 3 slides", "Image"); the post's page plays
// a video from an expiring signed URL, with its thumbnail as the poster, and shows a
// carousel's rendered slides in a gallery whose text alternatives are the slides' words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { local } from '../../helpers/uploads.ts';

async function editor(t: TestApp, companyId: string): Promise<Browser> {
  const u = await userIn(t, companyId, 'editor');
  const b = browser(t, '198.51.100.77');
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return b;
}

async function post(call: CallFn, body: Record<string, unknown>): Promise<string> {
  const res = await call('POST', '/v2/posts', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.postId as string;
}

/** A video post (2 s), a carousel of three slides with words, and an image post. */
async function threePosts(t: TestApp, call: CallFn) {
  const [a] = (await makeAccounts(call, 1)) as [string];
  const mp4 = await readyUpload(t, call, 'h264-aac-faststart.mp4');
  const png = await readyUpload(t, call, 'image.png');
  const jpg = await readyUpload(t, call, 'image.jpg');
  const slide = (image: string, content: string) => ({
    image,
    textElements: [{ content, style: { positionY: 30 } }],
  });
  const video = await post(call, { media: [mp4], accountIds: [a], caption: 'Watch this' });
  t.clock.advance(1000);
  const carousel = await post(call, {
    media: [png, jpg],
    slides: [slide(png, 'Three tips'), slide(jpg, 'Tip one:  stretch'), slide(png, 'Follow us')],
    accountIds: [a],
    caption: 'Swipe',
  });
  t.clock.advance(1000);
  const image = await post(call, { media: [png], accountIds: [a], caption: 'Just one' });
  // The video's thumbnail and the carousel's slides are made off the request path.
  await t.media.idle();
  return { video, carousel, image };
}

/** The list row of a post (the posts list) or its card (the approvals inbox). */
function rowOf(html: string, postId: string): string {
  const row =
    new RegExp(`<tr data-post="${postId}">([\\s\\S]*?)</tr>`).exec(html) ??
    new RegExp(`<li class="card" tabindex="-1" data-post="${postId}">([\\s\\S]*?)</li>\\n`).exec(
      html,
    );
  assert.ok(row, `the page lists ${postId}`);
  return row[1] as string;
}

describeEachDialect('dashboard post media', (get) => {
  test('the lists say what the media is: its kind, slides or length', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const posts = await threePosts(t, call);
    const b = await editor(t, co.companyId);
    for (const path of ['/dashboard/posts', '/dashboard/approvals']) {
      const page = await b.get(path);
      assert.equal(page.status, 200, path);
      assert.match(rowOf(page.body, posts.video), />Video · 0:02</, path);
      assert.match(rowOf(page.body, posts.carousel), />Carousel · 3 slides</, path);
      assert.match(rowOf(page.body, posts.image), />Image</, path);
      assert.doesNotMatch(page.body, /(image|video) · \d+</, `${path}: no count of uploads`);
    }
  });

  test('a video post plays from a signed URL, with its thumbnail as the poster', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const { video } = await threePosts(t, call);
    const b = await editor(t, co.companyId);
    const page = await b.get(`/dashboard/posts/${video}`);
    assert.equal(page.status, 200);
    const player =
      /<video class="post-video" controls playsinline preload="metadata" width="270" height="480" poster="([^"]+)" aria-label="Video of “Watch this”"><source src="([^"]+)" type="video\/mp4">/.exec(
        page.body,
      );
    assert.ok(player, 'a player with its poster and source');
    const [, poster = '', src = ''] = player;
    assert.equal(poster, `/dashboard/posts/${video}/thumbnail`);
    const signed = new URL(src.replaceAll('&amp;', '&'));
    assert.match(signed.pathname, /^\/v2\/media\/uploads\/upl_[^/]+$/);
    assert.match(signed.searchParams.get('expires') ?? '', /^\d+$/);
    // The hour that post responses' media URLs live.
    assert.equal(
      Number(signed.searchParams.get('expires')) * 1000 - t.clock.now().getTime(),
      3_600_000,
    );
    assert.match(page.body, /<figcaption class="kind">Video · 0:02<\/figcaption>/);
    assert.doesNotMatch(page.body, /data-gallery|post-media\.js/, 'no gallery, no script');

    const bytes = await t.app.inject({ method: 'GET', url: local(signed.toString()) });
    assert.equal(bytes.statusCode, 200);
    assert.equal(bytes.headers['content-type'], 'video/mp4');
    // A player asks for ranges; the signed URL answers them.
    const part = await t.app.inject({
      method: 'GET',
      url: local(signed.toString()),
      headers: { range: 'bytes=0-99' },
    });
    assert.equal(part.statusCode, 206);
    assert.equal(part.rawPayload.length, 100);
    const thumb = await b.get(poster);
    assert.equal(thumb.status, 302);
    // Past its hour, the URL is refused.
    t.clock.advance(3_600_001);
    const late = await t.app.inject({ method: 'GET', url: local(signed.toString()) });
    assert.equal(late.statusCode, 403);
  });

  test('a carousel shows its rendered slides, each described by its words', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const { carousel } = await threePosts(t, call);
    const b = await editor(t, co.companyId);
    const page = await b.get(`/dashboard/posts/${carousel}`);
    assert.equal(page.status, 200);
    assert.match(
      page.body,
      /<div class="gallery" data-gallery role="group" aria-roledescription="carousel" aria-label="Slides of “Swipe”">/,
    );
    assert.match(
      page.body,
      /<div class="gallery-track" tabindex="0" role="group" aria-label="[^"]+">/,
    );
    const slides = [
      ...page.body.matchAll(/<li class="gallery-slide"><img src="([^"]+)" alt="([^"]+)"/g),
    ];
    assert.deepEqual(
      slides.map((m) => m[2]),
      ['Slide 1 of 3: Three tips', 'Slide 2 of 3: Tip one: stretch', 'Slide 3 of 3: Follow us'],
    );
    for (const [i, m] of slides.entries()) {
      const url = new URL((m[1] as string).replaceAll('&amp;', '&'));
      assert.equal(url.pathname, `/v2/media/posts/${carousel}/slide-${i}`);
      const res = await t.app.inject({ method: 'GET', url: local(url.toString()) });
      assert.equal(res.statusCode, 200, `slide ${i}`);
      assert.equal(res.headers['content-type'], 'image/jpeg');
    }
    // The buttons and the counter, shown by the page's script (without it the slides scroll).
    assert.match(
      page.body,
      /<p class="gallery-controls" data-gallery-controls hidden><button type="button" class="gallery-prev" data-gallery-prev aria-label="Previous slide">‹<\/button> <span class="gallery-count" data-gallery-count aria-live="polite">1 \/ 3<\/span> <button type="button" class="gallery-next" data-gallery-next aria-label="Next slide">›<\/button><\/p>/,
    );
    assert.match(page.body, /<script src="\/dashboard\/assets\/post-media\.js" defer><\/script>/);
    assert.match(page.body, /<figcaption class="kind">Carousel · 3 slides<\/figcaption>/);
    assert.doesNotMatch(page.body, /<video/);
    // The script is served under the pages' policy: no inline script anywhere.
    const script = await t.app.inject({ method: 'GET', url: '/dashboard/assets/post-media.js' });
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /javascript/);
    assert.doesNotMatch(page.body, /<script(?![^>]*\bsrc=)[^>]*>/);

    // Before its slides are rendered, the page says so rather than show the bare images.
    await t.ctx.db
      .updateTable('posts')
      .set({ media_keys: null })
      .where('id', '=', carousel)
      .execute();
    const early = await b.get(`/dashboard/posts/${carousel}`);
    assert.match(early.body, /Its slides are being rendered: they show here once ready\./);
    assert.doesNotMatch(early.body, /data-gallery|post-media\.js/);
    assert.match(early.body, /<span class="kind">Carousel · 3 slides<\/span>/);
  });

  test('an image post keeps its thumbnail; another company’s post is not found', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const { image, video } = await threePosts(t, call);
    const b = await editor(t, co.companyId);
    const page = await b.get(`/dashboard/posts/${image}`);
    assert.equal(page.status, 200);
    assert.match(page.body, /<span class="kind">Image<\/span>/);
    assert.doesNotMatch(page.body, /<video|data-gallery/);
    const other = await seedCompany(t);
    const stranger = await editor(t, other.companyId);
    assert.equal((await stranger.get(`/dashboard/posts/${video}`)).status, 404);
  });
});
