// Webhook events of the release engine and the Worker API, on both databases: releases,
// claims (none), reports, report deadlines, rendered carousels and coalesced analytics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, type TestApp } from '../../helpers/app.ts';
import { makeActiveAccounts, readyUpload } from '../../helpers/posts.ts';
import {
  eventsSince,
  item,
  itemIdsByAccount,
  type OutboxEvent,
  seedListeningCompany,
} from '../../helpers/webhook-events.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { failOverdueTasks } from '../../../src/dispatch/deadlines.ts';
import { UNCLAIMED_REASON, UNCONFIRMED_REASON } from '../../../src/modules/items/index.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

const SNAPSHOT = { views: 10, likes: 1, comments: 0, shares: 0, saves: 0 };

/** A company on a day of its own at 10:00 UTC, its active accounts run by one worker. */
async function setup(t: TestApp, day: string, accounts: number) {
  t.clock.set(`${day}T10:00:00.000Z`);
  const co = await seedListeningCompany(t);
  const call = client(t, co.key);
  const ids = await makeActiveAccounts(t, call, accounts);
  const upload = await readyUpload(t, call, 'image.png');
  const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: day, timezone: 'UTC' });
  await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, ids);
  const work = client(t, worker.token);
  const next = eventsSince(t, co.companyId);
  const post = async (accountIds: string[]) => {
    t.clock.advance(1000);
    const body = { media: [upload], accountIds, skipApproval: true };
    const res = await call('POST', '/v2/posts', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const postId: string = res.body.postId;
    return { postId, items: await itemIdsByAccount(t, postId) };
  };
  const claim = async (accountId: string): Promise<string> => {
    const res = await work('POST', '/worker/v1/tasks/claim', { accountId });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.length, 1);
    return res.body.data[0].taskId;
  };
  const report = (taskId: string, body: object) =>
    work('POST', `/worker/v1/tasks/${taskId}/result`, body);
  await next();
  return { call, work, accounts: ids, upload, next, post, claim, report };
}

/** Item events in account order, for changes whose rows come back in no fixed order. */
function byAccount(events: OutboxEvent[]): OutboxEvent[] {
  const key = (e: OutboxEvent) => `${e.type} ${String(e.data.accountId)}`;
  return [...events].sort((x, y) => key(x).localeCompare(key(y)));
}

