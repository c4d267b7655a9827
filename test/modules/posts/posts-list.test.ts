// Listing posts on both databases (SPEC 4.2 GET /v2/posts, 8 pagination;
// DECISIONS 7 cursors; research 8.C1-C3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError } from '../../helpers/api-error.ts';
import { makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { newId } from '../../../src/lib/ids.ts';
import { refreshPostStatus } from '../../../src/modules/items/items.state.ts';
import { derivePostStatus, POST_STATUSES } from '../../../src/modules/items/index.ts';
import type { PostsTable, QueueItemsTable } from '../../../src/db/types.ts';
import { queueItemRow, videoPostRow } from '../../../bench/due-accounts.ts';

interface Page {
  ids: string[];
  pages: number;
}

/** Walks every page of `query`, asserting page sizes; returns the post ids in order. */
async function walk(
  call: CallFn,
  query: string,
  limit: number,
  between?: () => Promise<void>,
): Promise<Page> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (cursor) params.set('cursor', cursor);
    const res = await call('GET', `/v2/posts?${params.toString()}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    pages++;
    assert.ok(res.body.data.length <= limit, `page of ${res.body.data.length} > ${limit}`);
    cursor = res.body.nextCursor;
    if (cursor !== null) assert.equal(res.body.data.length, limit, 'short page with a cursor');
    ids.push(...res.body.data.map((p: { postId: string }) => p.postId));
    if (between) await between();
    assert.ok(pages < 1000, 'walk does not end');
  } while (cursor !== null);
  return { ids, pages };
}

async function listIds(call: CallFn, query: string): Promise<string[]> {
  return (await walk(call, query, 100)).ids;
}

async function setup(t: TestApp) {
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const accounts = await makeAccounts(call, 3);
  const video = await readyUpload(t, call, 'h264-aac-faststart.mp4');
  // Responses are compared whole, thumbnailUrl included: let the thumbnail exist first.
  await t.media.idle();
  return { co, call, accounts, video };
}

const ITEM_STATUSES = [
  'processing',
  'pending_approval',
  'queued',
  'posting',
  'posted',
  'failed',
  'cancelled',
] as const;
const GROUPS = ['tag:a', 'tag:b', 'template:t1'] as const;
const BASE_MS = Date.parse('2026-01-01T00:00:00.000Z');

interface Seed {
  t: number;
  items: { acc: number; status: (typeof ITEM_STATUSES)[number] }[];
  groups: string[];
}

interface Inserted {
  id: string;
  createdAt: string;
  status: string;
  accounts: Set<string>;
  groups: Set<string>;
}

/** Inserts posts straight into the database: many, fast, with chosen timestamps. */
async function insertPosts(
  t: TestApp,
  companyId: string,
  accounts: string[],
  seeds: Seed[],
): Promise<Inserted[]> {
  const out: Inserted[] = [];
  const posts: PostsTable[] = [];
  const items: QueueItemsTable[] = [];
  const groups: { post_id: string; company_id: string; group_id: string; created_at: string }[] =
    [];
  for (const s of seeds) {
    const ms = BASE_MS + s.t * 1000;
    const at = new Date(ms).toISOString();
    const id = newId('pst', ms);
    const status = derivePostStatus(s.items);
    posts.push(videoPostRow(id, companyId, at, { status }));
    for (const it of s.items) {
      items.push(
        queueItemRow(newId('qit'), companyId, id, accounts[it.acc] as string, at, {
          status: it.status,
        }),
      );
    }
    for (const g of s.groups)
      groups.push({ post_id: id, company_id: companyId, group_id: g, created_at: at });
    out.push({
      id,
      createdAt: at,
      status,
      accounts: new Set(s.items.map((i) => accounts[i.acc] as string)),
      groups: new Set(s.groups),
    });
  }
  if (posts.length) await t.ctx.db.insertInto('posts').values(posts).execute();
  if (items.length) await t.ctx.db.insertInto('queue_items').values(items).execute();
  if (groups.length) await t.ctx.db.insertInto('post_content_groups').values(groups).execute();
  return out;
}

const newestFirst = (a: Inserted, b: Inserted) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

const seedArb: fc.Arbitrary<Seed> = fc.record({
  t: fc.integer({ min: 0, max: 5 }),
  items: fc.uniqueArray(
    fc.record({ acc: fc.integer({ min: 0, max: 2 }), status: fc.constantFrom(...ITEM_STATUSES) }),
    { selector: (i) => i.acc, maxLength: 3 },
  ),
  groups: fc.subarray([...GROUPS]),
});

/** Each filter is present about a third of the time, so most walks have matches. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: arb, weight: 1 });

const filterArb = fc.record({
  acc: sometimes(fc.integer({ min: 0, max: 3 })),
  status: sometimes(fc.constantFrom(...POST_STATUSES)),
  since: sometimes(fc.integer({ min: 0, max: 6 })),
  group: sometimes(fc.constantFrom(...GROUPS, 'tag:none', 'untagged')),
});

describeEachDialect('posts list', (get) => {
  test('filters alone and combined; newest first; the same post view as GET', async () => {
    const t = get();
    const { co, call, accounts, video } = await setup(t);
    const [a, b, c] = accounts as [string, string, string];
    const tag1 = (await call('POST', '/v2/content-tags', { name: 'One' })).body;
    const tag2 = (await call('POST', '/v2/content-tags', { name: 'Two' })).body;
    const create = async (body: object) => {
      t.clock.advance(60_000);
      const r = await call('POST', '/v2/posts', { media: [video], ...body });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return r.body.postId as string;
    };
    const p1 = await create({ accountIds: [a], contentGroupIds: [tag1.contentGroupId] });
    const p2 = await create({
      accountIds: [a, b],
      skipApproval: true,
      contentGroupIds: [tag1.contentGroupId, tag2.contentGroupId],
    });
    const p3 = await create({ accountIds: [c] });
    const p4 = await create({ accountIds: [b] });
    await t.ctx.db
      .insertInto('post_content_groups')
      .values({
        post_id: p4,
        company_id: co.companyId,
        group_id: 'template:tpl_x',
        created_at: t.clock.now().toISOString(),
      })
      .execute();
    const p5 = await create({ accountIds: [a], skipApproval: true });
    assert.equal((await call('DELETE', `/v2/posts/${p5}`)).status, 200);
    // A draft: a post whose items are gone.
    const p6 = await create({ accountIds: [c], contentGroupIds: [tag2.contentGroupId] });
    await t.ctx.db.deleteFrom('queue_items').where('post_id', '=', p6).execute();
    await refreshPostStatus(t.ctx.db, p6, t.clock.now().toISOString());
    const sinceP4 = (await call('GET', `/v2/posts/${p4}`)).body.createdAt as string;

    // Another company's posts never show.
    const other = await setup(t);
    await other.call('POST', '/v2/posts', { media: [other.video], accountIds: other.accounts });

    const all = [p6, p5, p4, p3, p2, p1];
    assert.deepEqual(await listIds(call, ''), all);
    const cases: [string, string[]][] = [
      [`accountId=${a}`, [p5, p2, p1]],
      [`accountId=${b}`, [p4, p2]],
      [`accountId=${c}`, [p3]],
      ['status=pending_approval', [p4, p3, p1]],
      ['status=queued', [p2]],
      ['status=cancelled', [p5]],
      ['status=draft', [p6]],
      ['status=posted', []],
      [`since=${encodeURIComponent(sinceP4)}`, [p6, p5, p4]],
      [`contentGroupId=${tag1.contentGroupId}`, [p2, p1]],
      [`contentGroupId=${tag2.contentGroupId}`, [p6, p2]],
      ['contentGroupId=template:tpl_x', [p4]],
      ['contentGroupId=tag:tag_unknown', []],
      ['contentGroupId=untagged', [p5, p3]],
      [`accountId=${a}&status=pending_approval`, [p1]],
      [`accountId=${a}&contentGroupId=${tag1.contentGroupId}`, [p2, p1]],
      [`accountId=${b}&contentGroupId=untagged`, []],
      [`accountId=${a}&contentGroupId=untagged`, [p5]],
      [`status=pending_approval&contentGroupId=untagged`, [p3]],
      [`status=pending_approval&since=${encodeURIComponent(sinceP4)}`, [p4]],
      [
        `accountId=${a}&status=queued&since=${encodeURIComponent(sinceP4)}&contentGroupId=${tag2.contentGroupId}`,
        [],
      ],
      [
        `accountId=${a}&status=queued&contentGroupId=${tag2.contentGroupId}&since=2020-01-01T00:00:00%2B02:00`,
        [p2],
      ],
    ];
    for (const [query, expected] of cases) {
      assert.deepEqual(await listIds(call, query), expected, query);
      // The same answer one post per page.
      assert.deepEqual((await walk(call, query, 1)).ids, expected, `${query} limit=1`);
    }
    // Default page size 25; items are the post as GET shows it.
    const page = await call('GET', '/v2/posts');
    assert.equal(page.status, 200);
    assert.equal(page.body.nextCursor, null);
    for (const p of page.body.data) {
      const one = await call('GET', `/v2/posts/${p.postId}`);
      assert.deepEqual(p, one.body);
    }
    // An unknown account, or another company's, is named rather than listed empty.
    assertApiError(await call('GET', '/v2/posts?accountId=acc_nope'), 404, 'account_not_found');
    assertApiError(
      await call('GET', `/v2/posts?accountId=${other.accounts[0]}`),
      404,
      'account_not_found',
    );
  });

  test('default limit is 25', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const accounts = await makeAccounts(call, 1);
    const seeds = Array.from({ length: 26 }, (_, i) => ({ t: i, items: [], groups: [] }));
    const posts = await insertPosts(t, co.companyId, accounts, seeds);
    const first = await call('GET', '/v2/posts');
    assert.equal(first.body.data.length, 25);
    assert.equal(first.body.data[0].postId, posts[25]?.id);
    assert.equal(typeof first.body.nextCursor, 'string');
    const second = await call(
      'GET',
      `/v2/posts?cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    assert.deepEqual(
      second.body.data.map((p: { postId: string }) => p.postId),
      [posts[0]?.id],
    );
    assert.equal(second.body.nextCursor, null);
  });

  test('property: any filters and any limit walk every matching post exactly once, newest first', async () => {
    const t = get();
    await fc.assert(
      fc.asyncProperty(
        fc.array(seedArb, { maxLength: 40, size: 'max' }),
        filterArb,
        fc.oneof(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 100 })),
        async (seeds, filter, limit) => {
          const co = await seedCompany(t);
          const call = client(t, co.key);
          const accounts = await makeAccounts(call, 4);
          const posts = await insertPosts(t, co.companyId, accounts, seeds);
          const params = new URLSearchParams();
          const account = filter.acc === undefined ? undefined : (accounts[filter.acc] as string);
          if (account) params.set('accountId', account);
          if (filter.status) params.set('status', filter.status);
          const since =
            filter.since === undefined
              ? undefined
              : new Date(BASE_MS + filter.since * 1000).toISOString();
          if (since) params.set('since', since);
          if (filter.group) params.set('contentGroupId', filter.group);
          const expected = posts
            .filter((p) => !account || p.accounts.has(account))
            .filter((p) => !filter.status || p.status === filter.status)
            .filter((p) => !since || p.createdAt >= since)
            .filter(
              (p) =>
                !filter.group ||
                (filter.group === 'untagged' ? p.groups.size === 0 : p.groups.has(filter.group)),
            )
            .sort(newestFirst)
            .map((p) => p.id);
          const { ids, pages } = await walk(call, params.toString(), limit);
          assert.deepEqual(ids, expected);
          assert.equal(pages, Math.max(1, Math.ceil(expected.length / limit)));
        },
      ),
      { numRuns: 60 },
    );
  });

  test('posts created between pages never repeat and never hide the posts that were there', async () => {
    const t = get();
    const { call, accounts, video } = await setup(t);
    const create = async () => {
      const r = await call('POST', '/v2/posts', { media: [video], accountIds: [accounts[0]] });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return r.body.postId as string;
    };
    const existing: string[] = [];
    for (let i = 0; i < 9; i++) {
      // Several posts share a timestamp, so the id breaks ties.
      if (i % 3 === 0) t.clock.advance(1000);
      existing.push(await create());
    }
    // Posts created in one millisecond tie on createdAt and are ordered by id.
    const before = await listIds(call, '');
    assert.deepEqual([...before].sort(), [...existing].sort());
    let turn = 0;
    const added: string[] = [];
    const { ids } = await walk(call, '', 2, async () => {
      // New posts both at the same instant as the last one seen and later.
      if (turn++ % 2 === 1) t.clock.advance(500);
      added.push(await create());
    });
    assert.equal(new Set(ids).size, ids.length, 'no duplicates');
    // Every post of the start, in order; a new post tying on the instant of the
    // last row seen may also show up, never twice.
    assert.deepEqual(
      ids.filter((id) => before.includes(id)),
      before,
    );
    for (const id of ids) assert.ok(before.includes(id) || added.includes(id), `${id} unknown`);
    const filtered = await walk(call, `accountId=${accounts[0]}&status=pending_approval`, 4, () =>
      create().then(() => undefined),
    );
    assert.equal(new Set(filtered.ids).size, filtered.ids.length, 'no duplicates');
    for (const id of existing) assert.ok(filtered.ids.includes(id), `${id} was hidden`);
  });

  test('invalid cursors: tampered, truncated, other filters, other company, other list, expired', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const accounts = await makeAccounts(call, 2);
    const seeds = Array.from({ length: 5 }, (_, i) => ({
      t: i,
      items: [{ acc: 0, status: 'queued' as const }],
      groups: ['tag:a'],
    }));
    await insertPosts(t, co.companyId, accounts, seeds);
    const first = await call('GET', '/v2/posts?limit=2&status=queued&contentGroupId=tag:a');
    const cursor = first.body.nextCursor as string;
    assert.equal(typeof cursor, 'string');
    const next = (q: string, c: string = cursor) =>
      call('GET', `/v2/posts?limit=2&cursor=${encodeURIComponent(c)}${q}`);
    assert.equal((await next('&status=queued&contentGroupId=tag:a')).status, 200);
    const bad = async (q: string, c: string, why: string) => {
      const res = await next(q, c);
      assertApiError(res, 400, 'invalid_cursor');
      assert.ok(!('data' in (res.body ?? {})), why);
    };
    const same = '&status=queued&contentGroupId=tag:a';
    await bad('', cursor, 'no filters');
    await bad('&status=queued', cursor, 'one filter dropped');
    await bad('&status=pending_approval&contentGroupId=tag:a', cursor, 'another status');
    await bad(`${same}&accountId=${accounts[0]}`, cursor, 'a filter added');
    await bad(`${same}&since=2020-01-01T00:00:00Z`, cursor, 'since added');
    // A filter value that spells a separator and another filter is still one filter.
    await bad(
      `&contentGroupId=${encodeURIComponent('tag:a\nstatus=queued')}`,
      cursor,
      'a filter smuggled inside another',
    );
    await bad(same, cursor.slice(0, -1), 'truncated');
    await bad(
      same,
      `${cursor.slice(0, 3)}${cursor[3] === 'A' ? 'B' : 'A'}${cursor.slice(4)}`,
      'payload',
    );
    await bad(same, 'not-a-cursor', 'garbage');
    // Another company with the same filters.
    const other = client(t, (await seedCompany(t)).key);
    assertApiError(
      await other('GET', `/v2/posts?limit=2&cursor=${encodeURIComponent(cursor)}${same}`),
      400,
      'invalid_cursor',
    );
    // A cursor of another list.
    await makeAccounts(call, 2);
    const accountsPage = await call('GET', '/v2/accounts?limit=1');
    await bad('', accountsPage.body.nextCursor as string, 'accounts cursor');
    // Random byte mutations never give data or a 500.
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: cursor.length - 1 }),
        fc.integer({ min: 33, max: 126 }),
        async (at, code) => {
          const mutated = `${cursor.slice(0, at)}${String.fromCharCode(code)}${cursor.slice(at + 1)}`;
          fc.pre(mutated !== cursor);
          const res = await next(same, mutated);
          assert.ok(
            res.status === 400 &&
              ['invalid_cursor', 'invalid_request'].includes(res.body.error.code),
            `${res.status} ${JSON.stringify(res.body)}`,
          );
        },
      ),
      { numRuns: 200 },
    );
    // Expired after a day.
    t.clock.advance(24 * 3600_000 + 1);
    await bad(same, cursor, 'expired');
  });

  test('limit, since, status and contentGroupId are validated', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    for (const limit of ['0', '101', '-1', '2.5', 'ten', '']) {
      assertApiError(await call('GET', `/v2/posts?limit=${limit}`), 400, 'invalid_request', {
        includes: 'limit',
      });
    }
    assert.equal((await call('GET', '/v2/posts?limit=100')).status, 200);
    assert.equal((await call('GET', '/v2/posts?limit=1')).status, 200);
    for (const since of [
      'yesterday',
      '2026-13-01T00:00:00Z',
      '2026-03-01',
      '2026-03-01T25:00:00Z',
    ]) {
      assertApiError(
        await call('GET', `/v2/posts?since=${encodeURIComponent(since)}`),
        400,
        'invalid_request',
        { includes: 'since' },
      );
    }
    assertApiError(await call('GET', '/v2/posts?status=live'), 400, 'invalid_request', {
      includes: 'status',
    });
    for (const g of ['tag:a:b', 'tag', 'group:x', `tag:${'x'.repeat(240)}`]) {
      assertApiError(
        await call('GET', `/v2/posts?contentGroupId=${encodeURIComponent(g)}`),
        400,
        'invalid_request',
        { includes: 'contentGroupId' },
      );
    }
    assertApiError(await call('GET', '/v2/posts?accountId='), 400, 'invalid_request', {
      includes: 'accountId',
    });
    assertApiError(await call('GET', '/v2/posts?cursor='), 400, 'invalid_request', {
      includes: 'cursor',
    });
    assertApiError(await call('GET', '/v2/posts?colour=red'), 400, 'invalid_request', {
      includes: 'colour',
    });
  });
});
