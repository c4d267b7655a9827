// Creating, queueing and reading posts on both databases (SPEC 4.2, DECISIONS 2 and 4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { local } from '../../helpers/uploads.ts';
import { makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { updateCompany } from '../../../src/modules/companies/index.ts';

async function setup(t: TestApp) {
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const accounts = await makeAccounts(call, 3);
  const video = await readyUpload(t, call, 'h264-aac-faststart.mp4');
  return { co, call, accounts, video };
}

const slide = (image: string, text = 'Hello') => ({
  image,
  textElements: [{ content: text, style: { positionY: 30 } }],
});

describeEachDialect('posts', (get) => {
  test('create a video post to 3 accounts, then read it', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const tag = (await call('POST', '/v2/content-tags', { name: 'Launch' })).body;
    const created = await call('POST', '/v2/posts', {
      media: [video],
      accountIds: accounts,
      caption: 'First!',
      hashtags: ['one', 'two'],
      sound: { mode: 'trending' },
      notes: 'internal',
      contentGroupIds: [tag.contentGroupId],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const p = created.body;
    assert.match(p.postId, /^pst_/);
    assert.equal(p.status, 'pending_approval');
    assert.deepEqual(p.media.kind, 'video');
    assert.equal(p.media.count, 1);
    assert.equal(p.caption, 'First!');
    assert.deepEqual(p.hashtags, ['one', 'two']);
    assert.deepEqual(p.sound, { mode: 'trending' });
    assert.equal(p.platformBPostFormat, 'reel');
    assert.deepEqual(p.contentGroupIds, [tag.contentGroupId]);
    assert.deepEqual(
      p.accounts.map((a: { accountId: string; status: string }) => [a.accountId, a.status]),
      accounts.map((a) => [a, 'pending_approval']),
    );
    assert.equal(p.accounts[0].queuedAt, t.clock.now().toISOString());
    assert.equal(p.accounts[0].approvedAt, undefined);
    const got = await call('GET', `/v2/posts/${p.postId}`);
    assert.equal(got.status, 200);
    assert.deepEqual(
      { ...got.body, media: { ...got.body.media, thumbnailUrl: null } },
      { ...p, media: { ...p.media, thumbnailUrl: null } },
    );
    // The thumbnail of the video appears once it is made.
    await t.media.idle();
    const later = await call('GET', `/v2/posts/${p.postId}`);
    const thumb = await t.app.inject({ method: 'GET', url: local(later.body.media.thumbnailUrl) });
    assert.equal(thumb.statusCode, 200);
  });

  test('skipApproval queues at once with approvedAt; defaults are empty', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const r = await call('POST', '/v2/posts', {
      media: [video],
      accountIds: [accounts[0]],
      skipApproval: true,
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.status, 'queued');
    assert.equal(r.body.accounts[0].approvedAt, t.clock.now().toISOString());
    assert.equal(r.body.caption, null);
    assert.deepEqual(r.body.hashtags, []);
    assert.equal(r.body.sound, null);
    assert.equal(r.body.notes, null);
    assert.deepEqual(r.body.contentGroupIds, []);
  });

  test('media sets (DECISIONS 4)', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const img = await readyUpload(t, call, 'image.png');
    const img2 = await readyUpload(t, call, 'image.jpg');
    const video2 = await readyUpload(t, call, 'h264-noaudio.mp4');
    const post = (body: object) =>
      call('POST', '/v2/posts', { accountIds: [accounts[0]], ...body });
    assert.equal((await post({ media: [img, img2] })).body.media.kind, 'image');
    assertApiError(await post({ media: [video, video2] }), 400, 'invalid_media_set');
    assertApiError(await post({ media: [video, img] }), 400, 'invalid_media_set');
    assertApiError(await post({ media: [img, img] }), 400, 'invalid_media_set');
    assertApiError(
      await post({ media: [img], slides: [slide(img), slide(img2)] }),
      400,
      'invalid_media_set',
    );
    assertApiError(
      await post({ media: [img, img2], slides: [slide(img), slide(img)] }),
      400,
      'invalid_media_set',
    );
    assertApiError(
      await post({ media: [video], slides: [slide(video), slide(video)] }),
      400,
      'invalid_media_set',
    );
    const heic = await readyUpload(t, call, 'image.heic');
    assertApiError(
      await post({ media: [heic, img], slides: [slide(heic), slide(img)] }),
      400,
      'invalid_media_set',
    );
  });

  test('unknown, unready and foreign media and accounts', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const other = await setup(t);
    const post = (body: object) => call('POST', '/v2/posts', body);
    assertApiError(
      await post({ media: ['upl_nope'], accountIds: accounts }),
      400,
      'upload_not_found',
      { includes: '/media/0' },
    );
    assertApiError(
      await post({ media: [other.video], accountIds: accounts }),
      400,
      'upload_not_found',
    );
    assertApiError(
      await post({ media: [video], accountIds: [accounts[0], 'acc_nope'] }),
      400,
      'account_not_found',
      { includes: '/accountIds/1' },
    );
    assertApiError(
      await post({ media: [video], accountIds: [other.accounts[0]] }),
      400,
      'account_not_found',
    );
    assertApiError(
      await post({ media: [video], accountIds: [accounts[0], accounts[0]] }),
      400,
      'invalid_request',
    );
    const pending = await call('POST', '/v2/uploads', {
      kind: 'video',
      filename: 'a.mp4',
      contentType: 'video/mp4',
      sizeBytes: 10,
    });
    assertApiError(
      await post({ media: [pending.body.uploadId], accountIds: accounts }),
      409,
      'upload_not_ready',
    );
  });

  test('bounds of the create body', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const ok = { media: [video], accountIds: [accounts[0]] };
    const expect400 = async (body: object, pointer: string) =>
      assertApiError(await call('POST', '/v2/posts', { ...ok, ...body }), 400, 'invalid_request', {
        startsWith: `${pointer} `,
      });
    assert.equal(
      (await call('POST', '/v2/posts', { ...ok, caption: 'c'.repeat(2200) })).status,
      201,
    );
    await expect400({ caption: 'c'.repeat(2201) }, '/caption');
    assert.equal((await call('POST', '/v2/posts', { ...ok, notes: 'n'.repeat(2000) })).status, 201);
    await expect400({ notes: 'n'.repeat(2001) }, '/notes');
    assert.equal(
      (
        await call('POST', '/v2/posts', {
          ...ok,
          hashtags: Array.from({ length: 30 }, (_, i) => `h${i}`),
        })
      ).status,
      201,
    );
    await expect400({ hashtags: Array.from({ length: 31 }, (_, i) => `h${i}`) }, '/hashtags');
    await expect400({ hashtags: ['x'.repeat(51)] }, '/hashtags/0');
    await expect400({ media: [] }, '/media');
    await expect400({ media: Array.from({ length: 11 }, () => video) }, '/media');
    await expect400({ accountIds: [] }, '/accountIds');
    await expect400(
      { accountIds: Array.from({ length: 51 }, (_, i) => `acc_${i}`) },
      '/accountIds',
    );
    await expect400({ priority: -1 }, '/priority');
    await expect400({ priority: 1.5 }, '/priority');
    await expect400({ contentGroupIds: ['bad'] }, '/contentGroupIds/0');
    await expect400(
      { contentGroupIds: Array.from({ length: 11 }, (_, i) => `tag:t${i}`) },
      '/contentGroupIds',
    );
    await expect400({ platformBPostFormat: 'story' }, '/platformBPostFormat');
    await expect400({ sound: { mode: 'loud' } }, '/sound/mode');
    await expect400({ sound: { mode: 'specific', volume: 3 } }, '/sound/volume');
    await expect400({ colour: 'red' }, '/colour');
    const img = await readyUpload(t, call, 'image.png');
    const img2 = await readyUpload(t, call, 'image.jpg');
    const slides = (s: object) => ({
      media: [img, img2],
      slides: [{ ...slide(img), ...s }, slide(img2)],
    });
    await expect400(
      slides({
        textElements: Array.from({ length: 7 }, () => ({ content: 'x', style: { positionY: 1 } })),
      }),
      '/slides/0/textElements',
    );
    await expect400(
      slides({ textElements: [{ content: '', style: { positionY: 1 } }] }),
      '/slides/0/textElements/0/content',
    );
    await expect400(
      slides({ textElements: [{ content: 'x'.repeat(501), style: { positionY: 1 } }] }),
      '/slides/0/textElements/0/content',
    );
    await expect400(
      slides({ textElements: [{ content: 'x', style: {} }] }),
      '/slides/0/textElements/0/style/positionY',
    );
    await expect400(
      slides({ textElements: [{ content: 'x', style: { positionY: 1, fontSize: 73 } }] }),
      '/slides/0/textElements/0/style/fontSize',
    );
    await expect400(
      slides({ textElements: [{ content: 'x', style: { positionY: 1, fontSize: 5 } }] }),
      '/slides/0/textElements/0/style/fontSize',
    );
    await expect400(
      slides({ textElements: [{ content: 'x', style: { positionY: 1, width: 19 } }] }),
      '/slides/0/textElements/0/style/width',
    );
    await expect400(
      slides({ textElements: [{ content: 'x', style: { positionY: 1, padding: 21 } }] }),
      '/slides/0/textElements/0/style/padding',
    );
    await expect400(
      slides({ textElements: [{ content: 'x', style: { positionY: 101 } }] }),
      '/slides/0/textElements/0/style/positionY',
    );
    await expect400(
      slides({ textElements: [{ content: 'x', style: { positionY: 1, glow: true } }] }),
      '/slides/0/textElements/0/style/glow',
    );
    await expect400(slides({ imageFit: 'stretch' }), '/slides/0/imageFit');
    await expect400(slides({ role: 'intro' }), '/slides/0/role');
    await expect400({ media: [img], slides: [slide(img)] }, '/slides');
  });

  test('content groups: tags only, live ones only', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const tag = (await call('POST', '/v2/content-tags', { name: 'Old' })).body;
    await call('PATCH', `/v2/content-tags/${tag.tagId}`, { archived: true });
    const post = (groups: string[]) =>
      call('POST', '/v2/posts', {
        media: [video],
        accountIds: [accounts[0]],
        contentGroupIds: groups,
      });
    assertApiError(await post([tag.contentGroupId]), 400, 'invalid_request', {
      includes: 'archived',
    });
    assertApiError(await post(['tag:tag_nope']), 400, 'tag_not_found');
    assertApiError(await post(['template:tpl_1']), 400, 'invalid_request', {
      includes: 'template',
    });
  });

  test('platformB feed posts need the company capability', async () => {
    const t = get();
    const { co, call, accounts, video } = await setup(t);
    const body = { media: [video], accountIds: [accounts[0]], platformBPostFormat: 'post' };
    assertApiError(await call('POST', '/v2/posts', body), 409, 'platformB_feed_posts_disabled');
    await updateCompany(t.ctx.db, t.ctx.clock, t.config.plans, co.companyId, {
      platformBFeedPosts: true,
    });
    const ok = await call('POST', '/v2/posts', body);
    assert.equal(ok.status, 201);
    assert.equal(ok.body.platformBPostFormat, 'post');
  });

  test('idempotency: replay, mismatch, per company, and concurrent repeats make one post', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const body = { media: [video], accountIds: accounts, caption: 'once' };
    const key = { 'idempotency-key': 'k-1' };
    const first = await call('POST', '/v2/posts', body, key);
    assert.equal(first.status, 201);
    const again = await call(
      'POST',
      '/v2/posts',
      { caption: 'once', accountIds: accounts, media: [video] },
      key,
    );
    assert.equal(again.status, 200);
    // The replay shows the post as it is now: its thumbnail may have appeared meanwhile.
    const stable = (b: any) => ({ ...b, media: { ...b.media, thumbnailUrl: null } });
    assert.deepEqual(stable(again.body), stable(first.body));
    assertApiError(
      await call('POST', '/v2/posts', { ...body, caption: 'twice' }, key),
      400,
      'idempotency_key_mismatch',
    );
    // A failed request does not burn its key.
    const k2 = { 'idempotency-key': 'k-2' };
    assertApiError(
      await call('POST', '/v2/posts', { ...body, accountIds: ['acc_nope'] }, k2),
      400,
      'account_not_found',
    );
    assert.equal((await call('POST', '/v2/posts', body, k2)).status, 201);
    assertApiError(
      await call('POST', '/v2/posts', body, { 'idempotency-key': 'x'.repeat(201) }),
      400,
      'invalid_request',
      { includes: 'header Idempotency-Key must be at most 200 characters' },
    );
    // Kept 24 hours.
    t.clock.advance(24 * 3600_000 + 1000);
    assert.equal((await call('POST', '/v2/posts', body, key)).status, 201);

    const k3 = { 'idempotency-key': 'concurrent' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/v2/posts', body, k3)),
    );
    const created = results.filter((r) => r.status === 201);
    assert.equal(created.length, 1, results.map((r) => r.status).join(','));
    for (const r of results) {
      assert.ok(r.status === 201 || r.status === 200 || r.status === 409, `status ${r.status}`);
      if (r.status === 200) assert.equal(r.body.postId, created[0]?.body.postId);
    }
    const rows = await t.ctx.db
      .selectFrom('idempotency_keys')
      .select('post_id')
      .where('key', '=', 'concurrent')
      .execute();
    assert.equal(rows.length, 1);
  });

  test('queue an existing post: new accounts, duplicates, and queueing again after cancel', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const [a, b, c] = accounts as [string, string, string];
    const created = (await call('POST', '/v2/posts', { media: [video], accountIds: [a] })).body;
    const queued = await call('POST', `/v2/posts/${created.postId}/queue`, {
      accountIds: [b, c],
      skipApproval: true,
      caption: 'now',
    });
    assert.equal(queued.status, 201, JSON.stringify(queued.body));
    assert.equal(queued.body.caption, 'now');
    assert.deepEqual(queued.body.accounts.map((x: { status: string }) => x.status).sort(), [
      'pending_approval',
      'queued',
      'queued',
    ]);
    assert.equal(queued.body.status, 'pending_approval');
    assertApiError(
      await call('POST', `/v2/posts/${created.postId}/queue`, { accountIds: [c] }),
      409,
      'duplicate_queue_item',
      { includes: c },
    );
    assertApiError(
      await call('POST', '/v2/posts/pst_nope/queue', { accountIds: [c] }),
      404,
      'post_not_found',
    );
    // Idempotent replay of a queue call.
    const other = await makeAccounts(call, 1);
    const k = { 'idempotency-key': 'q1' };
    const q1 = await call('POST', `/v2/posts/${created.postId}/queue`, { accountIds: other }, k);
    assert.equal(q1.status, 201);
    const q2 = await call('POST', `/v2/posts/${created.postId}/queue`, { accountIds: other }, k);
    assert.equal(q2.status, 200);
  });

  test('a carousel renders off the request path, then its items open', async () => {
    const t = get();
    const { call, accounts } = await setup(t);
    const img = await readyUpload(t, call, 'image.png');
    const img2 = await readyUpload(t, call, 'image.jpg');
    const r = await call('POST', '/v2/posts', {
      media: [img, img2],
      accountIds: accounts.slice(0, 2),
      slides: [slide(img, 'Hook ✨'), { ...slide(img2, 'Привет 世界'), imageFit: 'fit' }],
      skipApproval: true,
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.status, 'processing');
    assert.equal(r.body.media.count, 2);
    assertApiError(
      await call('POST', `/v2/posts/${r.body.postId}/queue`, { accountIds: [accounts[2]] }),
      409,
      'media_not_ready',
    );
    await t.media.idle();
    const done = await call('GET', `/v2/posts/${r.body.postId}`);
    assert.equal(done.body.status, 'queued');
    assert.ok(done.body.media.thumbnailUrl);
    const thumb = await t.app.inject({ method: 'GET', url: local(done.body.media.thumbnailUrl) });
    assert.equal(thumb.statusCode, 200);
    assert.equal(thumb.headers['content-type'], 'image/jpeg');
    assert.equal(
      (await call('POST', `/v2/posts/${r.body.postId}/queue`, { accountIds: [accounts[2]] }))
        .status,
      201,
    );
  });

  test('another company’s post is not found', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const other = client(t, (await seedCompany(t)).key);
    const p = (await call('POST', '/v2/posts', { media: [video], accountIds: [accounts[0]] })).body;
    assertApiError(await other('GET', `/v2/posts/${p.postId}`), 404, 'post_not_found');
    assertApiError(
      await other('POST', `/v2/posts/${p.postId}/queue`, { accountIds: ['acc_x'] }),
      404,
      'post_not_found',
    );
  });
});

export type { CallFn };
