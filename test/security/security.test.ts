// The security suite: walks every operation of the served OpenAPI document and
// checks authentication, scopes and company isolation (SPEC 5, DECISIONS 1 and 7),
// and for the Worker API (DECISIONS 6) worker tokens and worker isolation.
// An operation missing from the tables below fails the suite, so new routes
// must declare their scope (or be listed as a worker operation) and a sample
// request here.
import { createECDH, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../helpers/app.ts';
import { SCOPES, type Scope } from '../../src/access.ts';
import { revokeKey, createKey } from '../../src/modules/keys/index.ts';
import { fixture, uploadFile } from '../helpers/uploads.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../helpers/dashboard.ts';
import { OPERATOR_PASSWORD, enrolledOperator, passwordStep } from '../helpers/operator.ts';
import { ADMIN_CLI, createOperator } from '../../src/modules/operators/index.ts';
import { addChatHook } from '../../src/modules/alerts/index.ts';
import { setCompanySuspended } from '../../src/modules/companies/index.ts';
import {
  assignAccounts,
  createWorker,
  revokeWorker,
  rotateWorkerToken,
} from '../../src/modules/workers/index.ts';

/** SPEC 5 and DECISIONS 7: the scope each operation needs (null: no key). */
const EXPECTED_SCOPES: Record<string, Scope[] | null> = {
  getOpenApi: null,
  downloadImage: null,
  listAccounts: ['accounts:read'],
  createAccount: ['accounts:write'],
  getAccount: ['accounts:read'],
  pauseAccount: ['accounts:write'],
  resumeAccount: ['accounts:write'],
  listAccountStatusHistory: ['accounts:read'],
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
  validatePost: ['posts:write'],
  queuePost: ['posts:write'],
  getPost: ['posts:read'],
  listPosts: ['posts:read'],
  listPostDeliveries: ['posts:read'],
  updatePost: ['posts:write'],
  cancelPost: ['posts:write'],
  downloadPostMedia: null,
  listAccountQueue: ['posts:read'],
  getPostAnalytics: ['analytics:read'],
  getAccountAnalytics: ['analytics:read'],
  listWebhooks: ['webhooks:read'],
  createWebhook: ['webhooks:write'],
  getWebhook: ['webhooks:read'],
  updateWebhook: ['webhooks:write'],
  disableWebhook: ['webhooks:write'],
  enableWebhook: ['webhooks:write'],
  deleteWebhook: ['webhooks:write'],
  rotateWebhookSecret: ['webhooks:write'],
  listWebhookAttempts: ['webhooks:read'],
  listWebhookDeliveries: ['webhooks:read'],
  replayWebhookEvents: ['webhooks:write'],
  sendWebhookTestEvent: ['webhooks:write'],
};

/** DECISIONS 6: operations that take worker tokens (security `workerToken`), never API keys. */
const WORKER_OPERATIONS = [
  'workerHeartbeat',
  'claimWorkerTasks',
  'listWorkerTasks',
  'getWorkerTask',
  'reportWorkerTask',
  'createWorkerTaskAnalytics',
  'putWorkerAccountStats',
  'putWorkerAccountStatus',
  'putWorkerTaskProof',
  'putWorkerPushSubscription',
  'deleteWorkerPushSubscription',
];

/** A device's subscription as a browser gives it, with keys of the sizes RFC 8291 takes. */
function pushSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://push.example.com/send/${randomBytes(8).toString('hex')}`,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  };
}

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
  validatePost: () => ({ media: [sample.uploadId], accountIds: [sample.accountId] }),
  queuePost: () => ({ accountIds: [sample.accountId] }),
  updatePost: () => ({ caption: 'changed', contentGroupIds: [] }),
  createWebhook: () => ({ url: 'https://hooks.example.com/in', events: ['upload.ready'] }),
  updateWebhook: () => ({ description: 'changed' }),
  replayWebhookEvents: () => ({ eventId: 'msg_doesnotexist' }),
  claimWorkerTasks: () => ({ limit: 50 }),
  putWorkerPushSubscription: () => pushSubscription(),
  deleteWorkerPushSubscription: () => ({ endpoint: pushSubscription().endpoint }),
  putWorkerAccountStatus: () => ({ status: 'active', reason: 'signed in again' }),
  reportWorkerTask: () => ({ outcome: 'failed', reason: 'app crashed' }),
  createWorkerTaskAnalytics: () => ({ views: 10, likes: 1, comments: 1, shares: 0, saves: 0 }),
  putWorkerAccountStats: () => ({
    followers: 5,
    posts: 1,
    engagement: 2.5,
    views: 10,
    likes: 1,
    comments: 0,
    scannedPosts: 1,
  }),
};

interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  path: string;
  operationId: string;
  scopes: string[] | null;
  /** A Worker API operation (worker tokens only). */
  worker: boolean;
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
  const doc = res.json<Doc>();
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const security = op.security;
      const worker = security?.length === 1 && security[0]?.workerToken !== undefined;
      out.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        operationId: op.operationId,
        scopes:
          worker || (security && security.length === 0) ? null : (security?.[0]?.bearerAuth ?? []),
        worker,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
      });
    }
  }
  return out;
}

/** The operation's sample body (if any) sent to `url` with the given headers. */
function sendSample(t: TestApp, op: Operation, url: string, headers: Record<string, string>) {
  const body = SAMPLE_BODIES[op.operationId]?.();
  return t.app.inject({
    method: op.method,
    url,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
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
    const hook = await callA('POST', '/v2/webhooks', {
      url: 'https://alpha-marker.example.com/in',
      events: ['post.created'],
    });
    assert.equal(hook.status, 201);
    idsOfA.webhookId = hook.body.webhookId;
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
    await t.media.idle();
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
    const ids = ops
      .filter((o) => !o.worker)
      .map((o) => o.operationId)
      .sort();
    assert.deepEqual(ids, Object.keys(EXPECTED_SCOPES).sort());
    for (const op of ops.filter((o) => !o.worker)) {
      assert.deepEqual(op.scopes, EXPECTED_SCOPES[op.operationId], op.operationId);
    }
    const workerIds = ops.filter((o) => o.worker).map((o) => o.operationId);
    assert.deepEqual(workerIds.sort(), [...WORKER_OPERATIONS].sort());
    for (const op of ops.filter((o) => o.worker)) {
      assert.ok(op.path.startsWith('/worker/v1/'), `${op.operationId} is outside /worker/v1`);
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
        const res = await sendSample(t, op, url, headers);
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

  test('a suspended company’s keys are 401 on every operation, saying so; resuming restores them', async () => {
    const t = get();
    const call = client(t, a.key);
    assert.equal((await call('GET', '/v2/accounts')).status, 200);
    await setCompanySuspended(t.ctx.db, t.ctx.clock, a.companyId, true);
    try {
      const before = await t.ctx.db.selectFrom('accounts').selectAll().orderBy('id').execute();
      for (const op of ops.filter((o) => o.scopes !== null)) {
        const res = await sendSample(t, op, fill(op.path, idsOfA), {
          authorization: `Bearer ${a.key}`,
        });
        assert.equal(res.statusCode, 401, op.operationId);
        const json = res.json();
        assert.equal(json.error.code, 'unauthorized', op.operationId);
        assert.match(json.error.message, /company is suspended/, op.operationId);
        assert.match(json.error.hint, /Contact the Slotline operator/, op.operationId);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
      }
      const after = await t.ctx.db.selectFrom('accounts').selectAll().orderBy('id').execute();
      assert.deepEqual(after, before);
      // Another company's keys are untouched.
      assert.equal((await client(t, b.key)('GET', '/v2/accounts')).status, 200);
    } finally {
      await setCompanySuspended(t.ctx.db, t.ctx.clock, a.companyId, false);
    }
    assert.equal((await call('GET', '/v2/accounts')).status, 200);
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
        await t.ctx.db.selectFrom('account_status_events').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute(),
      ]);
    const unknownIds: Record<string, string> = {
      accountId: 'acc_doesnotexist',
      tagId: 'tag_doesnotexist',
      imageId: 'img_doesnotexist',
      uploadId: 'upl_doesnotexist',
      postId: 'pst_doesnotexist',
      webhookId: 'wh_doesnotexist',
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

  // The Worker API (DECISIONS 6): worker A operates three accounts of company A with one
  // released task each: `posted` (t1), `claimed` (t2) and `released` (t3). Worker B operates
  // an account of company B and must never reach any of it.
  const worker = {
    tokenA: '',
    tokenB: '',
    revoked: '',
    rotatedOut: '',
    accounts: [] as string[],
    tasks: [] as string[],
  };
  /** Worker A's ids per path parameter, per operation. */
  const workerIdsOfA = (operationId: string): Record<string, string> => ({
    taskId:
      operationId === 'createWorkerTaskAnalytics'
        ? (worker.tasks[0] as string)
        : (worker.tasks[1] as string),
    accountId: worker.accounts[0] as string,
  });
  const workerOps = () => ops.filter((o) => o.worker);
  const workerSnapshot = async (t: TestApp) => {
    await t.media.idle();
    await t.media.idle();
    return JSON.stringify([
      await t.ctx.db.selectFrom('queue_items').selectAll().orderBy('id').execute(),
      await t.ctx.db.selectFrom('posts').selectAll().orderBy('id').execute(),
      await t.ctx.db.selectFrom('accounts').selectAll().orderBy('id').execute(),
      await t.ctx.db.selectFrom('post_analytics').selectAll().orderBy('id').execute(),
      await t.ctx.db.selectFrom('account_stats').selectAll().orderBy('account_id').execute(),
      await t.ctx.db.selectFrom('account_status_events').selectAll().orderBy('id').execute(),
    ]);
  };
  const sendAs = async (
    t: TestApp,
    token: string | null,
    op: Operation,
    ids: Record<string, string>,
  ) => {
    if (op.operationId !== 'putWorkerTaskProof') {
      return client(t, token)(op.method, fill(op.path, ids), SAMPLE_BODIES[op.operationId]?.());
    }
    // The proof's body is an image, not JSON.
    const res = await t.app.inject({
      method: 'PUT',
      url: fill(op.path, ids),
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'content-type': 'image/png',
      },
      payload: await fixture('image.png'),
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers, raw: res };
  };

  test('worker setup: two workers, A with a posted, a claimed and a released task', async () => {
    const t = get();
    const callA = client(t, a.key);
    const callB = client(t, b.key);
    const workerA = await createWorker(t.ctx.db, t.ctx.clock, { name: 'A', timezone: 'UTC' });
    const workerB = await createWorker(t.ctx.db, t.ctx.clock, { name: 'B', timezone: 'UTC' });
    const gone = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Gone', timezone: 'UTC' });
    await revokeWorker(t.ctx.db, t.ctx.clock, gone.workerId);
    const rotated = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Rot', timezone: 'UTC' });
    await rotateWorkerToken(t.ctx.db, t.ctx.clock, rotated.workerId);
    Object.assign(worker, {
      tokenA: workerA.token,
      tokenB: workerB.token,
      revoked: gone.token,
      rotatedOut: rotated.token,
    });
    for (let i = 0; i < 3; i++) {
      const r = await callA('POST', '/v2/accounts', validAccount());
      assert.equal(r.status, 201, JSON.stringify(r.body));
      worker.accounts.push(r.body.accountId);
    }
    const ofB = await callB('POST', '/v2/accounts', validAccount());
    assert.equal(ofB.status, 201, JSON.stringify(ofB.body));
    await assignAccounts(t.ctx.db, t.ctx.clock, workerA.workerId, worker.accounts);
    await assignAccounts(t.ctx.db, t.ctx.clock, workerB.workerId, [ofB.body.accountId]);
    // Worker A sets its accounts up: nothing is released to them before (DECISIONS 7).
    for (const accountId of worker.accounts) {
      const up = await client(t, worker.tokenA)('PUT', `/worker/v1/accounts/${accountId}/status`, {
        status: 'active',
      });
      assert.equal(up.status, 200, JSON.stringify(up.body));
    }
    t.clock.set('2026-03-02T10:30:00.000Z');
    const post = await callA('POST', '/v2/posts', {
      media: [sample.uploadId],
      accountIds: worker.accounts,
      skipApproval: true,
    });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    t.clock.set('2026-03-02T11:00:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 3, 'one task per account');
    const asA = client(t, worker.tokenA);
    for (const accountId of worker.accounts.slice(0, 2)) {
      const claimed = await asA('POST', '/worker/v1/tasks/claim', { accountId });
      assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
      assert.equal(claimed.body.data.length, 1, 'one task claimed per account');
      worker.tasks.push(claimed.body.data[0].taskId);
    }
    const open = await asA('GET', '/worker/v1/tasks?state=released');
    assert.equal(open.body.data.length, 1, 'the third task waits for a claim');
    worker.tasks.push(open.body.data[0].taskId);
    const posted = await asA('POST', `/worker/v1/tasks/${worker.tasks[0]}/result`, {
      outcome: 'posted',
      postUrl: 'https://platform-a.example/p/alpha_marker',
    });
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    // The sample requests succeed for worker A itself, so refusals below are about the caller
    // (the report is left out: t2 stays open for worker B to try).
    for (const op of workerOps().filter((o) => o.operationId !== 'reportWorkerTask')) {
      const res = await sendAs(t, worker.tokenA, op, workerIdsOfA(op.operationId));
      assert.ok(res.status < 300, `${op.operationId}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  });

  test('worker operations refuse missing, malformed, unknown, revoked tokens and API keys', async () => {
    const t = get();
    const unknown = `slw_${'a'.repeat(12)}_${'b'.repeat(32)}`;
    const wrongSecret = `${worker.tokenA.slice(0, 17)}${'c'.repeat(32)}`;
    assert.equal(wrongSecret.length, worker.tokenA.length, 'same shape as a real token');
    const variants: [string, Record<string, string>][] = [
      ['missing', {}],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['basic scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['bare token', { authorization: worker.tokenA }],
      ['garbage', { authorization: 'Bearer not-a-token' }],
      ['unknown', { authorization: `Bearer ${unknown}` }],
      ['wrong secret', { authorization: `Bearer ${wrongSecret}` }],
      ['revoked', { authorization: `Bearer ${worker.revoked}` }],
      ['rotated out', { authorization: `Bearer ${worker.rotatedOut}` }],
      ['company API key', { authorization: `Bearer ${a.key}` }],
    ];
    const before = await workerSnapshot(t);
    for (const op of workerOps()) {
      const url = fill(op.path, workerIdsOfA(op.operationId));
      const bodies: Record<string, unknown> = {};
      for (const [name, headers] of variants) {
        const res = await sendSample(t, op, url, headers);
        assert.equal(res.statusCode, 401, `${op.operationId} ${name}`);
        const json = res.json();
        assert.equal(json.error.code, 'unauthorized', `${op.operationId} ${name}`);
        assert.equal(json.error.requestId, res.headers['x-request-id']);
        assert.match(json.error.hint, /worker token/i, `${op.operationId} ${name}: worker hint`);
        assert.ok(!json.error.hint.includes('API_KEY'), `${op.operationId} ${name}: key hint`);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        bodies[name] = withoutRequestId(json);
      }
      // An API key, an unknown, a wrong-secret, a revoked and a replaced token look alike.
      for (const name of ['wrong secret', 'revoked', 'rotated out', 'company API key']) {
        assert.deepEqual(bodies[name], bodies.unknown, `${op.operationId} ${name}`);
      }
    }
    assert.equal(await workerSnapshot(t), before, 'refused worker requests changed data');
  });

  test('worker tokens are refused on every API-key operation', async () => {
    const t = get();
    for (const op of ops.filter((o) => o.scopes !== null)) {
      const res = await sendAs(t, worker.tokenA, op, idsOfA);
      assert.equal(res.status, 401, `${op.operationId}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'unauthorized', op.operationId);
      // Said as what it is, whether the token is live or not.
      assert.match(res.body.error.message, /worker tokens work only on \/worker\/v1/);
    }
    const revoked = await sendAs(
      t,
      worker.revoked,
      ops.find((o) => o.scopes !== null)!,
      idsOfA,
    );
    assert.match(revoked.body.error.message, /worker tokens work only on \/worker\/v1/);
  });

  test('worker requests count against no company’s request meter', async () => {
    const t = get();
    const access = t.ctx.access;
    const original = access.countRequest.bind(access);
    let taken = 0;
    access.countRequest = (...args) => {
      taken++;
      return original(...args);
    };
    try {
      for (const op of workerOps().filter((o) => o.method === 'GET')) {
        const res = await sendAs(t, worker.tokenA, op, workerIdsOfA(op.operationId));
        assert.equal(res.status, 200, op.operationId);
        assert.equal(res.headers['x-ratelimit-limit'], undefined, `${op.operationId} is metered`);
      }
      const heartbeat = await client(t, worker.tokenA)('POST', '/worker/v1/heartbeat');
      assert.equal(heartbeat.status, 200, JSON.stringify(heartbeat.body));
      assert.equal(taken, 0, 'the meter was called for a worker request');
      // The spy works: an API-key request is metered.
      assert.equal((await client(t, a.key)('GET', '/v2/accounts')).status, 200);
      assert.equal(taken, 1, 'an API-key request is metered once');
    } finally {
      access.countRequest = original;
    }
  });

  test('worker B cannot see, claim, report or push analytics for worker A’s tasks and accounts', async () => {
    const t = get();
    const asB = client(t, worker.tokenB);
    const unknownIds = { taskId: 'qit_doesnotexist', accountId: 'acc_doesnotexist' };
    for (const op of workerOps().filter((o) => o.pathParams.length > 0)) {
      for (const taskId of worker.tasks) {
        const ids: Record<string, string> = { ...workerIdsOfA(op.operationId), taskId };
        const before = await workerSnapshot(t);
        const foreign = await sendAs(t, worker.tokenB, op, ids);
        assert.equal(await workerSnapshot(t), before, `${op.operationId} by B changed data`);
        const unknown = await sendAs(t, worker.tokenB, op, unknownIds);
        const code = op.pathParams.includes('taskId') ? 'task_not_found' : 'account_not_found';
        for (const res of [foreign, unknown]) {
          assert.equal(res.status, 404, `${op.operationId}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.error.code, code, op.operationId);
        }
        assert.equal(foreign.body.error.hint, unknown.body.error.hint, op.operationId);
        // The caller named the id itself; nothing else of A may appear.
        const text = JSON.stringify(foreign.body);
        const named = op.pathParams.includes('taskId') ? taskId : ids.accountId;
        for (const m of [a.companyId, 'alpha_marker', ...worker.accounts, ...worker.tasks]) {
          if (m !== named) assert.ok(!text.includes(m), `${op.operationId} leaked ${m}`);
        }
      }
    }
    // Claims by B never take A's tasks, also when naming A's account.
    const before = await workerSnapshot(t);
    const named = await asB('POST', '/worker/v1/tasks/claim', { accountId: worker.accounts[2] });
    assert.equal(named.status, 400, JSON.stringify(named.body));
    assert.equal(named.body.error.code, 'account_not_found');
    const any = await asB('POST', '/worker/v1/tasks/claim', { limit: 50 });
    assert.equal(any.status, 200, JSON.stringify(any.body));
    assert.deepEqual(any.body.data, [], 'B claimed a task of A');
    assert.equal(await workerSnapshot(t), before, 'B’s claims changed data');
    // B's own reads show nothing of A.
    for (const [method, url] of [
      ['GET', '/worker/v1/tasks'],
      ['GET', '/worker/v1/tasks?state=claimed'],
      ['POST', '/worker/v1/heartbeat'],
    ] as const) {
      const res = await asB(method, url);
      assert.equal(res.status, 200, url);
      const text = JSON.stringify(res.body);
      for (const m of [...worker.accounts, ...worker.tasks, a.companyId]) {
        assert.ok(!text.includes(m), `${url} leaked ${m}`);
      }
    }
  });
});

// The operator console (README, Operators): pages, not API operations, so they are read from
// Fastify's route tree rather than the OpenAPI document, and none may appear there. Every
// console route is in the table below with the sign-in step it needs; a route missing from
// it fails the suite. Each is refused without a console session (whatever else comes: a
// company user's cookie, an API key), a session half-way through signing in opens only its
// own step, and every state-changing request without its CSRF token is refused, changing
// nothing.
// `signed`: an unsubscribe link, whose signature is its whole authority (no session, no
// form token: a mail reader's one-click POST has neither); unsigned, it changes nothing.
type Step = 'none' | 'password' | 'enrol' | 'full' | 'any' | 'asset' | 'signed';
const CONSOLE_ROUTES: Record<string, Step> = {
  'GET /operator': 'full',
  'GET /operator/': 'full',
  'GET /operator/*': 'asset',
  'GET /operator/assets/kit.css': 'asset',
  'GET /operator/assets/dashboard.js': 'asset',
  'GET /operator/assets/operator.css': 'asset',
  'GET /operator/assets/operator.js': 'asset',
  'GET /operator/sign-in': 'none',
  'POST /operator/sign-in': 'none',
  'GET /operator/sign-in/code': 'password',
  'POST /operator/sign-in/code': 'password',
  'POST /operator/sign-out': 'any',
  'GET /operator/forgot': 'none',
  'POST /operator/forgot': 'none',
  'GET /operator/unsubscribe/:kind/:ownerId': 'signed',
  'POST /operator/unsubscribe/:kind/:ownerId': 'signed',
  'GET /operator/welcome': 'none',
  'POST /operator/welcome': 'none',
  'GET /operator/welcome/authenticator': 'enrol',
  'POST /operator/welcome/authenticator': 'enrol',
  'GET /operator/companies': 'full',
  'POST /operator/companies': 'full',
  'GET /operator/companies/new': 'full',
  'GET /operator/companies/:companyId': 'full',
  'POST /operator/companies/:companyId/settings': 'full',
  'GET /operator/companies/:companyId/suspend': 'full',
  'POST /operator/companies/:companyId/suspend': 'full',
  'POST /operator/companies/:companyId/resume': 'full',
  'POST /operator/companies/:companyId/invite': 'full',
  'GET /operator/log': 'full',
  'GET /operator/outbox': 'full',
  'GET /operator/alerts': 'full',
  'POST /operator/alerts': 'full',
  'GET /operator/alerts/:hookId/edit': 'full',
  'POST /operator/alerts/:hookId/edit': 'full',
  'GET /operator/alerts/:hookId/remove': 'full',
  'POST /operator/alerts/:hookId/remove': 'full',
  'POST /operator/alerts/:hookId/test': 'full',
  'GET /operator/notifications': 'full',
  'POST /operator/notifications': 'full',
  'GET /operator/workers': 'full',
  'POST /operator/workers': 'full',
  'GET /operator/workers/:workerId': 'full',
  'POST /operator/workers/:workerId/settings': 'full',
  'POST /operator/workers/:workerId/link': 'full',
  'GET /operator/workers/:workerId/rotate': 'full',
  'POST /operator/workers/:workerId/rotate': 'full',
  'GET /operator/workers/:workerId/revoke': 'full',
  'POST /operator/workers/:workerId/revoke': 'full',
  'POST /operator/workers/:workerId/assign': 'full',
  'POST /operator/workers/:workerId/unassign': 'full',
  'GET /operator/setup': 'full',
  'POST /operator/setup/:accountId/assign': 'full',
  'GET /operator/board': 'full',
  'GET /operator/board/accounts/:accountId': 'full',
  'POST /operator/board/accounts/:accountId': 'full',
};

/** Every route of the app as `METHOD /path` (HEAD left out), read from Fastify's route tree. */
function routeList(t: TestApp): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] as string).length / 4;
    stack.length = depth;
    stack.push(m[2] as string);
    const path = stack.join('');
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim())) {
      if (method && method !== 'HEAD') out.push(`${method} ${path}`);
    }
  }
  return out;
}

describeEachDialect('operator console security', (get) => {
  let routes: [method: 'GET' | 'POST', path: string, step: Step][] = [];
  let companyId = '';
  let workerId = '';
  let accountId = '';
  let hookId = '';
  let userCookie = '';
  let apiKey = '';
  let full: Browser;
  let pending: Browser;
  let enrolling: Browser;

  const url = (path: string) =>
    path
      .replace(':companyId', companyId)
      .replace(':workerId', workerId)
      .replace(':accountId', accountId)
      .replace(':hookId', hookId)
      .replace(':kind', 'task_failed')
      .replace(':ownerId', 'opr_forged');
  const snapshot = async (t: TestApp) =>
    JSON.stringify(
      await Promise.all(
        [
          'companies',
          'users',
          'user_links',
          'activity_log',
          'operator_log',
          'operator_links',
          'operator_recovery_codes',
          'sign_in_attempts',
          'workers',
          'worker_sign_in_links',
          'worker_sessions',
          'accounts',
          'chat_hooks',
          'outbox_messages',
        ].map((table) =>
          t.ctx.db
            .selectFrom(table as 'companies')
            .selectAll()
            .execute()
            .then((rows) => rows.map((r) => JSON.stringify(r)).sort()),
        ),
      ).then(async (tables) => [
        ...tables,
        await t.ctx.db
          .selectFrom('operators')
          .select(['id', 'password_hash', 'totp_secret', 'totp_enabled_at', 'disabled_at'])
          .orderBy('id')
          .execute(),
        await t.ctx.db
          .selectFrom('operator_sessions')
          .select(['id', 'step'])
          .orderBy('id')
          .execute(),
      ]),
    );

  test('setup: every console route is in the table; none is in the API document', async () => {
    const t = get();
    const found = routeList(t).filter((r) => / \/operator(\/|$)/.test(r));
    assert.deepEqual([...found].sort(), Object.keys(CONSOLE_ROUTES).sort());
    routes = found.map((r) => {
      const [method, path] = r.split(' ') as ['GET' | 'POST', string];
      return [method, path, CONSOLE_ROUTES[r] as Step];
    });
    const doc = (await t.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json<Doc>();
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/operator')));

    const co = await seedCompany(t, { name: 'Guarded Co' });
    companyId = co.companyId;
    apiKey = co.key;
    accountId = (await client(t, co.key)('POST', '/v2/accounts', validAccount())).body.accountId;
    workerId = (await createWorker(t.ctx.db, t.ctx.clock, { name: 'Guard', timezone: 'UTC' }))
      .workerId;
    await assignAccounts(t.ctx.db, t.ctx.clock, workerId, [accountId]);
    hookId = (
      await addChatHook(
        t.ctx,
        { companyId: null, actor: ADMIN_CLI },
        { label: '#guard', url: 'https://hooks.slack.com/services/T0/B0/guard' },
      )
    ).hookId;
    const user = await userIn(t, co.companyId, 'admin');
    const ub = browser(t, '203.0.113.50');
    assert.equal((await signIn(ub, user.email, user.password)).status, 303);
    userCookie = ub.cookies.get('slotline_session') as string;
    const op = await enrolledOperator(t, 'Sam');
    full = op.browser;
    pending = browser(t, '203.0.113.51');
    t.clock.advance(30_000);
    assert.equal((await passwordStep(pending, op.email)).status, 303);
    const { link } = await createOperator(
      t.ctx.db,
      t.ctx.clock,
      { email: 'enrolling@guard.example' },
      ADMIN_CLI,
      null,
    );
    enrolling = browser(t, '203.0.113.52');
    const w = await enrolling.get(`/operator/welcome?token=${link.token}`);
    const set = await enrolling.post('/operator/welcome', {
      _csrf: hidden(w.body, '_csrf'),
      token: link.token,
      password: OPERATOR_PASSWORD,
      confirmation: OPERATOR_PASSWORD,
    });
    assert.equal(set.status, 303);
  });

  test('without a console session every route but sign-in, welcome and assets is refused', async () => {
    const t = get();
    const before = await snapshot(t);
    const outsiders: [string, Record<string, string>][] = [
      ['no cookie', {}],
      ['a company user’s cookie as the console’s', { cookie: `slotline_operator=${userCookie}` }],
      ['a company user’s own cookie', { cookie: `slotline_session=${userCookie}` }],
      ['an API key', { authorization: `Bearer ${apiKey}` }],
      ['a forged cookie', { cookie: `slotline_operator=${'a'.repeat(52)}` }],
    ];
    for (const [method, path, step] of routes) {
      if (step === 'signed') {
        // Without its signature the link opens nothing and stops nothing.
        const res = await t.app.inject({ method, url: url(path) });
        assert.equal(res.statusCode, 404, `${method} ${path} unsigned`);
        assert.match(res.body, /This link does not work/);
        continue;
      }
      if (step === 'none' || step === 'asset') continue;
      for (const [who, headers] of outsiders) {
        const res = await t.app.inject({
          method,
          url: url(path),
          headers: {
            ...headers,
            ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(method === 'POST'
            ? { payload: '_csrf=x&plan=scale&name=Evil&email=e%40vil.example&code=123456' }
            : {}),
        });
        assert.equal(res.statusCode, 303, `${method} ${path} with ${who}`);
        assert.match(
          String(res.headers.location),
          /^\/operator\/sign-in(\?|$)/,
          `${method} ${path}`,
        );
      }
    }
    assert.equal(await snapshot(t), before, 'a refused request changed data');
  });

  test('a session half-way through signing in opens only its own step', async () => {
    const t = get();
    const before = await snapshot(t);
    for (const [method, path, step] of routes) {
      if (step !== 'full') continue;
      for (const [b, home] of [
        [pending, '/operator/sign-in/code'],
        [enrolling, '/operator/welcome/authenticator'],
      ] as const) {
        const res =
          method === 'GET' ? await b.get(url(path)) : await b.post(url(path), { _csrf: 'x' });
        assert.equal(res.status, 303, `${method} ${path}`);
        assert.equal(res.location, home, `${method} ${path}`);
      }
    }
    // A fully signed-in browser has no step left to take.
    assert.equal((await full.get('/operator/sign-in/code')).location, '/operator/companies');
    assert.equal(
      (await full.get('/operator/welcome/authenticator')).location,
      '/operator/companies',
    );
    assert.equal(await snapshot(t), before);
  });

  test('every state-changing request without its CSRF token is refused and changes nothing', async () => {
    const t = get();
    const before = await snapshot(t);
    const sessionFor: Record<string, Browser> = {
      full: full,
      any: full,
      password: pending,
      enrol: enrolling,
    };
    for (const [method, path, step] of routes) {
      if (method !== 'POST' || step === 'signed') continue;
      const b = step === 'none' ? browser(t, '203.0.113.53') : (sessionFor[step] as Browser);
      if (step === 'none')
        await b.get(path === '/operator/welcome' ? '/operator/welcome?token=x' : path);
      const form = {
        plan: 'scale',
        name: 'Forged Co',
        email: 'forged@evil.example',
        code: '123456',
        password: 'p',
        token: 'x',
      };
      for (const csrf of [undefined, '', 'forged', maskedElsewhere]) {
        const res = await b.post(url(path), {
          ...form,
          ...(csrf === undefined ? {} : { _csrf: csrf }),
        });
        assert.equal(res.status, 403, `${method} ${path} with ${JSON.stringify(csrf)}`);
        assert.match(res.body, /This form has expired/);
      }
    }
    assert.equal(await snapshot(t), before, 'a refused request changed data');
    // The sessions are all still there: sign-out without a token signed nobody out.
    assert.equal((await full.get('/operator/companies')).status, 200);
    assert.equal((await pending.get('/operator/sign-in/code')).status, 200);
    assert.equal((await enrolling.get('/operator/welcome/authenticator')).status, 200);
  });

  test('with a full session every page answers (no route is left unreachable)', async () => {
    for (const [method, path, step] of routes) {
      if (method !== 'GET' || step !== 'full') continue;
      const res = await full.get(url(path));
      assert.ok([200, 303].includes(res.status), `${path}: ${res.status}`);
    }
    const css = await get().app.inject({ method: 'GET', url: '/operator/assets/operator.css' });
    assert.equal(css.statusCode, 200);
    const other = await get().app.inject({
      method: 'GET',
      url: '/operator/assets/../../package.json',
    });
    assert.notEqual(other.statusCode, 200);
  });
});

/** A CSRF token masked from another session's secret: well formed, but not this session's. */
const maskedElsewhere = Buffer.concat([Buffer.alloc(24, 7), Buffer.from('a'.repeat(24))]).toString(
  'base64url',
);

// The MCP server (POST, GET and DELETE /mcp) is outside the OpenAPI document: the same
// checks, here by hand. Its tools are the operations above, each sent as its REST call,
// so their scopes and company isolation are those checked above (and in test/mcp/).
describeEachDialect('MCP server security', (get) => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    },
  });
  const mcpCall = (
    t: TestApp,
    method: 'GET' | 'POST' | 'DELETE',
    headers: Record<string, string>,
  ) =>
    t.app.inject({
      method,
      url: '/mcp',
      headers: {
        accept: 'application/json, text/event-stream',
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(method === 'POST' ? { payload: initialize } : {}),
    });

  test('no key, a bad, revoked or worker key, and a suspended company are 401 with the envelope', async () => {
    const t = get();
    const co = await seedCompany(t);
    const revoked = await createKey(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      scopes: [...SCOPES],
    });
    await revokeKey(t.ctx.db, t.ctx.clock, revoked.keyId);
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'W', timezone: 'UTC' });
    const variants: [string, Record<string, string>][] = [
      ['missing', {}],
      ['garbage', { authorization: 'Bearer not-a-key' }],
      ['basic scheme', { authorization: 'Basic YTpi' }],
      ['unknown', { authorization: `Bearer sl_${'a'.repeat(12)}_${'b'.repeat(32)}` }],
      ['revoked', { authorization: `Bearer ${revoked.secret}` }],
      ['worker token', { authorization: `Bearer ${worker.token}` }],
    ];
    for (const method of ['POST', 'GET', 'DELETE'] as const) {
      for (const [name, headers] of variants) {
        const res = await mcpCall(t, method, headers);
        assert.equal(res.statusCode, 401, `${method} ${name}`);
        const json = res.json();
        assert.equal(json.error.code, 'unauthorized', `${method} ${name}`);
        assert.equal(json.error.requestId, res.headers['x-request-id']);
        assert.ok(json.error.hint.length > 0);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
      }
    }
    assert.equal((await mcpCall(t, 'POST', { authorization: `Bearer ${co.key}` })).statusCode, 200);
    await setCompanySuspended(t.ctx.db, t.ctx.clock, co.companyId, true);
    try {
      const res = await mcpCall(t, 'POST', { authorization: `Bearer ${co.key}` });
      assert.equal(res.statusCode, 401);
      assert.match(res.json().error.message, /company is suspended/);
    } finally {
      await setCompanySuspended(t.ctx.db, t.ctx.clock, co.companyId, false);
    }
  });

  test('a key of any single scope opens the server, and sees only its own tools', async () => {
    const t = get();
    const co = await seedCompany(t);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const seen = new Set<string>();
    for (const scope of SCOPES) {
      const key = await co.keyWith([scope]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          authorization: `Bearer ${key}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        payload: list,
      });
      assert.equal(res.statusCode, 200, scope);
      const tools = res.json().result.tools as { name: string; description: string }[];
      assert.ok(tools.length > 0, scope);
      for (const tool of tools) {
        assert.match(tool.description, new RegExp(`\`${scope}\``), `${scope}: ${tool.name}`);
        seen.add(tool.name);
      }
    }
    // Every tool is reachable by some scope: none is listed to no one.
    const all = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${co.key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      payload: list,
    });
    assert.deepEqual(
      [...seen].sort(),
      (all.json().result.tools as { name: string }[]).map((x) => x.name).sort(),
    );
  });
});
