// Media work as rows (dispatch/media-loop.ts, modules/media-jobs): a carousel's render is a
// job written with its post, claimed with a lease, taken again once a dead claim's lease
// runs out, tried again after a storage failure, failed for good after three claims, and
// handed back when its process stops; /readyz and the metrics show what waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { makeAccounts, readyUpload, type CallFn } from '../helpers/posts.ts';
import { startMediaLoop } from '../../src/dispatch/media-loop.ts';
import {
  MAX_ATTEMPTS,
  claimMediaJobs,
  mediaBacklog,
  retryDelayMs,
} from '../../src/modules/media-jobs/index.ts';

const LEASE_MS = 30_000;

interface Setup {
  call: CallFn;
  companyId: string;
  accounts: string[];
  image: string;
}

async function setup(t: TestApp): Promise<Setup> {
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const accounts = await makeAccounts(call, 2);
  const image = await readyUpload(t, call, 'image.jpg');
  await t.media.idle();
  return { call, companyId: co.companyId, accounts, image };
}

function carousel(s: Setup, slides = 2) {
  return {
    media: [s.image],
    accountIds: s.accounts,
    slides: Array.from({ length: slides }, (_, i) => ({
      image: s.image,
      textElements: [{ content: `Slide ${i + 1}`, style: { positionY: 40 } }],
    })),
  };
}

async function jobOf(t: TestApp, postId: string) {
  return t.ctx.db
    .selectFrom('media_jobs')
    .selectAll()
    .where('kind', '=', 'render')
    .where('subject_id', '=', postId)
    .executeTakeFirst();
}

async function itemsOf(t: TestApp, postId: string) {
  return t.ctx.db
    .selectFrom('queue_items')
    .select(['status', 'failure_reason'])
    .where('post_id', '=', postId)
    .execute();
}

