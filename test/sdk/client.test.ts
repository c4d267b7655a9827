// The SDK against the running service: typed calls, the error envelope as SlotlineError,
// pagination across pages, and an Idempotency-Key that makes a retried create a replay.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SlotlineError, createClient, type SlotlineClient } from '../../sdk/src/index.ts';
import { listeningApp } from '../helpers/browser.ts';
import { client, seedCompany, validAccount, type TestApp } from '../helpers/app.ts';
import { readyUpload } from '../helpers/posts.ts';

describe('the SDK against the service', { timeout: 120_000 }, () => {
  let t: TestApp;
  let url: string;
  let key: string;
  let api: SlotlineClient;

  before(async () => {
    ({ t, url } = await listeningApp());
    key = (await seedCompany(t)).key;
    api = createClient({ baseUrl: url, apiKey: key });
  });
  after(async () => {
    await t?.close();
  });

  test('typed calls create and read an account', async () => {
    const { data: created, response } = await api.POST('/v2/accounts', {
      body: validAccount() as never,
    });
    assert.equal(response.status, 201);
    assert.ok(created);
    const { data: read } = await api.GET('/v2/accounts/{accountId}', {
      params: { path: { accountId: created.accountId } },
    });
    assert.equal(read?.accountId, created.accountId);
    assert.equal(read?.platform, 'platformA');
  });

  test('an error envelope becomes a SlotlineError', async () => {
    await assert.rejects(
      api.GET('/v2/posts/{postId}', { params: { path: { postId: 'pst_missing' } } }),
      (err: unknown) => {
        assert.ok(err instanceof SlotlineError);
        assert.equal(err.status, 404);
        assert.equal(err.code, 'post_not_found');
        assert.ok(err.hint.length > 0);
        assert.ok(err.requestId.length > 0);
        return true;
      },
    );
    const stranger = createClient({ baseUrl: url, apiKey: 'sk_wrong' });
    await assert.rejects(stranger.GET('/v2/content-tags'), { name: 'SlotlineError', status: 401 });
  });

  test('paginate walks every page of a list', async () => {
    const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    for (const name of names) await api.POST('/v2/content-tags', { body: { name } });
    const pages: string[] = [];
    const counting = createClient({
      baseUrl: url,
      apiKey: key,
      fetch: (request) => {
        pages.push(new URL(request.url).search);
        return fetch(request);
      },
    });
    const seen: string[] = [];
    for await (const tag of counting.paginate('/v2/content-tags', {
      params: { query: { limit: 2 } },
    })) {
      seen.push(tag.name);
    }
    assert.deepEqual(seen.sort(), names);
    assert.equal(pages.length, 3);
    assert.ok(pages.slice(1).every((q) => q.includes('cursor=')));
  });

  test('a create lost on the way back is retried with its key and replays', async () => {
    const call = client(t, key);
    const account = await api.POST('/v2/accounts', { body: validAccount() as never });
    const accountId = account.data!.accountId;
    const uploadId = await readyUpload(t, call, 'h264-aac-faststart.mp4');
    const keys: (string | null)[] = [];
    const statuses: number[] = [];
    // The first create reaches the service, then the connection "drops" before the answer.
    const flaky = createClient({
      baseUrl: url,
      apiKey: key,
      retry: { baseDelayMs: 1 },
      fetch: async (request) => {
        keys.push(request.headers.get('Idempotency-Key'));
        const response = await fetch(request);
        statuses.push(response.status);
        if (statuses.length === 1) throw new TypeError('fetch failed');
        return response;
      },
    });
    const { data: post, response } = await flaky.POST('/v2/posts', {
      body: { media: [uploadId], accountIds: [accountId] },
    });
    assert.deepEqual(statuses, [201, 200]);
    assert.equal(response.status, 200);
    assert.ok(keys[0]);
    assert.equal(keys[1], keys[0]);
    const listed = [];
    for await (const p of api.paginate('/v2/posts', { params: { query: { accountId } } })) {
      listed.push(p.postId);
    }
    assert.deepEqual(listed, [post!.postId]);
  });

  test('a caller-given Idempotency-Key is kept', async () => {
    const sent: (string | null)[] = [];
    const recording = createClient({
      baseUrl: url,
      apiKey: key,
      fetch: (request) => {
        sent.push(request.headers.get('Idempotency-Key'));
        return fetch(request);
      },
    });
    await assert.rejects(
      recording.POST('/v2/posts', {
        params: { header: { 'Idempotency-Key': 'order-7' } },
        body: { media: ['upl_missing'], accountIds: ['acc_missing'] },
      }),
      SlotlineError,
    );
    assert.deepEqual(sent, ['order-7']);
  });
});
