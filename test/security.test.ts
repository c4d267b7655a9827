// The security suite: walks every operation of the served OpenAPI document and
// checks authentication, scopes and company isolation (SPEC 5, DECISIONS 1 and 7).
// An operation missing from the tables below fails the suite, so new routes
// must declare their scope and a sample request here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from './helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from './helpers/app.ts';
import { SCOPES, type Scope } from '../src/modules/keys/scopes.ts';
import { revokeKey } from '../src/modules/keys/keys.service.ts';
import { createKey } from '../src/modules/keys/keys.service.ts';
import { uploadFile } from './helpers/uploads.ts';

/** SPEC 5 and DECISIONS 7: the scope each operation needs (null: no key). */
const EXPECTED_SCOPES: Record<string, Scope[] | null> = {
  getOpenApi: null,
  downloadImage: null,
  listAccounts: ['accounts:read'],
  createAccount: ['accounts:write'],
  getAccount: ['accounts:read'],
  listContentTags: ['posts:read'],
  createContentTag: ['posts:write'],
  updateContentTag: ['posts:write'],
  deleteContentTag: ['posts:write'],
  getCompanySchedule: ['accounts:read'],
  updateCompanySchedule: ['accounts:write'],
  getAccountSchedule: ['accounts:read'],
  updateAccountSchedule: ['accounts:write'],
  getWorkspace: ['workspace:read'],
  createMediaUrls: ['media:read'],
  getUsage: ['usage:read'],
  createUpload: ['posts:write'],
  uploadBytes: null,
  completeUpload: ['posts:write'],
  getUpload: ['posts:read', 'posts:write'],
  downloadUpload: null,
  downloadUploadThumbnail: null,
  createPost: ['posts:write'],
  queuePost: ['posts:write'],
  getPost: ['posts:read'],
  listPosts: ['posts:read'],
  updatePost: ['posts:write'],
  cancelPost: ['posts:write'],
  downloadPostMedia: null,
  listAccountQueue: ['posts:read'],
  getPostAnalytics: ['analytics:read'],
  getAccountAnalytics: ['analytics:read'],
};

/** Ids of company A that sample bodies refer to (set in the setup test). */
const sample = { uploadId: '', accountId: '' };

/** A valid body per operation, so checks reach the handler rather than stop at validation. */
const SAMPLE_BODIES: Record<string, () => unknown> = {
  createAccount: () => validAccount(),
  createContentTag: () => ({ name: `tag ${Math.random()}` }),
  updateContentTag: () => ({ color: 'blue' }),
  updateCompanySchedule: () => ({ schedule: { windows: ['09:00', '13:00'] } }),
  updateAccountSchedule: () => ({ schedule: { windows: ['09:00'] } }),
  createMediaUrls: () => ({ items: [{ folderId: 'fld_x', imageId: 'img_x' }] }),
  createUpload: () => ({
    kind: 'image',
    filename: 'a.png',
    contentType: 'image/png',
    sizeBytes: 10,
  }),
  createPost: () => ({ media: [sample.uploadId], accountIds: [sample.accountId] }),
  queuePost: () => ({ accountIds: [sample.accountId] }),
  updatePost: () => ({ caption: 'changed', contentGroupIds: [] }),
};

interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  path: string;
  operationId: string;
  scopes: string[] | null;
  pathParams: string[];
}

type Doc = {
  paths: Record<
    string,
    Record<string, { operationId: string; security?: Record<string, string[]>[] }>
  >;
};

async function operations(t: TestApp): Promise<Operation[]> {
  const res = await t.app.inject({ method: 'GET', url: '/v2/openapi.json' });
  const doc = res.json() as Doc;
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const security = op.security;
      out.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        operationId: op.operationId,
        scopes: security && security.length === 0 ? null : (security?.[0]?.bearerAuth ?? []),
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
      });
    }
  }
  return out;
}

function fill(path: string, ids: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = ids[name];
    if (!id) throw new Error(`no id for path parameter ${name}`);
    return encodeURIComponent(id);
  });
}