describeEachDialect('media jobs', (get) => {
  test('a carousel is a render job written with its post, gone once rendered', async () => {
    const t = get();
    const s = await setup(t);
    const release = t.media.hold();
    let postId: string;
    try {
      const res = await s.call('POST', '/v2/posts', carousel(s));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      postId = res.body.postId;
      const job = await jobOf(t, postId);
      assert.ok(job, 'the job is written with the post');
      assert.equal(job.company_id, s.companyId);
      assert.equal(job.attempts, 0);
      assert.equal(job.lease_owner, null);
      const backlog = await mediaBacklog(t.ctx.db, t.clock.now());
      assert.equal(backlog.waiting.render, 1);
      t.clock.advance(4_000);
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.deepEqual(ready.json().mediaJobs, {
        waiting: 1,
        running: 0,
        oldestWaitingSeconds: 4,
      });
    } finally {
      release();
    }
    await t.media.idle();
    assert.equal(await jobOf(t, postId), undefined);
    const got = await s.call('GET', `/v2/posts/${postId}`);
    assert.equal(got.body.status, 'pending_approval');
    assert.equal(got.body.media.count, 2);
  });

  test("a dead process's claim is taken again once its lease runs out", async () => {
    const t = get();
    const s = await setup(t);
    const release = t.media.hold();
    const res = await s.call('POST', '/v2/posts', carousel(s));
    const postId = res.body.postId as string;
    // A process claims the job and dies without a word.
    const [claimed] = await claimMediaJobs(
      t.ctx.db,
      'render',
      5,
      { owner: 'dead-process', ms: LEASE_MS },
      t.clock.now(),
    );
    assert.equal(claimed?.subjectId, postId);
    release();
    await t.media.idle();
    assert.equal((await s.call('GET', `/v2/posts/${postId}`)).body.status, 'processing');
    const backlog = await mediaBacklog(t.ctx.db, t.clock.now());
    assert.equal(backlog.running.render, 1, 'under a live lease, the job counts as running');
    t.clock.advance(LEASE_MS + 1);
    await t.media.idle();
    assert.equal((await s.call('GET', `/v2/posts/${postId}`)).body.status, 'pending_approval');
    assert.equal(await jobOf(t, postId), undefined);
  });

  test('a job claimed three times without finishing fails its items with the reason', async () => {
    const t = get();
    const s = await setup(t);
    const release = t.media.hold();
    const res = await s.call('POST', '/v2/posts', carousel(s));
    const postId = res.body.postId as string;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const claimed = await claimMediaJobs(
        t.ctx.db,
        'render',
        5,
        { owner: `dead-${i}`, ms: LEASE_MS },
        t.clock.now(),
      );
      assert.equal(claimed.length, 1);
      t.clock.advance(LEASE_MS + 1);
    }
    release();
    await t.media.idle();
    const got = await s.call('GET', `/v2/posts/${postId}`);
    assert.equal(got.body.status, 'failed');
    const items = await itemsOf(t, postId);
    assert.equal(items.length, 2);
    for (const item of items) {
      assert.equal(item.status, 'failed');
      assert.match(item.failure_reason ?? '', /^Slides could not be rendered: .*started 3 times/);
    }
    assert.equal(await jobOf(t, postId), undefined);
    const queue = await s.call('POST', `/v2/posts/${postId}/queue`, { accountIds: s.accounts });
    assert.equal(queue.status, 409);
    assert.equal(queue.body.error.code, 'media_not_ready');
  });

  test('storage that fails is tried again after a backoff, then fails the items', async () => {
    const t = get();
    const s = await setup(t);
    const blobs = t.ctx.blobs;
    const read = blobs.read.bind(blobs);
    let failing = true;
    let reads = 0;
    blobs.read = async (key, max) => {
      if (failing && key.startsWith('uploads/')) {
        reads += 1;
        throw new Error('storage did not answer');
      }
      return read(key, max);
    };
    try {
      // Fails once, then storage answers again: the second attempt renders.
      const once = (await s.call('POST', '/v2/posts', carousel(s))).body.postId as string;
      await t.media.idle();
      let job = await jobOf(t, once);
      assert.equal(job?.attempts, 1);
      assert.equal(job?.last_error, 'storage did not answer');
      assert.equal(job?.lease_owner, null);
      assert.equal((await s.call('GET', `/v2/posts/${once}`)).body.status, 'processing');
      failing = false;
      t.clock.advance(retryDelayMs(1));
      await t.media.idle();
      assert.equal((await s.call('GET', `/v2/posts/${once}`)).body.status, 'pending_approval');
      assert.equal(await jobOf(t, once), undefined);

      // Fails every time: three attempts, each after its backoff, then the items fail.
      failing = true;
      reads = 0;
      const never = (await s.call('POST', '/v2/posts', carousel(s))).body.postId as string;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        await t.media.idle();
        assert.equal(reads, attempt, `attempt ${attempt} read the image`);
        job = await jobOf(t, never);
        if (attempt < MAX_ATTEMPTS) {
          assert.equal(job?.attempts, attempt);
          assert.equal((await s.call('GET', `/v2/posts/${never}`)).body.status, 'processing');
          t.clock.advance(retryDelayMs(attempt) - 1);
          await t.media.idle();
          assert.equal(reads, attempt, 'not before its backoff');
          t.clock.advance(1);
        }
      }
      assert.equal(job, undefined);
      const items = await itemsOf(t, never);
      for (const item of items) {
        assert.equal(item.status, 'failed');
        assert.equal(item.failure_reason, 'Slides could not be rendered: storage did not answer');
      }
    } finally {
      blobs.read = read;
    }
  });

  test('a process that stops hands back the job under way, attempt refunded', async () => {
    const t = get();
    const s = await setup(t);
    const release = t.media.hold();
    const blobs = t.ctx.blobs;
    const read = blobs.read.bind(blobs);
    let started = () => {};
    const reading = new Promise<void>((resolve) => (started = resolve));
    let unblock = () => {};
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    blobs.read = async (key, max) => {
      if (key.startsWith('uploads/')) {
        started();
        await blocked;
      }
      return read(key, max);
    };
    const postId = (await s.call('POST', '/v2/posts', carousel(s))).body.postId as string;
    // A second process's loop takes the job and is stopped while it renders.
    const other = startMediaLoop(t.ctx, { pollMs: 60_000, leaseMs: LEASE_MS, onError: () => {} });
    try {
      await reading;
      const held = await jobOf(t, postId);
      assert.equal(held?.attempts, 1);
      assert.ok(held?.lease_owner);
      const { handedBack } = await other.stop(0);
      assert.equal(handedBack, 1);
      const back = await jobOf(t, postId);
      assert.equal(back?.lease_owner, null);
      assert.equal(back?.lease_until, null);
      assert.equal(back?.attempts, 0, 'a stop is not a failed attempt');
    } finally {
      blobs.read = read;
      unblock();
      release();
    }
    // Taken at once by the loop still running, with no lease to wait for.
    await t.media.idle();
    assert.equal((await s.call('GET', `/v2/posts/${postId}`)).body.status, 'pending_approval');
  });

  test('a ready upload is a thumbnail job written with its move to ready', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const release = t.media.hold();
    let uploadId: string;
    try {
      uploadId = await readyUpload(t, call, 'image.png');
      const job = await t.ctx.db
        .selectFrom('media_jobs')
        .selectAll()
        .where('kind', '=', 'thumbnail')
        .where('subject_id', '=', uploadId)
        .executeTakeFirst();
      assert.ok(job);
      assert.equal((await call('GET', `/v2/uploads/${uploadId}`)).body.thumbnailUrl, undefined);
    } finally {
      release();
    }
    await t.media.idle();
    assert.ok((await call('GET', `/v2/uploads/${uploadId}`)).body.thumbnailUrl);
  });
});
