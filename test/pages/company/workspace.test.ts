// The dashboard's workspace page through HTTP, on both databases: folders and images for
// every role, changes for editors only, uploads checked like image uploads and seen through
// the API, other companies' folders answering like unknown ones, and CSRF.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import {
  browser,
  hidden,
  signIn,
  userIn,
  type Browser,
  pageShape,
} from '../../helpers/dashboard.ts';
import type { UserRole } from '../../../src/db/types.ts';

const FIXTURES = new URL('../../fixtures/media/', import.meta.url);
let ips = 0;

async function signedIn(t: TestApp, companyId: string, role: UserRole) {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const csrf = hidden((await b.get('/dashboard/workspace')).body, '_csrf');
  return { b, csrf };
}

/** The browser script's upload: the file's raw bytes in a PUT with the CSRF header. */
async function upload(
  t: TestApp,
  b: Browser,
  folderId: string,
  file: { bytes: Buffer; type: string; name: string },
  csrf: string | null,
) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/dashboard/workspace/folders/${encodeURIComponent(folderId)}/images`,
    remoteAddress: '198.51.100.9',
    headers: {
      cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': file.type,
      'x-file-name': encodeURIComponent(file.name),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    payload: file.bytes,
  });
  return { status: res.statusCode, body: res.body, location: res.headers.location };
}

async function apiFolders(t: TestApp, key: string) {
  const res = await client(t, key)('GET', '/v2/workspace');
  assert.equal(res.status, 200);
  return res.body.folders as {
    folderId: string;
    name: string;
    images: { imageId: string; label: string; width: number; height: number }[];
    packs: { name: string; imageIds: string[]; imageFit: string; useImagesOnce: boolean }[];
  }[];
}

async function newFolder(t: TestApp, b: Browser, csrf: string, key: string, name: string) {
  const res = await b.post('/dashboard/workspace/folders', { _csrf: csrf, name });
  assert.equal(res.status, 303, res.body);
  const folder = (await apiFolders(t, key)).find((f) => f.name === name);
  assert.ok(folder);
  return folder.folderId;
}

const png = async () => ({
  bytes: await readFile(new URL('image.png', FIXTURES)),
  type: 'image/png',
  name: 'red dot.png',
});

describeEachDialect('dashboard workspace', (get) => {
  test('an editor creates a folder, uploads images and makes a pack; a viewer sees them', async () => {
    const t = get();
    const co = await seedCompany(t);
    const editor = await signedIn(t, co.companyId, 'editor');
    const viewer = await signedIn(t, co.companyId, 'viewer');
    const folderId = await newFolder(t, editor.b, editor.csrf, co.key, 'Food');

    const first = await upload(t, editor.b, folderId, await png(), editor.csrf);
    assert.equal(first.status, 201, first.body);
    assert.equal(first.location, '/dashboard/workspace');
    const jpeg = {
      bytes: await readFile(new URL('image.jpg', FIXTURES)),
      type: 'image/jpeg',
      name: 'C:\\photos\\beach.jpg',
    };
    assert.equal((await upload(t, editor.b, folderId, jpeg, editor.csrf)).status, 201);

    const [folder] = await apiFolders(t, co.key);
    assert.equal(folder?.folderId, folderId);
    assert.deepEqual(
      folder?.images.map((i) => i.label),
      ['red dot', 'beach'],
    );
    assert.ok(folder?.images.every((i) => i.width > 0 && i.height > 0));

    const page = await viewer.b.get('/dashboard/workspace');
    assert.equal(page.status, 200);
    assert.match(page.body, /<h1>Workspace<\/h1>/);
    assert.match(page.body, /Food/);
    assert.doesNotMatch(page.body, /Create folder|Add images to/);
    const srcs = [...page.body.matchAll(/<img src="([^"]+)"/g)].map((m) =>
      (m[1] as string).replaceAll('&amp;', '&'),
    );
    assert.equal(srcs.length, 2);
    const url = new URL(srcs[0] as string);
    const bytes = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    assert.equal(bytes.statusCode, 200);
    assert.equal(bytes.headers['content-type'], 'image/png');
    assert.deepEqual(bytes.rawPayload, (await png()).bytes);
    assert.ok(!page.body.includes(`images/${co.companyId}`), 'a storage path leaked');

    const ids = folder?.images.map((i) => i.imageId) ?? [];
    const pack = await editor.b.post(`/dashboard/workspace/folders/${folderId}/packs`, {
      _csrf: editor.csrf,
      name: 'Lunch',
      color: 'blue',
      imageFit: 'fit',
      useImagesOnce: 'true',
      imageId: ids,
    });
    assert.equal(pack.status, 303, pack.body);
    const [after] = await apiFolders(t, co.key);
    assert.deepEqual(after?.packs, [
      {
        packId: (after?.packs[0] as unknown as { packId: string }).packId,
        folderId,
        name: 'Lunch',
        description: '',
        color: 'blue',
        imageIds: ids,
        imageFit: 'fit',
        useImagesOnce: true,
      },
    ]);
    assert.match((await viewer.b.get('/dashboard/workspace')).body, /Lunch/);

    const log = await editor.b.get('/dashboard/activity');
    assert.match(log.body, /workspace\.image_added/);
  });

  test('a viewer may not create folders, packs or upload', async () => {
    const t = get();
    const co = await seedCompany(t);
    const editor = await signedIn(t, co.companyId, 'editor');
    const viewer = await signedIn(t, co.companyId, 'viewer');
    const folderId = await newFolder(t, editor.b, editor.csrf, co.key, 'Mine');
    const create = await viewer.b.post('/dashboard/workspace/folders', {
      _csrf: viewer.csrf,
      name: 'Nope',
    });
    assert.equal(create.status, 403);
    assert.equal((await upload(t, viewer.b, folderId, await png(), viewer.csrf)).status, 403);
    const pack = await viewer.b.post(`/dashboard/workspace/folders/${folderId}/packs`, {
      _csrf: viewer.csrf,
      name: 'P',
      imageId: 'img_x',
    });
    assert.equal(pack.status, 403);
    const folders = await apiFolders(t, co.key);
    assert.deepEqual(
      folders.map((f) => [f.name, f.images.length]),
      [['Mine', 0]],
    );
  });

  test('what is not an image, or too large, is refused with the page and nothing stored', async () => {
    const t = get();
    const co = await seedCompany(t);
    const editor = await signedIn(t, co.companyId, 'editor');
    const folderId = await newFolder(t, editor.b, editor.csrf, co.key, 'Checks');
    const text = await readFile(new URL('text.png', FIXTURES));
    const fake = await upload(
      t,
      editor.b,
      folderId,
      { bytes: text, type: 'image/png', name: 'text.png' },
      editor.csrf,
    );
    assert.equal(fake.status, 415);
    assert.match(fake.body, /<p role="alert">[^<]*PNG, JPEG, WebP or HEIC/);
    const plain = await upload(
      t,
      editor.b,
      folderId,
      { bytes: Buffer.from('hello'), type: 'text/plain', name: 'a.txt' },
      editor.csrf,
    );
    assert.equal(plain.status, 415);
    assert.match(plain.body, /role="alert"/);
    const mislabeled = await upload(
      t,
      editor.b,
      folderId,
      { bytes: (await png()).bytes, type: 'image/jpeg', name: 'x.jpg' },
      editor.csrf,
    );
    assert.equal(mislabeled.status, 415);
    const big = await upload(
      t,
      editor.b,
      folderId,
      { bytes: Buffer.alloc(52_428_801), type: 'image/png', name: 'big.png' },
      editor.csrf,
    );
    assert.equal(big.status, 413);
    assert.match(big.body, /at most 50 MiB/);
    const [folder] = await apiFolders(t, co.key);
    assert.equal(folder?.images.length, 0);
    const bad = await editor.b.post('/dashboard/workspace/folders', {
      _csrf: editor.csrf,
      name: ' ',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /aria-invalid="true"/);
  });

  test("another company's folder answers like an unknown one", async () => {
    const t = get();
    const co = await seedCompany(t);
    const other = await seedCompany(t, { name: 'Other Co' });
    const theirs = await signedIn(t, other.companyId, 'editor');
    const theirFolder = await newFolder(t, theirs.b, theirs.csrf, other.key, 'Theirs');
    const editor = await signedIn(t, co.companyId, 'editor');
    const foreign = await upload(t, editor.b, theirFolder, await png(), editor.csrf);
    const unknown = await upload(t, editor.b, 'fld_unknown', await png(), editor.csrf);
    assert.equal(foreign.status, 404);
    assert.equal(unknown.status, 404);
    const strip = pageShape;
    assert.equal(strip(foreign.body), strip(unknown.body));
    const packs = await Promise.all(
      [theirFolder, 'fld_unknown'].map((id) =>
        editor.b.post(`/dashboard/workspace/folders/${id}/packs`, {
          _csrf: editor.csrf,
          name: 'P',
          imageId: 'img_x',
        }),
      ),
    );
    assert.deepEqual(
      packs.map((p) => p.status),
      [404, 404],
    );
    assert.equal(strip(packs[0]?.body ?? ''), strip(packs[1]?.body ?? ''));
    assert.equal((await apiFolders(t, other.key))[0]?.images.length, 0);
    assert.doesNotMatch((await editor.b.get('/dashboard/workspace')).body, /Theirs/);
  });

  test('changes without the CSRF token are refused', async () => {
    const t = get();
    const co = await seedCompany(t);
    const editor = await signedIn(t, co.companyId, 'editor');
    const folderId = await newFolder(t, editor.b, editor.csrf, co.key, 'Guarded');
    assert.equal((await upload(t, editor.b, folderId, await png(), null)).status, 403);
    assert.equal((await upload(t, editor.b, folderId, await png(), 'wrong')).status, 403);
    const create = await editor.b.post('/dashboard/workspace/folders', { name: 'No token' });
    assert.equal(create.status, 403);
    const folders = await apiFolders(t, co.key);
    assert.deepEqual(
      folders.map((f) => [f.name, f.images.length]),
      [['Guarded', 0]],
    );
  });
});
