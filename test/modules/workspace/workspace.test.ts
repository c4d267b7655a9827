import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../../helpers/app.ts';
import { assertApiError, assertInvalidBody } from '../../helpers/api-error.ts';
import { setAccountStatus } from '../../helpers/posts.ts';
import { updateCompany } from '../../../src/modules/companies/index.ts';
import { createPack, importImages } from '../../../src/modules/workspace/workspace.service.ts';

const START = '2026-03-02T10:00:00.000Z';
const ORIGIN = 'http://slotline.test';

interface Sample {
  path: string;
  bytes: Buffer;
  type: string;
  width: number;
  height: number;
}

let dir = '';
const samples: Record<'red' | 'green' | 'photo', Sample> = {} as never;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'slotline-ws-images-'));
  const make = async (
    name: keyof typeof samples,
    width: number,
    height: number,
    format: 'png' | 'jpeg',
    color: { r: number; g: number; b: number },
  ) => {
    const path = join(dir, `${name}.${format === 'png' ? 'png' : 'jpg'}`);
    const img = sharp({ create: { width, height, channels: 3, background: color } });
    await (format === 'png' ? img.png() : img.jpeg()).toFile(path);
    samples[name] = { path, bytes: await readFile(path), type: `image/${format}`, width, height };
  };
  await make('red', 12, 8, 'png', { r: 255, g: 0, b: 0 });
  await make('green', 5, 9, 'png', { r: 0, g: 200, b: 0 });
  await make('photo', 16, 10, 'jpeg', { r: 10, g: 20, b: 200 });
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A company with two accounts, a "Food" folder (3 images, 1 pack) and a "Travel" folder. */
async function seedWorkspace(t: TestApp) {
  const co = await seedCompany(t, { name: 'Acme Studio' });
  await updateCompany(t.ctx.db, t.ctx.clock, t.config.plans, co.companyId, {
    description: 'Short food videos',
    website: 'https://acme.example',
  });
  const call = client(t, co.key);
  const accA = await call(
    'POST',
    '/v2/accounts',
    validAccount({ username: 'acme.food', warmup: { searchTerms: ['ramen', 'sushi'] } }),
  );
  t.clock.advance(1000);
  const accB = await call(
    'POST',
    '/v2/accounts',
    validAccount({ username: 'acme.travel', platform: 'platformB' }),
  );
  t.clock.advance(1000);
  const food = await importImages(t.ctx, co.companyId, 'Food', [
    samples.red.path,
    samples.photo.path,
  ]);
  t.clock.advance(1000);
  const more = await importImages(t.ctx, co.companyId, 'Food', [samples.green.path]);
  assert.equal(more.folderId, food.folderId);
  t.clock.advance(1000);
  const travel = await importImages(t.ctx, co.companyId, 'Travel', [samples.photo.path]);
  const pack = await createPack(t.ctx.db, t.ctx.clock, co.companyId, {
    folderId: food.folderId,
    name: 'Reds and greens',
    imageIds: [food.imageIds[0]!, more.imageIds[0]!],
    imageFit: 'fill',
    useOnce: true,
    description: 'For carousels',
    color: 'amber',
  });
  return {
    co,
    call,
    accounts: [accA.body, accB.body],
    food: {
      folderId: food.folderId,
      red: food.imageIds[0]!,
      photo: food.imageIds[1]!,
      green: more.imageIds[0]!,
    },
    travel: { folderId: travel.folderId, photo: travel.imageIds[0]! },
    packId: pack.packId,
  };
}

/** Fetches a signed URL the way a caller would: no Authorization header. */
async function download(t: TestApp, url: string) {
  assert.ok(url.startsWith(`${ORIGIN}/`), url);
  return t.app.inject({ method: 'GET', url: url.slice(ORIGIN.length) });
}

function envelopeOf(res: Awaited<ReturnType<typeof download>>) {
  return { status: res.statusCode, body: res.json(), headers: res.headers, raw: res };
}

function withQuery(url: string, change: (q: URLSearchParams) => void): string {
  const u = new URL(url);
  change(u.searchParams);
  return u.toString();
}

/** Another character of the base64url alphabet at position `i`, changing its top bits. */
function flipChar(text: string, i: number): string {
  const c = text[i]!;
  const replacement = c === 'A' ? 'Q' : 'A';
  return text.slice(0, i) + replacement + text.slice(i + 1);
}