const withoutRequestId = (body: { error: Record<string, unknown> }) => {
  const { requestId: _requestId, ...rest } = body.error;
  return rest;
};

describeEachDialect('security suite', (get) => {
  let ops: Operation[] = [];
  let a: Awaited<ReturnType<typeof seedCompany>>;
  let b: Awaited<ReturnType<typeof seedCompany>>;
  const idsOfA: Record<string, string> = {};
  const markersOfA: string[] = [];

  test('setup: two companies, A with resources', async () => {
    const t = get();
    ops = await operations(t);
    a = await seedCompany(t, { name: 'Alpha Marker Co' });
    b = await seedCompany(t, { name: 'Beta Co' });
    const callA = client(t, a.key);
    const account = await callA(
      'POST',
      '/v2/accounts',
      validAccount({ username: 'alpha_marker_acct' }),
    );
    const tag = await callA('POST', '/v2/content-tags', { name: 'AlphaMarkerTag' });
    assert.equal(account.status, 201);
    assert.equal(tag.status, 201);
    idsOfA.accountId = account.body.accountId;
    idsOfA.tagId = tag.body.tagId;
    idsOfA.imageId = 'img_unknown';
    const upload = await callA('POST', '/v2/uploads', {
      kind: 'image',
      filename: 'alpha_marker.png',
      contentType: 'image/png',
      sizeBytes: 10,
    });
    assert.equal(upload.status, 201);
    idsOfA.uploadId = upload.body.uploadId;
    const ready = await uploadFile(t, callA, 'image.png');
    // Background work must be done before the no-side-effect snapshots below.
    await t.ctx.thumbnails.idle();
    const post = await callA('POST', '/v2/posts', {
      media: [ready.uploadId],
      accountIds: [account.body.accountId],
    });
    assert.equal(post.status, 201);
    idsOfA.postId = post.body.postId;
    idsOfA.part = 'thumbnail';
    sample.uploadId = ready.uploadId;
    sample.accountId = account.body.accountId;
    markersOfA.push(
      a.companyId,
      account.body.accountId,
      tag.body.tagId,
      'alpha_marker',
      'AlphaMarker',
    );
  });

  test('every operation is in the scope table and declares exactly the expected scopes', () => {
    const ids = ops.map((o) => o.operationId).sort();
    assert.deepEqual(ids, Object.keys(EXPECTED_SCOPES).sort());
    for (const op of ops) {
      assert.deepEqual(op.scopes, EXPECTED_SCOPES[op.operationId], op.operationId);
    }
  });

  test('no key, malformed key, unknown key and revoked key are 401 unauthorized', async () => {
    const t = get();
    const revoked = await createKey(t.ctx.db, t.ctx.clock, {
      companyId: a.companyId,
      scopes: [...SCOPES],
    });
    await revokeKey(t.ctx.db, t.ctx.clock, revoked.keyId);
    const unknown = `sl_${'a'.repeat(12)}_${'b'.repeat(32)}`;
    // A real key's prefix with a wrong secret must look exactly like an unknown key.
    const wrongSecret = `${a.key.slice(0, 16)}${'c'.repeat(32)}`;
    const variants: [string, Record<string, string>][] = [
      ['missing', {}],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['basic scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['bare key', { authorization: a.key }],
      ['garbage', { authorization: 'Bearer not-a-key' }],
      ['unknown', { authorization: `Bearer ${unknown}` }],
      ['wrong secret', { authorization: `Bearer ${wrongSecret}` }],
      ['revoked', { authorization: `Bearer ${revoked.secret}` }],
    ];
    for (const op of ops.filter((o) => o.scopes !== null)) {
      const url = fill(op.path, idsOfA);
      const bodies: Record<string, unknown> = {};
      for (const [name, headers] of variants) {
        const body = SAMPLE_BODIES[op.operationId]?.();
        const res = await t.app.inject({
          method: op.method,
          url,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { payload: JSON.stringify(body) } : {}),
        });
        assert.equal(res.statusCode, 401, `${op.operationId} ${name}`);
        const json = res.json();
        assert.equal(json.error.code, 'unauthorized');
        assert.equal(json.error.requestId, res.headers['x-request-id']);
        assert.ok(json.error.hint.length > 0);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        bodies[name] = withoutRequestId(json);
      }
      // Unknown, wrong-secret and revoked keys are indistinguishable.
      assert.deepEqual(bodies.unknown, bodies.revoked);
      assert.deepEqual(bodies.unknown, bodies['wrong secret']);
    }
  });

  test('a key lacking the scope gets 403 insufficient_scope naming it, with no side effect', async () => {
    const t = get();
    for (const op of ops.filter((o) => o.scopes !== null)) {
      const needed = op.scopes as string[];
      const others = SCOPES.filter((s) => !needed.includes(s));
      const key = await a.keyWith(others);
      const call = client(t, key);
      const before = await t.ctx.db.selectFrom('accounts').select('id').execute();
      const res = await call(op.method, fill(op.path, idsOfA), SAMPLE_BODIES[op.operationId]?.());
      assert.equal(res.status, 403, op.operationId);
      assert.equal(res.body.error.code, 'insufficient_scope');
      for (const s of needed) assert.ok(res.body.error.message.includes(s), res.body.error.message);
      const after = await t.ctx.db.selectFrom('accounts').select('id').execute();
      assert.equal(after.length, before.length);
      // Each single scope alone opens only its own operations.
      for (const s of others) {
        const single = await a.keyWith([s]);
        const r = await client(t, single)(
          op.method,
          fill(op.path, idsOfA),
          SAMPLE_BODIES[op.operationId]?.(),
        );
        assert.equal(r.status, 403, `${op.operationId} with ${s}`);
      }
    }
  });

  test('another company’s ids are not found, exactly like unknown ids, and change nothing', async () => {
    const t = get();
    const callB = client(t, b.key);
    const snapshot = async () =>
      JSON.stringify([
        await t.ctx.db.selectFrom('accounts').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('content_tags').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('companies').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('uploads').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('posts').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('queue_items').selectAll().orderBy('id').execute(),
      ]);
    const unknownIds: Record<string, string> = {
      accountId: 'acc_doesnotexist',
      tagId: 'tag_doesnotexist',
      imageId: 'img_doesnotexist',
      uploadId: 'upl_doesnotexist',
      postId: 'pst_doesnotexist',
      part: 'thumbnail',
    };
    for (const op of ops.filter((o) => o.scopes !== null && o.pathParams.length > 0)) {
      const before = await snapshot();
      const foreign = await callB(
        op.method,
        fill(op.path, idsOfA),
        SAMPLE_BODIES[op.operationId]?.(),
      );
      const after = await snapshot();
      assert.equal(after, before, `${op.operationId} changed data`);
      const unknown = await callB(
        op.method,
        fill(op.path, unknownIds),
        SAMPLE_BODIES[op.operationId]?.(),
      );
      assert.equal(foreign.status, 404, `${op.operationId}: ${JSON.stringify(foreign.body)}`);
      assert.equal(unknown.status, 404, `${op.operationId}: ${JSON.stringify(unknown.body)}`);
      const strip = (body: { error: Record<string, unknown> }) => {
        const rest = withoutRequestId(body);
        return { code: rest.code, hint: rest.hint };
      };
      assert.deepEqual(strip(foreign.body), strip(unknown.body), op.operationId);
      // The caller named the id itself; nothing else of A may appear.
      const text = JSON.stringify(foreign.body);
      for (const m of [a.companyId, 'alpha_marker', 'AlphaMarker']) assert.ok(!text.includes(m));
    }
  });

  test('reads by company B never show company A’s data', async () => {
    const t = get();
    const callB = client(t, b.key);
    for (const op of ops.filter(
      (o) => o.scopes !== null && o.method === 'GET' && o.pathParams.length === 0,
    )) {
      const res = await callB('GET', op.path);
      assert.equal(res.status, 200, op.operationId);
      const text = JSON.stringify(res.body);
      for (const m of markersOfA) assert.ok(!text.includes(m), `${op.operationId} leaked ${m}`);
    }
  });
});
