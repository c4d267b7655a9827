// Two real service processes on one PostgreSQL database and one S3 bucket (s3rver, or the
// server of SLOTLINE_TEST_S3_URL), each with a data directory of its own, behave as one
// service. The test drives them alternately: an upload created on one replica is sent,
// completed and posted through the other; idempotency, daily caps and the video quota hold
// across both under concurrent requests; a dashboard session signed in on one is valid on
// the other and signed out everywhere at once; a key revoked elsewhere stops on both within
// one change poll (PG_READ_CACHE_MS) and stays stopped; and both
// dispatchers, started together over the same due items, release each exactly once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContext, type OpenedContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { createCompany } from '../../src/modules/companies/index.ts';
import { createKey, revokeKey } from '../../src/modules/keys/index.ts';
import { createUser } from '../../src/modules/users/index.ts';
import { DEFAULT_PLANS } from '../../src/plans.ts';
import { SCOPES } from '../../src/access.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { seedDueAccounts } from '../../bench/due-accounts.ts';
import { createPgDatabase, DIALECTS } from '../helpers/databases.ts';
import { hidden, httpBrowser, signIn } from '../helpers/dashboard.ts';
import { api, printLogs, startReplicas, type Replicas } from '../helpers/replicas.ts';
import { startS3, type TestS3 } from '../helpers/s3.ts';
import { validAccount } from '../helpers/app.ts';
import { FIXTURES } from '../helpers/uploads.ts';

const onPg = DIALECTS.includes('postgres');
const DUE = 40;

