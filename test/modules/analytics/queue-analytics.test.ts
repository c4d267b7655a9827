// Account queues, post and account analytics, and the queue-derived account fields on both
// databases (SPEC 2.5-2.8, 4.2, 4.4; DECISIONS 5 and 7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { local } from '../../helpers/uploads.ts';
import { makeActiveAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { updateCompany } from '../../../src/modules/companies/index.ts';
import { refreshPostStatus } from '../../../src/modules/items/items.state.ts';
import { engagementRate } from '../../../src/modules/analytics/analytics.service.ts';
import type { PostAnalyticsTable, QueueItemsTable } from '../../../src/db/types.ts';

const START = '2026-03-02T10:00:00.000Z';

interface Setup {
  call: CallFn;
  companyId: string;
  accounts: string[];
  image: string;
}

async function setup(t: TestApp, accounts = 2): Promise<Setup> {
  t.clock.set(START);
  const co = await seedCompany(t);
  const call = client(t, co.key);
  // Reported active by their worker: queues of blocked accounts plan nothing (DECISIONS 7).
  const ids = await makeActiveAccounts(t, call, accounts);
  const image = await readyUpload(t, call, 'image.png');
  return { call, companyId: co.companyId, accounts: ids, image };
}

/** Creates a post queued to `accountIds`; returns the post id and its item id per account. */
async function queuePost(
  s: Setup,
  accountIds: string[],
  body: { priority?: number; skipApproval?: boolean; caption?: string } = {},
): Promise<{ postId: string }> {
  const res = await s.call('POST', '/v2/posts', {
    media: [s.image],
    accountIds,
    skipApproval: true,
    ...body,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { postId: res.body.postId };
}

async function itemOf(t: TestApp, postId: string, accountId: string): Promise<string> {
  const row = await t.ctx.db
    .selectFrom('queue_items')
    .select('id')
    .where('post_id', '=', postId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Moves an item directly in the database, as the release engine will, and re-derives the post. */
async function moveItem(
  t: TestApp,
  postId: string,
  accountId: string,
  patch: Partial<QueueItemsTable>,
): Promise<void> {
  const at = t.clock.now().toISOString();
  await t.ctx.db.transaction().execute(async (tx) => {
    await tx
      .updateTable('queue_items')
      .set({ ...patch, updated_at: at })
      .where('post_id', '=', postId)
      .where('account_id', '=', accountId)
      .execute();
    await refreshPostStatus(tx, postId, at);
  });
}

async function queueOf(s: Setup, accountId: string, query = ''): Promise<any[]> {
  const res = await s.call('GET', `/v2/accounts/${accountId}/queue${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

let snapshotSeq = 0;
function snapshot(
  s: Setup,
  postId: string,
  itemId: string,
  accountId: string,
  collectedAt: string,
  counts: Partial<Record<'views' | 'likes' | 'comments' | 'shares' | 'saves', number>>,
): PostAnalyticsTable {
  snapshotSeq++;
  return {
    id: `pan_${String(snapshotSeq).padStart(6, '0')}`,
    company_id: s.companyId,
    post_id: postId,
    queue_item_id: itemId,
    account_id: accountId,
    platform: 'platformA',
    post_url: `https://platform-a.example/v/${itemId}/${snapshotSeq}`,
    views: 0,
    likes: 0,
    comments: 0,
    shares: 0,
    saves: 0,
    ...counts,
    collected_at: collectedAt,
  };
}

test('engagementRate rounds to two decimals, half up, and is 0 without views', () => {
  assert.equal(engagementRate(0, 5, 0, 0, 0), 0);
  assert.equal(engagementRate(3, 1, 0, 0, 0), 33.33);
  assert.equal(engagementRate(3, 2, 0, 0, 0), 66.67);
  assert.equal(engagementRate(800, 1, 0, 0, 0), 0.13);
  assert.equal(engagementRate(1000, 10, 10, 10, 10), 4);
  assert.equal(engagementRate(100, 150, 0, 0, 0), 150);
  assert.equal(engagementRate(20_000, 1, 0, 0, 0), 0.01, '0.005 % rounds up');
  assert.equal(engagementRate(200_000, 1, 0, 0, 0), 0, '0.0005 % rounds down');
});

describeEachDialect('account queue and analytics', (get) => {
  test('empty queue, analytics and account fields', async () => {
    const t = get();
    const s = await setup(t, 1);
    const [account] = s.accounts as [string];
    const queue = await s.call('GET', `/v2/accounts/${account}/queue`);
    assert.equal(queue.status, 200, JSON.stringify(queue.body));
    assert.deepEqual(queue.body, { data: [], nextCursor: null });

    const stats = await s.call('GET', `/v2/accounts/${account}/analytics`);
    assert.equal(stats.status, 200, JSON.stringify(stats.body));
    assert.deepEqual(stats.body, {
      accountId: account,
      followers: 0,
      posts: 0,
      engagement: 0,
      analytics: { views: 0, likes: 0, comments: 0 },
      scannedPosts: 0,
    });

    const { postId } = await queuePost(s, [account], { skipApproval: false });
    const analytics = await s.call('GET', `/v2/posts/${postId}/analytics`);
    assert.equal(analytics.status, 200, JSON.stringify(analytics.body));
    assert.deepEqual(analytics.body, {
      summary: {
        views: 0,
        likes: 0,
        comments: 0,
        shares: 0,
        saves: 0,
        engagementRate: 0,
        lastUpdated: null,
        postUrl: null,
        accountId: null,
        platform: null,
      },
      history: [],
      nextCursor: null,
    });

    const got = await s.call('GET', `/v2/accounts/${account}`);
    assert.equal(got.body.postsToday, 0);
    assert.equal(got.body.queueDepth, 0, 'an item awaiting approval is not in the posting queue');
  });

  test('queue order: posting first, then priority desc and queuedAt asc; final items hidden', async () => {
    const t = get();
    const s = await setup(t, 2);
    const [account, other] = s.accounts as [string, string];
    const p = async (body: Parameters<typeof queuePost>[2]) => {
      t.clock.advance(60_000);
      return (await queuePost(s, [account, other], body)).postId;
    };
    const low1 = await p({ priority: 0, caption: 'low one' });
    const high1 = await p({ priority: 5 });
    const pending = await p({ priority: 0, skipApproval: false, caption: 'needs approval' });
    const high2 = await p({ priority: 5 });
    const cancelled = await p({ priority: 9 });
    const posted = await p({ priority: 9 });
    const posting = await p({ priority: 0 });
    const at = t.clock.now().toISOString();
    await moveItem(t, cancelled, account, { status: 'cancelled' });
    // Released yesterday: not one of today's releases.
    await moveItem(t, posted, account, {
      status: 'posted',
      released_at: '2026-03-01T17:00:00.000Z',
      posted_at: '2026-03-01T17:05:00.000Z',
      post_url: 'https://platform-a.example/v/1',
    });
    // Released at 10:07Z, inside today's 08:00 slot of the global rules.
    await moveItem(t, posting, account, { status: 'posting', released_at: at });
    await t.media.idle();

    const data = await queueOf(s, account);
    assert.deepEqual(
      data.map((i) => i.postId),
      [posting, high1, high2, low1, pending],
    );
    assert.deepEqual(
      data.map((i) => i.status),
      ['posting', 'queued', 'queued', 'queued', 'pending_approval'],
    );
    const byPost = new Map(data.map((i) => [i.postId, i]));
    assert.equal(byPost.get(low1).caption, 'low one');
    assert.equal(byPost.get(high1).caption, '', 'a post without caption shows ""');
    assert.equal(byPost.get(high1).queueItemId, await itemOf(t, high1, account));
    assert.equal(byPost.get(pending).scheduledSlotStart, undefined);
    assert.equal(byPost.get(posting).scheduledSlotStart, undefined);
    assert.equal(byPost.get(high1).scheduledAfter, undefined);
    // 08:00 was used by the release at 10:07; the queue goes out at 11:00, 14:00, 17:00.
    assert.deepEqual(
      [high1, high2, low1].map((id) => byPost.get(id).scheduledSlotStart),
      ['2026-03-02T11:00:00.000Z', '2026-03-02T14:00:00.000Z', '2026-03-02T17:00:00.000Z'],
    );
    const thumb = byPost.get(high1).thumbnailUrl as string;
    assert.ok(thumb.startsWith('http://slotline.test/'), `thumbnailUrl ${thumb}`);
    const fetched = await t.app.inject({ method: 'GET', url: local(thumb) });
    assert.equal(fetched.statusCode, 200);

    // The other account's queue is its own: every item still waiting, nothing released today.
    const otherQueue = await queueOf(s, other);
    assert.equal(otherQueue.length, 7);
    assert.equal(otherQueue[0].postId, cancelled);
    assert.equal(otherQueue[0].scheduledSlotStart, '2026-03-02T11:00:00.000Z');

    const acc = await s.call('GET', `/v2/accounts/${account}`);
    assert.equal(acc.body.queueDepth, 3);
    assert.equal(acc.body.postsToday, 1, 'only the posting item was released today');
    // Lists compute both for a whole page at once, on every page.
    const page1 = await s.call('GET', '/v2/accounts?limit=1&platform=platformA');
    assert.deepEqual(
      page1.body.data.map((x: { accountId: string; postsToday: number; queueDepth: number }) => [
        x.accountId,
        x.postsToday,
        x.queueDepth,
      ]),
      [[account, 1, 3]],
    );
    const page2 = await s.call(
      'GET',
      `/v2/accounts?limit=1&platform=platformA&cursor=${encodeURIComponent(page1.body.nextCursor)}`,
    );
    assert.deepEqual(
      page2.body.data.map((x: { accountId: string; postsToday: number; queueDepth: number }) => [
        x.accountId,
        x.postsToday,
        x.queueDepth,
      ]),
      [[other, 0, 6]],
    );
  });

  test('scheduledSlotStart with an account override in a non-UTC timezone and scheduledAfter', async () => {
    const t = get();
    // 22:00 on 1 March in New York (EST, UTC-5).
    t.clock.set('2026-03-02T03:00:00.000Z');
    const co = await seedCompany(t);
    await updateCompany(t.ctx.db, t.ctx.clock, t.config.plans, co.companyId, {
      defaultTimezone: 'America/New_York',
    });
    const call = client(t, co.key);
    const [account] = (await makeActiveAccounts(t, call, 1)) as [string];
    const s: Setup = {
      call,
      companyId: co.companyId,
      accounts: [account],
      image: await readyUpload(t, call, 'image.png'),
    };
    const patched = await call('PATCH', `/v2/accounts/${account}/schedule`, {
      schedule: { windows: ['09:00', '13:00'] },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    // Released at 23:00 local on 1 March: the same UTC day as what follows, not the same local day.
    const late = await queuePost(s, [account]);
    await moveItem(t, late.postId, account, {
      status: 'posted',
      released_at: '2026-03-02T04:00:00.000Z',
      posted_at: '2026-03-02T04:10:00.000Z',
      post_url: 'https://platform-a.example/v/late',
    });

    t.clock.set(START);
    const a = await queuePost(s, [account], { priority: 2 });
    const b = await queuePost(s, [account], { priority: 1 });
    const c = await queuePost(s, [account], { priority: 0 });
    const d = await queuePost(s, [account], { priority: 0 });
    // 05:00 local: 09:00 and 13:00 local are 14:00Z and 18:00Z; make-up slots stay unused.
    let data = await queueOf(s, account);
    assert.deepEqual(
      data.map((i) => [i.postId, i.scheduledSlotStart]),
      [
        [a.postId, '2026-03-02T14:00:00.000Z'],
        [b.postId, '2026-03-02T18:00:00.000Z'],
        [c.postId, '2026-03-03T14:00:00.000Z'],
        [d.postId, '2026-03-03T18:00:00.000Z'],
      ],
    );
    let acc = await call('GET', `/v2/accounts/${account}`);
    assert.equal(acc.body.postsToday, 0, 'the 23:00 release belongs to the previous local day');
    assert.equal(acc.body.queueDepth, 4);

    // 10:00 local: the 09:00 window released `a` at 09:02, so that open window is used.
    t.clock.set('2026-03-02T15:00:00.000Z');
    await moveItem(t, a.postId, account, {
      status: 'posting',
      released_at: '2026-03-02T14:02:00.000Z',
    });
    // A legacy floor of 14:00 local holds `b` past today's 13:00 window; `c` takes that window
    // and `b`, still first in release order, goes out in tomorrow's first window.
    await t.ctx.db
      .updateTable('queue_items')
      .set({ scheduled_after: '2026-03-02T19:00:00.000Z' })
      .where('post_id', '=', b.postId)
      .execute();
    data = await queueOf(s, account);
    assert.deepEqual(
      data.map((i) => [i.postId, i.status, i.scheduledAfter, i.scheduledSlotStart]),
      [
        [a.postId, 'posting', undefined, undefined],
        [b.postId, 'queued', '2026-03-02T19:00:00.000Z', '2026-03-03T14:00:00.000Z'],
        [c.postId, 'queued', undefined, '2026-03-02T18:00:00.000Z'],
        [d.postId, 'queued', undefined, '2026-03-03T18:00:00.000Z'],
      ],
    );
    acc = await call('GET', `/v2/accounts/${account}`);
    assert.equal(acc.body.timezone, 'America/New_York');
    assert.equal(acc.body.postsToday, 1);
    assert.equal(acc.body.queueDepth, 3);
    const list = await call('GET', '/v2/accounts');
    assert.deepEqual(
      list.body.data.map((x: { postsToday: number; queueDepth: number }) => [
        x.postsToday,
        x.queueDepth,
      ]),
      [[1, 3]],
    );
    const ws = await call('GET', '/v2/workspace');
    assert.equal(ws.status, 200, JSON.stringify(ws.body));
    assert.equal(ws.body.accounts[0].postsToday, 1);
    assert.equal(ws.body.accounts[0].queueDepth, 3);
  });

  test('queue pagination walks every item once, across the posting boundary', async () => {
    const t = get();
    const s = await setup(t, 2);
    const [account, other] = s.accounts as [string, string];
    const posts: string[] = [];
    for (let i = 0; i < 9; i++) {
      // Pairs share a queuedAt so the id breaks the tie.
      if (i % 2 === 0) t.clock.advance(1000);
      posts.push((await queuePost(s, [account], { priority: i % 3 })).postId);
    }
    for (const id of posts.slice(0, 3)) {
      await moveItem(t, id, account, { status: 'posting', released_at: START });
    }
    const full = await queueOf(s, account, '?limit=100');
    assert.equal(full.length, 9);
    assert.deepEqual(
      full.slice(0, 3).map((i) => i.status),
      ['posting', 'posting', 'posting'],
    );
    for (const limit of [1, 2, 4]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; ; page++) {
        assert.ok(page <= 20, 'the walk does not end');
        const q: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await s.call('GET', `/v2/accounts/${account}/queue${q}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        seen.push(...res.body.data.map((i: { queueItemId: string }) => i.queueItemId));
        cursor = res.body.nextCursor;
        if (cursor === null) break;
        assert.equal(res.body.data.length, limit);
      }
      assert.deepEqual(
        seen,
        full.map((i) => i.queueItemId),
        `limit ${limit}`,
      );
    }
    const first = await s.call('GET', `/v2/accounts/${account}/queue?limit=1`);
    assert.equal(first.body.data.length, 1);
    const cursor = encodeURIComponent(first.body.nextCursor);
    assertApiError(
      await s.call('GET', `/v2/accounts/${other}/queue?cursor=${cursor}`),
      400,
      'invalid_cursor',
    );
    assertApiError(
      await s.call('GET', `/v2/accounts/${account}/queue?cursor=nope`),
      400,
      'invalid_cursor',
    );
    assertApiError(
      await s.call('GET', `/v2/accounts/${account}/queue?limit=101`),
      400,
      'invalid_request',
    );
    assertApiError(
      await s.call('GET', `/v2/accounts/${account}/queue?limit=0`),
      400,
      'invalid_request',
    );
    const dflt = await s.call('GET', `/v2/accounts/${account}/queue`);
    assert.equal(dflt.body.data.length, 9);
  });

  test('post analytics: summary over the latest snapshot per account, history pages', async () => {
    const t = get();
    const s = await setup(t, 2);
    const [a, b] = s.accounts as [string, string];
    const { postId } = await queuePost(s, [a, b]);
    const itemA = await itemOf(t, postId, a);
    const itemB = await itemOf(t, postId, b);
    const rows = [
      snapshot(s, postId, itemA, a, '2026-03-02T12:00:00.000Z', { views: 100, likes: 10 }),
      snapshot(s, postId, itemB, b, '2026-03-02T12:00:00.000Z', { views: 500, likes: 4 }),
      snapshot(s, postId, itemA, a, '2026-03-02T13:00:00.000Z', {
        views: 200,
        likes: 20,
        comments: 3,
        shares: 1,
        saves: 2,
      }),
      // Same instant as the one before it: the larger id is the newer.
      snapshot(s, postId, itemB, b, '2026-03-02T13:00:00.000Z', { views: 3_000_000_000 }),
    ];
    (rows[3] as PostAnalyticsTable).platform = 'platformB';
    await t.ctx.db.insertInto('post_analytics').values(rows).execute();

    const res = await s.call('GET', `/v2/posts/${postId}/analytics?limit=3`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // Latest: A 200/20/3/1/2, B 3e9 views; engaged 26 of 3,000,000,200 views.
    assert.deepEqual(res.body.summary, {
      views: 3_000_000_200,
      likes: 20,
      comments: 3,
      shares: 1,
      saves: 2,
      engagementRate: 0,
      lastUpdated: '2026-03-02T13:00:00.000Z',
      postUrl: (rows[3] as PostAnalyticsTable).post_url,
      accountId: b,
      platform: 'platformB',
    });
    assert.deepEqual(
      res.body.history.map((h: { id: string }) => h.id),
      [rows[3], rows[2], rows[1]].map((r) => r?.id),
    );
    assert.deepEqual(res.body.history[1], {
      id: rows[2]?.id,
      videoId: postId,
      accountId: a,
      platform: 'platformA',
      postUrl: rows[2]?.post_url,
      views: 200,
      likes: 20,
      comments: 3,
      shares: 1,
      saves: 2,
      collectedAt: '2026-03-02T13:00:00.000Z',
      taskId: itemA,
    });
    assert.equal(typeof res.body.nextCursor, 'string');
    const next = await s.call(
      'GET',
      `/v2/posts/${postId}/analytics?limit=3&cursor=${encodeURIComponent(res.body.nextCursor)}`,
    );
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.deepEqual(
      next.body.history.map((h: { id: string }) => h.id),
      [rows[0]?.id],
    );
    assert.equal(next.body.nextCursor, null);
    assert.deepEqual(next.body.summary, res.body.summary);

    // A smaller audience makes the rate visible: 26 / 700 = 3.714... %.
    await t.ctx.db
      .updateTable('post_analytics')
      .set({ views: 500 })
      .where('id', '=', rows[3]?.id as string)
      .execute();
    const small = await s.call('GET', `/v2/posts/${postId}/analytics`);
    assert.equal(small.body.summary.views, 700);
    assert.equal(small.body.summary.engagementRate, 3.71);
    assert.equal(small.body.summary.accountId, b);
    assert.equal(small.body.history.length, 4);
    assert.equal(small.body.nextCursor, null);
    // A cursor is bound to the post it came from.
    const other = await queuePost(s, [a]);
    assertApiError(
      await s.call(
        'GET',
        `/v2/posts/${other.postId}/analytics?cursor=${encodeURIComponent(res.body.nextCursor)}`,
      ),
      400,
      'invalid_cursor',
    );
  });

  test('account analytics come from account_stats', async () => {
    const t = get();
    const s = await setup(t, 2);
    const [account, bare] = s.accounts as [string, string];
    await t.ctx.db
      .insertInto('account_stats')
      .values({
        account_id: account,
        company_id: s.companyId,
        followers: 12_345,
        posts: 40,
        engagement: 6.25,
        views: 4_000_000_000,
        likes: 1200,
        comments: 80,
        scanned_posts: 30,
        updated_at: START,
      })
      .execute();
    const res = await s.call('GET', `/v2/accounts/${account}/analytics`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      accountId: account,
      followers: 12_345,
      posts: 40,
      engagement: 6.25,
      analytics: { views: 4_000_000_000, likes: 1200, comments: 80 },
      scannedPosts: 30,
    });
    const none = await s.call('GET', `/v2/accounts/${bare}/analytics`);
    assert.equal(none.body.followers, 0);
    assert.equal(none.body.scannedPosts, 0);
  });

  test('scopes and not-found', async () => {
    const t = get();
    const s = await setup(t, 1);
    const [account] = s.accounts as [string];
    const { postId } = await queuePost(s, [account]);
    const co = await seedCompany(t);
    const foreign = client(t, co.key);
    assertApiError(await foreign('GET', `/v2/accounts/${account}/queue`), 404, 'account_not_found');
    assertApiError(
      await foreign('GET', `/v2/accounts/${account}/analytics`),
      404,
      'account_not_found',
    );
    assertApiError(await foreign('GET', `/v2/posts/${postId}/analytics`), 404, 'post_not_found');
    assertApiError(await s.call('GET', '/v2/accounts/acc_nope/queue'), 404, 'account_not_found');
    assertApiError(await s.call('GET', '/v2/posts/pst_nope/analytics'), 404, 'post_not_found');

    const reader = client(t, await co.keyWith(['posts:read']));
    const analyst = client(t, await co.keyWith(['analytics:read']));
    assertApiError(
      await analyst('GET', `/v2/accounts/${account}/queue`),
      403,
      'insufficient_scope',
      { includes: 'posts:read' },
    );
    assertApiError(
      await reader('GET', `/v2/posts/${postId}/analytics`),
      403,
      'insufficient_scope',
      { includes: 'analytics:read' },
    );
    assertApiError(
      await reader('GET', `/v2/accounts/${account}/analytics`),
      403,
      'insufficient_scope',
      { includes: 'analytics:read' },
    );
  });
});