describeEachDialect('webhook events of releases and workers', (get) => {
  test('releases, reports and deadlines record each item that moved', async () => {
    const t = get();
    const day = '2026-04-06';
    const s = await setup(t, day, 4);
    const [a, b, c, d] = [...s.accounts].sort() as [string, string, string, string];
    const { postId: p, items } = await s.post([a, b, c, d]);
    const id = (acc: string) => items.get(acc) as string;
    await s.next();

    t.clock.set(`${day}T11:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 4);
    const released = await s.next();
    assert.deepEqual(
      byAccount(released.slice(0, 4)),
      [a, b, c, d].map((acc) => ({
        type: 'post.item.released',
        data: item(p, acc, id(acc), 'posting'),
      })),
    );
    assert.deepEqual(released.slice(4), [
      {
        type: 'post.status_changed',
        data: { postId: p, status: 'posting', previousStatus: 'queued' },
      },
    ]);

    t.clock.set(`${day}T11:30:00.000Z`);
    const [ta, tb, tc] = [await s.claim(a), await s.claim(b), await s.claim(c)];
    assert.deepEqual(await s.next(), [], 'claiming changes no status');

    t.clock.set(`${day}T11:40:00.000Z`);
    const url = 'https://platform-a.example/v/1';
    assert.equal((await s.report(ta, { outcome: 'posted', postUrl: url })).status, 200);
    // Posted 40 minutes after its 11:00 window opened: on time (the grace is an hour).
    const delivery = (claimedAt: string, postedAt: string, onTime: boolean) => ({
      releasedAt: `${day}T11:00:00.000Z`,
      claimedAt: `${day}T${claimedAt}.000Z`,
      postedAt: `${day}T${postedAt}.000Z`,
      slotStart: `${day}T11:00:00.000Z`,
      onTime,
    });
    assert.deepEqual(await s.next(), [
      {
        type: 'post.item.posted',
        data: {
          ...item(p, a, ta, 'posted', { postUrl: url }),
          delivery: delivery('11:30:00', '11:40:00', true),
        },
      },
    ]);
    t.clock.advance(1000);
    const lost = { outcome: 'failed', reason: 'Login expired' };
    assert.equal((await s.report(tb, lost)).status, 200);
    assert.deepEqual(await s.next(), [
      { type: 'post.item.failed', data: item(p, b, tb, 'failed', { reason: 'Login expired' }) },
    ]);
    // A different outcome for a settled task is refused and records nothing.
    t.clock.advance(1000);
    assert.equal((await s.report(ta, lost)).status, 409);
    assert.deepEqual(await s.next(), []);

    // D was never claimed (2 hours from its release), C never reported (2 hours from its claim).
    t.clock.set(`${day}T13:30:00.000Z`);
    assert.deepEqual(await failOverdueTasks(t.ctx, t.clock.now()), {
      unclaimed: 1,
      unconfirmed: 1,
    });
    assert.deepEqual(await s.next(), [
      {
        type: 'post.item.failed',
        data: item(p, d, id(d), 'failed', { reason: UNCLAIMED_REASON }),
      },
      {
        type: 'post.item.unconfirmed',
        data: item(p, c, tc, 'failed', { reason: UNCONFIRMED_REASON }),
      },
      {
        type: 'post.status_changed',
        data: { postId: p, status: 'partially_posted', previousStatus: 'posting' },
      },
    ]);

    // A late posted report settles the unconfirmed item; the post stays partially posted.
    t.clock.set(`${day}T14:00:00.000Z`);
    const late = 'https://platform-a.example/v/3';
    assert.equal((await s.report(tc, { outcome: 'posted', postUrl: late })).status, 200);
    assert.deepEqual(await s.next(), [
      {
        type: 'post.item.posted',
        data: {
          ...item(p, c, tc, 'posted', { postUrl: late }),
          delivery: delivery('11:30:00', '14:00:00', false),
        },
      },
    ]);
  });

  test('analytics reports of a post coalesce into one event per interval', async () => {
    const t = get();
    const day = '2026-04-07';
    const s = await setup(t, day, 2);
    const [a, b] = s.accounts as [string, string];
    const { postId: p } = await s.post([a, b]);
    t.clock.set(`${day}T11:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
    const [ta, tb] = [await s.claim(a), await s.claim(b)];
    const url = 'https://platform-a.example/v/9';
    assert.equal((await s.report(ta, { outcome: 'posted', postUrl: url })).status, 200);
    await s.next();

    const analytics = (taskId: string) =>
      s.work('POST', `/worker/v1/tasks/${taskId}/analytics`, SNAPSHOT);
    t.clock.set(`${day}T11:20:05.000Z`);
    assert.equal((await analytics(tb)).status, 409, 'a task not posted takes no analytics');
    assert.deepEqual(await s.next(), []);
    assert.equal((await analytics(ta)).status, 201);
    t.clock.set(`${day}T11:20:40.000Z`);
    assert.equal((await analytics(ta)).status, 201);
    const updated = (at: string) => ({
      type: 'analytics.updated',
      data: { postId: p, updatedAt: `${day}T${at}.000Z` },
    });
    assert.deepEqual(await s.next(), [updated('11:20:40')]);
    const rows = await t.ctx.db
      .selectFrom('webhook_events')
      .select(['available_at'])
      .where('type', '=', 'analytics.updated')
      .where('data', 'like', `%${p}%`)
      .execute();
    assert.deepEqual(rows, [{ available_at: `${day}T11:21:00.000Z` }], 'sent at the interval end');

    t.clock.set(`${day}T11:21:10.000Z`);
    assert.equal((await analytics(ta)).status, 201);
    assert.deepEqual(await s.next(), [updated('11:21:10')]);
  });

  test('a carousel opens its items when its slides are rendered', async () => {
    const t = get();
    const day = '2026-04-08';
    const s = await setup(t, day, 2);
    const [a, b] = [...s.accounts].sort() as [string, string];
    const img = await readyUpload(t, s.call, 'image.jpg');
    await s.next();
    t.clock.advance(1000);
    const slide = (image: string) => ({
      image,
      textElements: [{ content: 'Hi', style: { positionY: 30 } }],
    });
    // Hold the media work back, so the render records after the clock moved on.
    const release = t.media.hold();
    const res = await s
      .call('POST', '/v2/posts', {
        media: [s.upload, img],
        accountIds: [a, b],
        slides: [slide(s.upload), slide(img)],
      })
      .finally(() => {
        t.clock.advance(1000);
        release();
      });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const p = res.body.postId;
    await t.media.idle();
    const ids = await itemIdsByAccount(t, p);
    const events = await s.next();
    assert.deepEqual(events[0], {
      type: 'post.created',
      data: {
        postId: p,
        status: 'processing',
        items: [a, b].map((acc) => ({
          queueItemId: ids.get(acc),
          accountId: acc,
          status: 'processing',
        })),
      },
    });
    assert.deepEqual(byAccount(events.slice(1, 3)), [
      {
        type: 'post.item.pending_approval',
        data: item(p, a, ids.get(a) as string, 'pending_approval'),
      },
      {
        type: 'post.item.pending_approval',
        data: item(p, b, ids.get(b) as string, 'pending_approval'),
      },
    ]);
    assert.deepEqual(events.slice(3), [
      {
        type: 'post.status_changed',
        data: { postId: p, status: 'pending_approval', previousStatus: 'processing' },
      },
    ]);
  });

  test('a carousel whose slides cannot be rendered fails its items', async () => {
    const t = get();
    const s = await setup(t, '2026-04-09', 2);
    const [a, b] = [...s.accounts].sort() as [string, string];
    const slide = { image: s.upload, textElements: [{ content: 'Hi', style: { positionY: 30 } }] };
    const release = t.media.hold();
    let p: string;
    try {
      const res = await s.call('POST', '/v2/posts', {
        media: [s.upload],
        accountIds: [a, b],
        slides: [slide, slide],
        skipApproval: true,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      p = res.body.postId;
      // The image is gone from storage by the time the slides render.
      const { blob_key: key } = await t.ctx.db
        .selectFrom('uploads')
        .select('blob_key')
        .where('id', '=', s.upload)
        .executeTakeFirstOrThrow();
      await t.ctx.blobs.delete(key);
      await s.next();
      t.clock.advance(1000);
    } finally {
      release();
    }
    await t.media.idle();
    const rows = await t.ctx.db
      .selectFrom('queue_items')
      .select(['id', 'account_id', 'status', 'failure_reason'])
      .where('post_id', '=', p)
      .orderBy('account_id')
      .execute();
    const events = await s.next();
    assert.deepEqual(
      byAccount(events.slice(0, 2)),
      rows.map((r) => ({
        type: 'post.item.failed',
        data: item(p, r.account_id, r.id, 'failed', { reason: r.failure_reason as string }),
      })),
    );
    assert.match(rows[0]?.failure_reason ?? '', /^Slides could not be rendered/);
    assert.deepEqual(events.slice(2), [
      {
        type: 'post.status_changed',
        data: { postId: p, status: 'failed', previousStatus: 'processing' },
      },
    ]);
  });
});