/** A zone where it is now between 09:00 and 22:00, so every due account has an open slot. */
function daytimeZone(now = new Date()): string {
  const zones = [
    'UTC',
    'Europe/Berlin',
    'Europe/Moscow',
    'Asia/Dubai',
    'Asia/Kolkata',
    'Asia/Bangkok',
    'Asia/Shanghai',
    'Asia/Tokyo',
    'Australia/Sydney',
    'Pacific/Auckland',
    'Pacific/Kiritimati',
    'Atlantic/Azores',
    'America/Noronha',
    'America/Sao_Paulo',
    'America/New_York',
    'America/Chicago',
    'America/Denver',
    'America/Los_Angeles',
    'Pacific/Honolulu',
  ];
  for (const zone of zones) {
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        hourCycle: 'h23',
      }).format(now),
    );
    if (hour >= 9 && hour < 22) return zone;
  }
  throw new Error('no daytime zone found');
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe(
  'two service replicas on one database',
  { skip: !onPg && 'needs PostgreSQL', timeout: 240_000 },
  () => {
    let dir = '';
    let drop: (() => Promise<void>) | undefined;
    let opened: OpenedContext | undefined;
    let running: Replicas | undefined;
    let s3: TestS3 | undefined;
    let A = '';
    let B = '';
    let companyId = '';
    let key = '';
    let dueItems: string[] = [];
    const tight = { ...DEFAULT_PLANS.starter, uploadsPerDay: 4, videoQuota: 100 };
    const quota = { ...DEFAULT_PLANS.starter, videoQuota: 2 };

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'slotline-replicas-'));
      const db = await createPgDatabase();
      drop = db.drop;
      const plansFile = join(dir, 'plans.json');
      await writeFile(plansFile, JSON.stringify({ ...DEFAULT_PLANS, tight, quota }));
      s3 = await startS3();
      const env: NodeJS.ProcessEnv = {
        DATABASE_URL: db.url,
        STORAGE_URL: s3.url,
        PLANS_FILE: plansFile,
        DATA_DIR: join(dir, 'test'),
        SIMULATOR: 'off',
        DISPATCH_INTERVAL_MS: '250',
        REMOTE_FETCH_ALLOW: '127.0.0.1',
      };
      // The test's own view of the same database: seeds what the API does not create.
      opened = await openContext(loadConfig(env));
      const ctx = opened.ctx;
      const company = await createCompany(ctx.db, systemClock, ctx.config.plans, {
        name: 'Replica Co',
        plan: 'scale',
      });
      companyId = company.companyId;
      key = (await createKey(ctx.db, systemClock, { companyId, scopes: [...SCOPES] })).secret;
      const due = await seedDueAccounts(ctx.db, companyId, DUE);
      await ctx.db
        .updateTable('accounts')
        .set({ timezone: daytimeZone() })
        .where('id', 'in', due.accountIds)
        .execute();
      dueItems = due.itemIds;
      // Both dispatchers start together over the same due items.
      running = await startReplicas(2, env, (i) => ({ DATA_DIR: join(dir, `replica-${i}`) }));
      [A, B] = running.replicas.map((r) => r.url) as [string, string];
    });
    after(async () => {
      if (running) printLogs(running);
      await running?.stop();
      await opened?.close();
      await s3?.close();
      await drop?.();
      await rm(dir, { recursive: true, force: true });
    });

    test('both dispatchers release every due item exactly once', async () => {
      const db = opened!.ctx.db;
      await until('every due item released', async () => {
        const rows = await db
          .selectFrom('queue_items')
          .select('status')
          .where('id', 'in', dueItems)
          .where('status', '=', 'posting')
          .execute();
        return rows.length === DUE;
      });
      // A few more passes of each dispatcher change nothing.
      await new Promise((r) => setTimeout(r, 1000));
      const releases = await db
        .selectFrom('releases')
        .select(['queue_item_id'])
        .where('queue_item_id', 'in', dueItems)
        .execute();
      assert.equal(releases.length, DUE);
      assert.equal(new Set(releases.map((r) => r.queue_item_id)).size, DUE);
    });

    test('an upload created on one replica is sent, completed and posted through the other', async () => {
      const [onA, onB] = [api(A, key), api(B, key)];
      const bytes = await readFile(join(FIXTURES, 'h264-noaudio.mp4'));
      const created = await onA('POST', '/v2/uploads', {
        kind: 'video',
        filename: 'clip.mp4',
        contentType: 'video/mp4',
        sizeBytes: bytes.length,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      // A signed URL of the service works on any replica; one of the object store is used as is.
      const url = new URL(created.body.uploadUrl as string);
      const target = url.origin === A ? `${B}${url.pathname}${url.search}` : url.toString();
      const put = await fetch(target, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4' },
        body: bytes,
      });
      assert.ok(put.ok, `PUT answered ${put.status}`);
      const complete = await onB('POST', `/v2/uploads/${created.body.uploadId}/complete`);
      assert.equal(complete.status, 200, JSON.stringify(complete.body));
      assert.equal(complete.body.status, 'ready');
      const thumb = await until('the thumbnail, read on the other replica', async () => {
        const r = await onA('GET', `/v2/uploads/${created.body.uploadId}`);
        return r.body.thumbnailStatus === 'ready' ? (r.body.thumbnailUrl as string) : null;
      });
      const image = await fetch(thumb);
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/jpeg');

      const account = await onB('POST', '/v2/accounts', validAccount());
      assert.equal(account.status, 201);
      const post = await onA('POST', '/v2/posts', {
        media: [created.body.uploadId],
        accountIds: [account.body.accountId],
        caption: 'made on two replicas',
      });
      assert.equal(post.status, 201, JSON.stringify(post.body));
      const read = await onB('GET', `/v2/posts/${post.body.postId}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.status, 'pending_approval');

      // A dashboard session signed in on A is valid on B; signing out on B ends it on A too.
      const email = `approver-${Date.now()}@example.com`;
      const { password } = await createUser(opened!.ctx.db, systemClock, {
        companyId,
        email,
        role: 'editor',
      });
      const jar = new Map<string, string>();
      const [pageA, pageB] = [httpBrowser(A, jar), httpBrowser(B, jar)];
      const signedIn = await signIn(pageA, email, password);
      assert.equal(signedIn.status, 303);
      const inbox = await pageB.get('/dashboard/approvals');
      assert.equal(inbox.status, 200);
      assert.match(inbox.body, /made on two replicas/);
      const kept = new Map(jar);
      const out = await pageB.post('/dashboard/sign-out', { _csrf: hidden(inbox.body, '_csrf') });
      assert.equal(out.status, 303);
      // The session's cookie, replayed on A after signing out on B, no longer opens a page.
      const replayed = await httpBrowser(A, kept).get('/dashboard/approvals');
      assert.equal(replayed.status, 303);
      assert.match(replayed.location ?? '', /sign-in/);
    });

    test('an idempotent create sent to both replicas at once makes one post', async () => {
      const calls = [api(A, key), api(B, key)];
      const account = await calls[0]!('POST', '/v2/accounts', validAccount());
      const upload = await readyVideo(calls[0]!, calls[1]!);
      const body = { media: [upload], accountIds: [account.body.accountId], caption: 'once' };
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          calls[i % 2]!('POST', '/v2/posts', body, { 'idempotency-key': 'replicas-once' }),
        ),
      );
      const created = results.filter((r) => r.status === 201);
      assert.equal(created.length, 1, results.map((r) => r.status).join());
      for (const r of results) {
        assert.ok([200, 201, 409].includes(r.status), `status ${r.status}`);
        if (r.status === 200) assert.equal(r.body.postId, created[0]!.body.postId);
      }
    });

    test('a daily cap and the video quota hold across replicas', async () => {
      const ctx = opened!.ctx;
      const make = async (plan: string) => {
        const c = await createCompany(ctx.db, systemClock, ctx.config.plans, { name: plan, plan });
        const k = (
          await createKey(ctx.db, systemClock, { companyId: c.companyId, scopes: [...SCOPES] })
        ).secret;
        return [api(A, k), api(B, k)] as const;
      };
      const capped = await make('tight');
      const creates = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          capped[i % 2]!('POST', '/v2/uploads', {
            kind: 'image',
            filename: 'a.png',
            contentType: 'image/png',
            sizeBytes: 100,
          }),
        ),
      );
      const statuses = creates.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, 201, 201, 201, 429, 429, 429, 429, 429, 429]);
      for (const r of creates.filter((c) => c.status === 429))
        assert.equal(r.body.error.code, 'rate_limited');

      const limited = await make('quota');
      const sent = await Promise.all(
        Array.from({ length: 4 }, (_, i) => sentVideo(limited[i % 2]!)),
      );
      const completes = await Promise.all(
        sent.map((id, i) => limited[i % 2]!('POST', `/v2/uploads/${id}/complete`)),
      );
      const ready = completes.filter((r) => r.status === 200);
      assert.equal(ready.length, 2, completes.map((r) => JSON.stringify(r.body)).join('\n'));
      for (const r of completes.filter((c) => c.status !== 200)) {
        assert.equal(r.status, 429);
        assert.equal(r.body.error.code, 'quota_exceeded');
      }
    });

    test('a key revoked by another process stops on both replicas within a poll', async () => {
      const ctx = opened!.ctx;
      const made = await createKey(ctx.db, systemClock, { companyId, scopes: ['accounts:read'] });
      for (const base of [A, B, A, B])
        assert.equal((await api(base, made.secret)('GET', '/v2/accounts')).status, 200);
      await revokeKey(ctx.db, systemClock, made.keyId);
      const revokedAt = Date.now();
      for (const base of [A, B]) {
        await until(`${base} to refuse the revoked key`, async () => {
          const r = await api(base, made.secret)('GET', '/v2/accounts');
          return r.status === 401;
        });
      }
      // Each replica keeps verified keys for at most about one poll (20 ms) after a change.
      assert.ok(Date.now() - revokedAt < 1_000, `refused after ${Date.now() - revokedAt} ms`);
      for (const base of [A, B, A, B, A, B]) {
        assert.equal((await api(base, made.secret)('GET', '/v2/accounts')).status, 401);
      }
    });
  },
);

type Call = ReturnType<typeof api>;

/** A video upload created on a replica, its bytes sent to its upload URL. */
async function sentVideo(create: Call): Promise<string> {
  const bytes = await readFile(join(FIXTURES, 'h264-noaudio.mp4'));
  const created = await create('POST', '/v2/uploads', {
    kind: 'video',
    filename: 'clip.mp4',
    contentType: 'video/mp4',
    sizeBytes: bytes.length,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const put = await fetch(created.body.uploadUrl as string, {
    method: 'PUT',
    headers: { 'content-type': 'video/mp4' },
    body: bytes,
  });
  assert.ok(put.ok, `PUT answered ${put.status}`);
  return created.body.uploadId as string;
}

async function readyVideo(create: Call, complete: Call): Promise<string> {
  const id = await sentVideo(create);
  const done = await complete('POST', `/v2/uploads/${id}/complete`);
  assert.equal(done.status, 200, JSON.stringify(done.body));
  return id;
}
