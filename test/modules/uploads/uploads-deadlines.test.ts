// Pending uploads past their deadline: the dispatcher's pass fails a remote upload whose
// request a crash cut off, and a signed upload never sent or completed, with a reason and
// the `upload.failed` event; uploads still within their deadline are left alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, type TestApp } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { fixture, putBytes } from '../../helpers/uploads.ts';
import { outbox, seedListeningCompany } from '../../helpers/webhook-events.ts';
import { dispatchPass } from '../../../src/dispatch/loop.ts';
import { uploadDeadlines } from '../../../src/db/migrations/0014-upload-deadlines.ts';
import type { UploadsTable } from '../../../src/db/types.ts';
import { newId } from '../../../src/lib/ids.ts';
import {
  REMOTE_EXPIRED,
  REMOTE_PENDING_MS,
  SIGNED_EXPIRED,
  SIGNED_GRACE_MS,
} from '../../../src/modules/uploads/upload-expiry.service.ts';

const HOUR_MS = 60 * 60 * 1000;

// A source that answers only when the test says so: a remote fetch under way.
let source: Server;
let base = '';
let onRequest: (res: ServerResponse) => void = () => {};

before(async () => {
  source = createServer((_req, res) => onRequest(res));
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
});
after(() => {
  source.closeAllConnections();
  return new Promise<void>((resolve) => source.close(() => resolve()));
});

/** A pending remote upload as the process that created it left it when it was killed. */
async function crashLeftRemote(
  t: TestApp,
  companyId: string,
  expiresAt: string | null,
): Promise<string> {
  const now = t.clock.now();
  const id = newId('upl', now.getTime());
  const row: UploadsTable = {
    id,
    company_id: companyId,
    kind: 'video',
    status: 'pending',
    source: 'remote',
    source_url: `${base}/slow.mp4`,
    filename: '',
    content_type: '',
    size_bytes: null,
    stored_bytes: null,
    blob_key: `uploads/${companyId}/${id}`,
    sha256: null,
    thumbnail_key: null,
    thumbnail_error: null,
    error: null,
    media_info: null,
    expires_at: expiresAt,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    completed_at: null,
  };
  await t.ctx.db.insertInto('uploads').values(row).execute();
  return id;
}