describeEachDialect('workspace', (get) => {
  beforeEach(() => get().clock.set(START));

  test('GET /v2/workspace: version 1, company, accounts, folders with images and packs', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    t.clock.set('2026-03-02T12:00:00.000Z');
    const res = await w.call('GET', '/v2/workspace');
    assert.equal(res.status, 200);
    const body = res.body;
    assert.equal(body.version, 1);
    assert.equal(body.refreshedAt, '2026-03-02T12:00:00.000Z');
    assert.deepEqual(body.company, {
      companyId: w.co.companyId,
      name: 'Acme Studio',
      description: 'Short food videos',
      website: 'https://acme.example',
    });
    assert.deepEqual(
      body.accounts.map((a: Record<string, unknown>) => [
        a.accountId,
        a.username,
        a.platform,
        a.niche,
        a.warmupSearchTerms,
      ]),
      [
        [w.accounts[0].accountId, 'acme.food', 'platformA', '', ['ramen', 'sushi']],
        [w.accounts[1].accountId, 'acme.travel', 'platformB', '', ['cooking']],
      ],
    );
    // Account fields of SPEC 2.5, computed at the time of the read, plus niche and terms.
    const first = body.accounts[0];
    assert.deepEqual(Object.keys(first).sort(), [
      'accountId',
      'dailyCap',
      'displayName',
      'followers',
      'lastPostAt',
      'nextWindow',
      'niche',
      'platform',
      'postsToday',
      'queueDepth',
      'status',
      'timezone',
      'username',
      'warmupSearchTerms',
    ]);
    // No window is promised to an account still being set up (DECISIONS 7).
    assert.equal(first.nextWindow, null);
    assert.equal(first.status, 'pending_setup');
    assert.equal(first.dailyCap, 4);
    await setAccountStatus(t, [first.accountId]);
    const active = (await w.call('GET', '/v2/workspace')).body.accounts[0];
    assert.equal(active.status, 'active');
    assert.equal(active.nextWindow, '2026-03-02T14:00:00.000Z');

    assert.deepEqual(
      body.folders.map((f: { folderId: string; name: string }) => [f.folderId, f.name]),
      [
        [w.food.folderId, 'Food'],
        [w.travel.folderId, 'Travel'],
      ],
    );
    const food = body.folders[0];
    assert.equal(food.createdAt, '2026-03-02T10:00:02.000Z');
    const image = (imageId: string, label: string, sample: Sample, createdAt: string) => ({
      imageId,
      folderId: w.food.folderId,
      label,
      description: '',
      tags: [],
      width: sample.width,
      height: sample.height,
      createdAt,
    });
    // Images imported together share createdAt and are ordered by id.
    const batch = [
      image(w.food.red, 'red', samples.red, '2026-03-02T10:00:02.000Z'),
      image(w.food.photo, 'photo', samples.photo, '2026-03-02T10:00:02.000Z'),
    ].sort((a, b) => (a.imageId < b.imageId ? -1 : 1));
    assert.deepEqual(food.images, [
      ...batch,
      image(w.food.green, 'green', samples.green, '2026-03-02T10:00:03.000Z'),
    ]);
    assert.deepEqual(food.packs, [
      {
        packId: w.packId,
        folderId: w.food.folderId,
        name: 'Reds and greens',
        description: 'For carousels',
        color: 'amber',
        imageIds: [w.food.red, w.food.green],
        imageFit: 'fill',
        useImagesOnce: true,
      },
    ]);
    const travel = body.folders[1];
    assert.deepEqual(
      travel.images.map((i: { imageId: string; width: number; height: number }) => [
        i.imageId,
        i.width,
        i.height,
      ]),
      [[w.travel.photo, 16, 10]],
    );
    assert.deepEqual(travel.packs, []);
  });

  test('no storage path appears anywhere in workspace or media-url responses', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const ws = await w.call('GET', '/v2/workspace');
    const urls = await w.call('POST', '/v2/workspace/media-urls', {
      items: [
        { folderId: w.food.folderId, imageId: w.food.red },
        { folderId: w.travel.folderId, imageId: w.travel.photo },
      ],
    });
    assert.equal(urls.status, 200);
    const blobKeys = (await t.ctx.db.selectFrom('images').select('blob_key').execute()).map(
      (r) => r.blob_key,
    );
    assert.ok(blobKeys.length > 0);
    for (const res of [ws, urls]) {
      const json = JSON.stringify(res.body);
      for (const forbidden of [
        ...blobKeys,
        `images/${w.co.companyId}`,
        'blob_key',
        'blobKey',
        'blobs',
        t.config.dataDir,
        dir,
        'slotline-test-',
        '.png',
        '.jpeg',
      ]) {
        assert.ok(!json.includes(forbidden), `${forbidden} leaked in ${json}`);
      }
      assert.ok(!/"(path|file|storage\w*|key)"/i.test(json), json);
    }
  });

  test("another company's workspace never shows this company's data", async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const other = await seedCompany(t, { name: 'Other Co' });
    const res = await client(t, other.key)('GET', '/v2/workspace');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.company, {
      companyId: other.companyId,
      name: 'Other Co',
      description: '',
      website: '',
    });
    assert.deepEqual(res.body.accounts, []);
    assert.deepEqual(res.body.folders, []);
    const json = JSON.stringify(res.body);
    for (const id of [
      w.co.companyId,
      w.food.folderId,
      w.food.red,
      w.travel.photo,
      w.packId,
      w.accounts[0].accountId,
      'Acme',
    ]) {
      assert.ok(!json.includes(id), `${id} leaked`);
    }
    // A same-named folder of the other company is a different folder.
    const theirs = await importImages(t.ctx, other.companyId, 'Food', [samples.green.path]);
    assert.notEqual(theirs.folderId, w.food.folderId);
    const mine = await w.call('GET', '/v2/workspace');
    assert.equal(mine.body.folders[0].images.length, 3);
    assert.ok(!JSON.stringify(mine.body).includes(theirs.imageIds[0]!));
  });

  test('media-urls: 1 and 100 items are accepted, 0 and 101 rejected', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const item = { folderId: w.food.folderId, imageId: w.food.red };
    const one = await w.call('POST', '/v2/workspace/media-urls', { items: [item] });
    assert.equal(one.status, 200);
    assert.deepEqual(Object.keys(one.body).sort(), ['data', 'expiresAt']);
    assert.equal(one.body.data.length, 1);
    assert.deepEqual(Object.keys(one.body.data[0]).sort(), ['folderId', 'imageId', 'url']);
    assert.equal(one.body.data[0].folderId, w.food.folderId);
    assert.equal(one.body.data[0].imageId, w.food.red);
    const mixed = [
      item,
      { folderId: w.food.folderId, imageId: w.food.green },
      { folderId: w.travel.folderId, imageId: w.travel.photo },
    ];
    const hundred = Array.from({ length: 100 }, (_, i) => mixed[i % 3]!);
    const many = await w.call('POST', '/v2/workspace/media-urls', { items: hundred });
    assert.equal(many.status, 200);
    assert.equal(many.body.data.length, 100);
    assert.deepEqual(
      many.body.data.map((d: { imageId: string }) => d.imageId),
      hundred.map((i) => i.imageId),
    );
    assertInvalidBody(await w.call('POST', '/v2/workspace/media-urls', { items: [] }), '/items');
    assertInvalidBody(
      await w.call('POST', '/v2/workspace/media-urls', { items: [...hundred, item] }),
      '/items',
    );
    const missing = await w.call('POST', '/v2/workspace/media-urls', {});
    assertInvalidBody(missing, '/items');
    assert.match(missing.body.error.message, /is required/);
  });

  test('media-urls: item and body shapes are validated naming the field', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const ok = { folderId: w.food.folderId, imageId: w.food.red };
    const cases: [unknown, string][] = [
      [{ items: [ok, { imageId: w.food.red }] }, '/items/1/folderId'],
      [{ items: [{ folderId: w.food.folderId }] }, '/items/0/imageId'],
      [{ items: [{ ...ok, imageId: '' }] }, '/items/0/imageId'],
      [{ items: [{ ...ok, folderId: 'f'.repeat(201) }] }, '/items/0/folderId'],
      [{ items: [{ ...ok, imageId: 42 }] }, '/items/0/imageId'],
      [{ items: [{ ...ok, path: 'images/x.png' }] }, '/items/0/path'],
      [{ items: [ok], blobKey: 'images/x.png' }, '/blobKey'],
      [{ items: ok }, '/items'],
      [{ items: ['img_1'] }, '/items/0'],
    ];
    for (const [body, pointer] of cases) {
      assertInvalidBody(await w.call('POST', '/v2/workspace/media-urls', body), pointer);
    }
    const longest = await w.call('POST', '/v2/workspace/media-urls', {
      items: [{ folderId: 'f'.repeat(200), imageId: 'i'.repeat(200) }],
    });
    assertApiError(longest, 404, 'image_not_found', { startsWith: '/items/0' });
  });

  test('media-urls: expiresInSeconds 60-3600, default 900, expiresAt from the clock', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    t.clock.set(START);
    const items = [{ folderId: w.food.folderId, imageId: w.food.red }];
    const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000).toISOString();
    const def = await w.call('POST', '/v2/workspace/media-urls', { items });
    assert.equal(def.body.expiresAt, at(900));
    for (const seconds of [60, 3600]) {
      const res = await w.call('POST', '/v2/workspace/media-urls', {
        items,
        expiresInSeconds: seconds,
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.expiresAt, at(seconds));
      const url = new URL(res.body.data[0].url);
      assert.equal(url.searchParams.get('expires'), String(Date.parse(at(seconds)) / 1000));
    }
    for (const expiresInSeconds of [59, 3601, 0, -60, 900.5, '900', null]) {
      assertInvalidBody(
        await w.call('POST', '/v2/workspace/media-urls', { items, expiresInSeconds }),
        '/expiresInSeconds',
      );
    }
  });

  test('media-urls: an image of another folder, another company or none is image_not_found', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const other = await seedCompany(t);
    const theirs = await importImages(t.ctx, other.companyId, 'Food', [samples.red.path]);
    const good = { folderId: w.food.folderId, imageId: w.food.red };
    const cases: [{ folderId: string; imageId: string }, string][] = [
      [{ folderId: w.travel.folderId, imageId: w.food.red }, w.food.red],
      [{ folderId: w.food.folderId, imageId: w.travel.photo }, w.travel.photo],
      [{ folderId: theirs.folderId, imageId: theirs.imageIds[0]! }, theirs.imageIds[0]!],
      [{ folderId: w.food.folderId, imageId: theirs.imageIds[0]! }, theirs.imageIds[0]!],
      [{ folderId: theirs.folderId, imageId: w.food.red }, w.food.red],
      [{ folderId: w.food.folderId, imageId: 'img_doesnotexist' }, 'img_doesnotexist'],
    ];
    for (const [bad, named] of cases) {
      const res = await w.call('POST', '/v2/workspace/media-urls', { items: [good, good, bad] });
      assertApiError(res, 404, 'image_not_found', { startsWith: '/items/2' });
      assert.ok(res.body.error.message.includes(named), res.body.error.message);
    }
    // The other company cannot sign our image either, even naming our folder.
    const theirCall = client(t, other.key);
    assertApiError(
      await theirCall('POST', '/v2/workspace/media-urls', { items: [good] }),
      404,
      'image_not_found',
      { startsWith: '/items/0' },
    );
  });

  test('a signed URL returns the exact bytes and content type, without a key', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const res = await w.call('POST', '/v2/workspace/media-urls', {
      items: [
        { folderId: w.food.folderId, imageId: w.food.red },
        { folderId: w.food.folderId, imageId: w.food.photo },
        { folderId: w.travel.folderId, imageId: w.travel.photo },
      ],
    });
    const expected = [samples.red, samples.photo, samples.photo];
    for (const [i, item] of (res.body.data as { url: string; imageId: string }[]).entries()) {
      const got = await download(t, item.url);
      assert.equal(got.statusCode, 200, got.body);
      assert.equal(got.headers['content-type'], expected[i]!.type);
      assert.equal(got.headers['content-length'], String(expected[i]!.bytes.length));
      assert.ok(got.rawPayload.equals(expected[i]!.bytes), `bytes of ${item.imageId}`);
      assert.equal(typeof got.headers['x-request-id'], 'string');
    }
  });

  test('tampered, re-targeted or expired signed URLs are invalid_signature (403)', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const res = await w.call('POST', '/v2/workspace/media-urls', {
      items: [
        { folderId: w.food.folderId, imageId: w.food.red },
        { folderId: w.food.folderId, imageId: w.food.green },
      ],
      expiresInSeconds: 60,
    });
    const url: string = res.body.data[0].url;
    const sig = new URL(url).searchParams.get('signature')!;
    const expires = Number(new URL(url).searchParams.get('expires'));
    const bad = [
      withQuery(url, (q) => q.set('signature', flipChar(sig, 0))),
      withQuery(url, (q) => q.set('signature', flipChar(sig, 20))),
      withQuery(url, (q) => q.set('signature', sig.slice(0, -1))),
      withQuery(url, (q) => q.set('signature', `${sig}A`)),
      withQuery(url, (q) => q.set('signature', 'A'.repeat(sig.length))),
      withQuery(url, (q) => q.set('signature', `${sig.slice(0, 10)}+/${sig.slice(12)}`)),
      withQuery(url, (q) => q.set('expires', String(expires + 1))),
      withQuery(url, (q) => q.set('expires', String(expires + 3600))),
      withQuery(url, (q) => q.set('expires', String(expires - 1))),
      // The signature of one image on another image's path.
      url.replace(w.food.red, w.food.green),
      url.replace(w.food.red, w.travel.photo),
      url.replace(w.food.red, 'img_doesnotexist'),
    ];
    for (const tampered of bad) {
      assert.notEqual(tampered, url);
      const got = envelopeOf(await download(t, tampered));
      assertApiError(got, 403, 'invalid_signature');
      assert.notEqual(got.headers['content-type'], samples.red.type);
    }
    // Still valid at its last second, refused after it.
    t.clock.set(expires * 1000 - 1);
    assert.equal((await download(t, url)).statusCode, 200);
    t.clock.set(expires * 1000 + 1000);
    const expired = envelopeOf(await download(t, url));
    assertApiError(expired, 403, 'invalid_signature', { includes: 'expired' });
    t.clock.advance(24 * 3600 * 1000);
    assertApiError(envelopeOf(await download(t, url)), 403, 'invalid_signature');
  });

  test('a signed URL with missing or malformed query values is invalid_request', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const res = await w.call('POST', '/v2/workspace/media-urls', {
      items: [{ folderId: w.food.folderId, imageId: w.food.red }],
    });
    const url: string = res.body.data[0].url;
    const cases: [string, string][] = [
      [withQuery(url, (q) => q.delete('signature')), 'signature'],
      [withQuery(url, (q) => q.delete('expires')), 'expires'],
      [withQuery(url, (q) => q.set('expires', 'soon')), 'expires'],
      [withQuery(url, (q) => q.set('extra', '1')), 'extra'],
    ];
    for (const [bad, field] of cases) {
      assertApiError(envelopeOf(await download(t, bad)), 400, 'invalid_request', {
        includes: field,
      });
    }
  });

  test('a signature differing only in the unused low bits of its last character is refused', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const res = await w.call('POST', '/v2/workspace/media-urls', {
      items: [{ folderId: w.food.folderId, imageId: w.food.red }],
    });
    const url: string = res.body.data[0].url;
    const sig = new URL(url).searchParams.get('signature')!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig[sig.length - 1]!);
    for (const bit of [0, 1, 2, 3, 4, 5]) {
      const twin = sig.slice(0, -1) + alphabet[last ^ (1 << bit)];
      const tampered = withQuery(url, (q) => q.set('signature', twin));
      assertApiError(envelopeOf(await download(t, tampered)), 403, 'invalid_signature');
    }
    assert.equal((await download(t, url)).statusCode, 200);
  });

  test('scopes: workspace:read reads the workspace, media:read mints URLs', async () => {
    const t = get();
    const w = await seedWorkspace(t);
    const reader = client(t, await w.co.keyWith(['workspace:read']));
    const minter = client(t, await w.co.keyWith(['media:read']));
    const body = { items: [{ folderId: w.food.folderId, imageId: w.food.red }] };
    assert.equal((await reader('GET', '/v2/workspace')).status, 200);
    assertApiError(
      await reader('POST', '/v2/workspace/media-urls', body),
      403,
      'insufficient_scope',
      { includes: 'media:read' },
    );
    assert.equal((await minter('POST', '/v2/workspace/media-urls', body)).status, 200);
    assertApiError(await minter('GET', '/v2/workspace'), 403, 'insufficient_scope', {
      includes: 'workspace:read',
    });
    assertApiError(await client(t, null)('GET', '/v2/workspace'), 401, 'unauthorized');
  });
});
