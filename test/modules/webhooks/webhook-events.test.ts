// Webhook events recorded with the changes they announce, on both databases: posts created,
// items approved, rejected, cancelled and queued again, uploads settled and accounts moved.
// A change refused or rolled back records nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { planWith, writePlansFile } from '../../helpers/api-error.ts';
import { makeAccounts, readyUpload } from '../../helpers/posts.ts';
import { fixture, uploadFile } from '../../helpers/uploads.ts';
import {
  eventsSince,
  item,
  itemIdsByAccount,
  seedListeningCompany,
} from '../../helpers/webhook-events.ts';
import { ActionRefused } from '../../../src/lib/action-refused.ts';
import { approve, reject } from '../../../src/modules/items/index.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

let server: Server;
let base = '';

before(async () => {
  const png = await fixture('image.png');
  server = createServer((req, res) => {
    if (req.url === '/picture') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(png);
    }
    res.writeHead(404);
    return res.end('missing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const PLANS = writePlansFile({ four_per_day: planWith({ postsPerDay: 4 }) });

async function company(t: TestApp, accounts: number, plan?: string) {
  const co = await seedListeningCompany(t, plan ? { plan } : {});
  const call = client(t, co.key);
  const ids = await makeAccounts(call, accounts);
  const upload = await readyUpload(t, call, 'image.png');
  const next = eventsSince(t, co.companyId);
  await next();
  return { ...co, call, accounts: ids, upload, next };
}

describeEachDialect(
  'webhook events',
  (get) => {
    test('a created post records post.created and its opening items, once', async () => {
      const t = get();
      const s = await company(t, 2, 'four_per_day');
      const [a, b] = s.accounts as [string, string];

      t.clock.advance(1000);
      const body = { media: [s.upload], accountIds: [a, b] };
      const key = { 'idempotency-key': 'create-once' };
      const pending = await s.call('POST', '/v2/posts', body, key);
      assert.equal(pending.status, 201, JSON.stringify(pending.body));
      const p = pending.body.postId;
      const ids = await itemIdsByAccount(t, p);
      const [ia, ib] = [ids.get(a) as string, ids.get(b) as string];
      assert.deepEqual(await s.next(), [
        {
          type: 'post.created',
          data: {
            postId: p,
            status: 'pending_approval',
            items: [
              { queueItemId: ia, accountId: a, status: 'pending_approval' },
              { queueItemId: ib, accountId: b, status: 'pending_approval' },
            ],
          },
        },
        { type: 'post.item.pending_approval', data: item(p, a, ia, 'pending_approval') },
        { type: 'post.item.pending_approval', data: item(p, b, ib, 'pending_approval') },
      ]);

      // A replayed create, and creates refused by validation, record nothing.
      t.clock.advance(1000);
      assert.equal((await s.call('POST', '/v2/posts', body, key)).status, 200);
      const [stranger] = (await makeAccounts(client(t, (await seedCompany(t)).key), 1)) as [string];
      const unknown = { media: [s.upload], accountIds: [stranger] };
      const refused = await s.call('POST', '/v2/posts', unknown);
      assert.equal(refused.body.error.code, 'account_not_found');
      const twice = { media: [s.upload], accountIds: [a, a] };
      assert.equal((await s.call('POST', '/v2/posts', twice)).status, 400);
      assert.deepEqual(await s.next(), []);

      t.clock.advance(1000);
      const skip = await s.call('POST', '/v2/posts', { ...body, skipApproval: true });
      const q = skip.body.postId;
      const qIds = await itemIdsByAccount(t, q);
      const [qa, qb] = [qIds.get(a) as string, qIds.get(b) as string];
      assert.deepEqual(await s.next(), [
        {
          type: 'post.created',
          data: {
            postId: q,
            status: 'queued',
            items: [
              { queueItemId: qa, accountId: a, status: 'queued' },
              { queueItemId: qb, accountId: b, status: 'queued' },
            ],
          },
        },
        { type: 'post.item.approved', data: item(q, a, qa, 'queued') },
        { type: 'post.item.approved', data: item(q, b, qb, 'queued') },
      ]);
      // Past the daily cap the create is rolled back after its rows were written: no event.
      t.clock.advance(1000);
      assert.equal((await s.call('POST', '/v2/posts', body)).status, 429);
      assert.deepEqual(await s.next(), []);
    });

    test('approving and rejecting record the items that moved and the post status', async () => {
      const t = get();
      const s = await company(t, 3);
      const [a, b, c] = s.accounts as [string, string, string];
      const p = (await s.call('POST', '/v2/posts', { media: [s.upload], accountIds: [a, b, c] }))
        .body.postId;
      const ids = await itemIdsByAccount(t, p);
      await s.next();

      t.clock.advance(1000);
      await approve(t.ctx, { postId: p, accountId: a });
      assert.deepEqual(await s.next(), [
        { type: 'post.item.approved', data: item(p, a, ids.get(a) as string, 'queued') },
      ]);
      t.clock.advance(1000);
      await reject(t.ctx, { postId: p, accountId: c });
      // From the admin CLI: rejected by the operator, without a reason.
      const rejected = {
        reason: 'rejected in review',
        rejection: {
          reason: null,
          rejectedBy: { userId: null, email: null },
          rejectedAt: t.clock.now().toISOString(),
        },
      };
      assert.deepEqual(await s.next(), [
        {
          type: 'post.item.rejected',
          data: item(p, c, ids.get(c) as string, 'cancelled', rejected),
        },
      ]);
      t.clock.advance(1000);
      await approve(t.ctx, { postId: p });
      assert.deepEqual(await s.next(), [
        { type: 'post.item.approved', data: item(p, b, ids.get(b) as string, 'queued') },
        {
          type: 'post.status_changed',
          data: { postId: p, status: 'queued', previousStatus: 'pending_approval' },
        },
      ]);
      t.clock.advance(1000);
      await assert.rejects(approve(t.ctx, { postId: p }), ActionRefused);
      assert.deepEqual(await s.next(), []);
    });

    test('cancelling records the items cancelled; queueing again revives them', async () => {
      const t = get();
      const s = await company(t, 3);
      const [a, b, c] = s.accounts as [string, string, string];
      const created = await s.call('POST', '/v2/posts', {
        media: [s.upload],
        accountIds: [a, b],
        skipApproval: true,
      });
      const p = created.body.postId;
      const ids = await itemIdsByAccount(t, p);
      const [ia, ib] = [ids.get(a) as string, ids.get(b) as string];
      await s.next();

      t.clock.advance(1000);
      assert.equal((await s.call('DELETE', `/v2/posts/${p}?accountId=${a}`)).status, 200);
      assert.deepEqual(await s.next(), [
        { type: 'post.item.cancelled', data: item(p, a, ia, 'cancelled') },
      ]);
      t.clock.advance(1000);
      assert.equal((await s.call('DELETE', `/v2/posts/${p}`)).status, 200);
      assert.deepEqual(await s.next(), [
        { type: 'post.item.cancelled', data: item(p, b, ib, 'cancelled') },
        {
          type: 'post.status_changed',
          data: { postId: p, status: 'cancelled', previousStatus: 'queued' },
        },
      ]);
      // Nothing left to cancel: refused, and nothing recorded.
      t.clock.advance(1000);
      assert.equal((await s.call('DELETE', `/v2/posts/${p}`)).status, 409);
      assert.deepEqual(await s.next(), []);

      t.clock.advance(1000);
      // One new item, one revived under its old id.
      const queued = await s.call('POST', `/v2/posts/${p}/queue`, { accountIds: [c, a] });
      assert.equal(queued.status, 201, JSON.stringify(queued.body));
      const ic = (await itemIdsByAccount(t, p)).get(c) as string;
      assert.deepEqual(await s.next(), [
        { type: 'post.item.pending_approval', data: item(p, c, ic, 'pending_approval') },
        { type: 'post.item.pending_approval', data: item(p, a, ia, 'pending_approval') },
        {
          type: 'post.status_changed',
          data: { postId: p, status: 'pending_approval', previousStatus: 'cancelled' },
        },
      ]);
    });

    test('uploads record upload.ready and upload.failed when they settle', async () => {
      const t = get();
      const co = await seedListeningCompany(t);
      const call = client(t, co.key);
      const next = eventsSince(t, co.companyId);

      const ok = await uploadFile(t, call, 'image.png');
      assert.equal(ok.complete.status, 200);
      assert.deepEqual(await next(), [
        {
          type: 'upload.ready',
          data: { uploadId: ok.uploadId, kind: 'image', status: 'ready', error: null },
        },
      ]);
      t.clock.advance(1000);
      const bad = await uploadFile(t, call, 'text.mp4');
      assert.equal(bad.complete.status, 415, JSON.stringify(bad.complete.body));
      const error = bad.complete.body.error.message;
      assert.deepEqual(await next(), [
        {
          type: 'upload.failed',
          data: { uploadId: bad.uploadId, kind: 'video', status: 'failed', error },
        },
      ]);
      // Completing again is refused and records nothing.
      t.clock.advance(1000);
      assert.equal((await call('POST', `/v2/uploads/${ok.uploadId}/complete`)).status, 409);
      assert.equal((await call('POST', `/v2/uploads/${bad.uploadId}/complete`)).status, 409);
      assert.deepEqual(await next(), []);
    });

    test('remote uploads record upload.ready and upload.failed', async () => {
      const t = get();
      const co = await seedListeningCompany(t);
      const call = client(t, co.key);
      const next = eventsSince(t, co.companyId);
      const ok = await call('POST', '/v2/uploads', { kind: 'image', sourceUrl: `${base}/picture` });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      assert.deepEqual(await next(), [
        {
          type: 'upload.ready',
          data: { uploadId: ok.body.uploadId, kind: 'image', status: 'ready', error: null },
        },
      ]);
      t.clock.advance(1000);
      const gone = await call('POST', '/v2/uploads', { kind: 'video', sourceUrl: `${base}/gone` });
      assert.notEqual(gone.status, 201);
      const [failed] = await t.ctx.db
        .selectFrom('uploads')
        .select(['id', 'error'])
        .where('company_id', '=', co.companyId)
        .where('status', '=', 'failed')
        .execute();
      assert.ok(failed, 'the failed fetch is kept as a failed upload');
      const data = { uploadId: failed.id, kind: 'video', status: 'failed', error: failed.error };
      assert.deepEqual(await next(), [{ type: 'upload.failed', data }]);
    });

    test('accounts record changes of their effective status only', async () => {
      const t = get();
      const co = await seedListeningCompany(t);
      const call = client(t, co.key);
      const [acc] = (await makeAccounts(call, 1)) as [string];
      const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'events', timezone: 'UTC' });
      await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [acc]);
      const work = client(t, worker.token);
      const next = eventsSince(t, co.companyId);
      const status = (body: object) => work('PUT', `/worker/v1/accounts/${acc}/status`, body);
      const changed = (to: string, from: string, source: string, reason: string | null = null) => ({
        type: 'account.status_changed',
        data: { accountId: acc, status: to, previousStatus: from, source, reason },
      });

      t.clock.advance(1000);
      assert.equal((await status({ status: 'active' })).status, 200);
      assert.deepEqual(await next(), [changed('active', 'pending_setup', 'worker')]);
      t.clock.advance(1000);
      assert.equal((await call('POST', `/v2/accounts/${acc}/pause`)).status, 200);
      assert.deepEqual(await next(), [changed('paused', 'active', 'company')]);
      // A repeated pause, and a report while paused, leave the effective status as it was.
      t.clock.advance(1000);
      assert.equal((await call('POST', `/v2/accounts/${acc}/pause`)).status, 200);
      const lost = { status: 'disconnected', reason: 'Session expired' };
      assert.equal((await status(lost)).status, 200);
      assert.deepEqual(await next(), []);
      t.clock.advance(1000);
      assert.equal((await call('POST', `/v2/accounts/${acc}/resume`)).status, 200);
      assert.deepEqual(await next(), [changed('disconnected', 'paused', 'company')]);
      t.clock.advance(1000);
      assert.equal((await status({ status: 'warming_up', reason: 'Back in' })).status, 200);
      assert.deepEqual(await next(), [changed('warming_up', 'disconnected', 'worker', 'Back in')]);
    });
  },
  { env: { PLANS_FILE: PLANS, REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