describeEachDialect(
  'pending uploads past their deadline',
  (get) => {
    test('a remote upload cut off by a crash fails once its deadline passes', async () => {
      const t = get();
      const co = await seedListeningCompany(t);
      const call = client(t, co.key);
      const created = t.clock.now().getTime();
      const id = await crashLeftRemote(
        t,
        co.companyId,
        new Date(created + REMOTE_PENDING_MS).toISOString(),
      );

      // Past the fetch's own limit but within the deadline: it could still be under way.
      t.clock.set(created + REMOTE_PENDING_MS - 1000);
      assert.equal((await dispatchPass(t.ctx, t.clock.now())).expiredUploads, 0);
      assert.equal((await call('GET', `/v2/uploads/${id}`)).body.status, 'pending');

      t.clock.set(created + REMOTE_PENDING_MS + 1000);
      assert.equal((await dispatchPass(t.ctx, t.clock.now())).expiredUploads, 1);
      const got = await call('GET', `/v2/uploads/${id}`);
      assert.equal(got.status, 200);
      assert.equal(got.body.status, 'failed');
      assert.equal(got.body.error, REMOTE_EXPIRED);
      assert.deepEqual(await outbox(t, co.companyId), [
        {
          type: 'upload.failed',
          data: { uploadId: id, kind: 'video', status: 'failed', error: REMOTE_EXPIRED },
        },
      ]);
      // Once: the next pass finds nothing.
      assert.equal((await dispatchPass(t.ctx, t.clock.now())).expiredUploads, 0);
    });

    test('one left pending by an earlier release gets its deadline from the migration', async () => {
      const t = get();
      const co = await seedListeningCompany(t);
      const call = client(t, co.key);
      const created = t.clock.now().getTime();
      const id = await crashLeftRemote(t, co.companyId, null);
      // The migration as it runs on a database of that release.
      await t.ctx.db.schema.dropIndex('uploads_status_expires').execute();
      await uploadDeadlines.up(t.ctx.db);
      const row = await t.ctx.db
        .selectFrom('uploads')
        .select('expires_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(row.expires_at, new Date(created + REMOTE_PENDING_MS).toISOString());

      t.clock.set(created + REMOTE_PENDING_MS);
      await dispatchPass(t.ctx, t.clock.now());
      const got = await call('GET', `/v2/uploads/${id}`);
      assert.equal(got.body.status, 'failed');
      assert.equal(got.body.error, REMOTE_EXPIRED);
    });

    test('a remote fetch under way is left alone and finishes', async () => {
      const t = get();
      const co = await seedListeningCompany(t);
      const call = client(t, co.key);
      const png = await fixture('image.png');
      const answer = new Promise<ServerResponse>((resolve) => (onRequest = resolve));
      const started = t.clock.now().getTime();
      const request = call('POST', '/v2/uploads', { kind: 'image', sourceUrl: `${base}/slow` });
      // The source has the request: the upload row exists and the fetch waits on the answer.
      const res = await answer;
      const row = await t.ctx.db
        .selectFrom('uploads')
        .select(['id', 'status', 'expires_at'])
        .where('company_id', '=', co.companyId)
        .executeTakeFirstOrThrow();
      assert.equal(row.status, 'pending');
      assert.equal(row.expires_at, new Date(started + REMOTE_PENDING_MS).toISOString());

      assert.equal((await dispatchPass(t.ctx, t.clock.now())).expiredUploads, 0);
      t.clock.set(started + REMOTE_PENDING_MS - 1000);
      assert.equal((await dispatchPass(t.ctx, t.clock.now())).expiredUploads, 0);

      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      res.end(png);
      const done = await request;
      assert.equal(done.status, 201, JSON.stringify(done.body));
      assert.equal(done.body.status, 'ready');
      assert.equal((await call('GET', `/v2/uploads/${row.id}`)).body.status, 'ready');
    });

    test('a signed upload never completed fails an hour after its URL expired', async () => {
      const t = get();
      const co = await seedListeningCompany(t);
      const call = client(t, co.key);
      const png = await fixture('image.png');
      const create = async () => {
        const res = await call('POST', '/v2/uploads', {
          kind: 'image',
          filename: 'card.png',
          contentType: 'image/png',
          sizeBytes: png.length,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body as { uploadId: string; uploadUrl: string; expiresAt: string };
      };
      const created = t.clock.now().getTime();
      const neverSent = await create();
      const lateComplete = await create();
      const sentOnly = await create();
      assert.equal(Date.parse(neverSent.expiresAt), created + HOUR_MS);
      for (const u of [lateComplete, sentOnly]) {
        assert.equal((await putBytes(t, u.uploadUrl, png, 'image/png')).statusCode, 200);
      }

      // The URL has expired, the grace has not: `complete` still works, nothing fails.
      t.clock.set(created + HOUR_MS + SIGNED_GRACE_MS - 1000);
      assert.equal((await dispatchPass(t.ctx, t.clock.now())).expiredUploads, 0);
      const completed = await call('POST', `/v2/uploads/${lateComplete.uploadId}/complete`);
      assert.equal(completed.status, 200, JSON.stringify(completed.body));
      assert.equal(completed.body.status, 'ready');

      t.clock.set(created + HOUR_MS + SIGNED_GRACE_MS);
      assert.equal((await dispatchPass(t.ctx, t.clock.now())).expiredUploads, 2);
      for (const u of [neverSent, sentOnly]) {
        const got = await call('GET', `/v2/uploads/${u.uploadId}`);
        assert.equal(got.body.status, 'failed');
        assert.equal(got.body.error, SIGNED_EXPIRED);
      }
      assert.equal(
        (await call('GET', `/v2/uploads/${lateComplete.uploadId}`)).body.status,
        'ready',
      );
      const failed = (await outbox(t, co.companyId)).filter((e) => e.type === 'upload.failed');
      assert.deepEqual(
        failed.map((e) => e.data.uploadId).sort(),
        [neverSent.uploadId, sentOnly.uploadId].sort(),
      );
      // A failed upload stays failed: `complete` says so.
      assertApiError(
        await call('POST', `/v2/uploads/${sentOnly.uploadId}/complete`),
        409,
        'upload_already_completed',
      );
    });
  },
  { env: { REMOTE_FETCH_ALLOW: '127.0.0.1' } },
);
