// An account's analytics page through HTTP on both databases: the designed empty state,
// the SPEC 2.8 figures as the worker reported them, its posts' totals day by day in the
// reader's timezone (chart and table), other accounts' and companies' figures left out,
// another company's account answering like an unknown one, and the link from the accounts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../../helpers/app.ts';
import { browser, pageShape, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { readyUpload, type CallFn } from '../../helpers/posts.ts';
import { storeAccountStats, storeSnapshot } from '../../../src/modules/analytics/index.ts';
import { dailyTotals } from '../../../src/pages/company/account-analytics.pages.ts';
import { clockface } from '../../../src/pages/company/time.ts';
import type { UserRole } from '../../../src/db/types.ts';

const START = '2026-03-02T10:00:00.000Z';
let ips = 0;

async function as(t: TestApp, companyId: string, role: UserRole): Promise<Browser> {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.18.0.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return b;
}

async function account(call: CallFn, username: string): Promise<string> {
  const res = await call('POST', '/v2/accounts', validAccount({ username }));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.accountId;
}

/** A post to the accounts; answers the item id of each account. */
async function post(t: TestApp, call: CallFn, accountIds: string[]) {
  const image = await readyUpload(t, call, 'image.png');
  const res = await call('POST', '/v2/posts', { media: [image], accountIds, skipApproval: true });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const items = await t.ctx.db
    .selectFrom('queue_items')
    .select(['id', 'account_id'])
    .where('post_id', '=', res.body.postId)
    .execute();
  return {
    postId: res.body.postId as string,
    item: new Map(items.map((i) => [i.account_id, i.id])),
  };
}

let snaps = 0;
async function snapshot(
  t: TestApp,
  companyId: string,
  p: { postId: string; item: Map<string, string> },
  accountId: string,
  at: string,
  views: number,
  likes: number,
) {
  await storeSnapshot(
    t.ctx.db,
    {
      id: `snp_acct_${++snaps}`,
      company_id: companyId,
      post_id: p.postId,
      queue_item_id: p.item.get(accountId) as string,
      account_id: accountId,
      platform: 'platformA',
      post_url: null,
      views,
      likes,
      comments: 1,
      shares: 1,
      saves: 0,
      collected_at: at,
    },
    at,
  );
}

/** The table's rows: day, then the figures as shown. */
function tableRows(html: string): string[][] {
  const body = /<details class="figures-table">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1];
  assert.ok(body, 'the figures table');
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] as string).matchAll(/<(?:th|td)[^>]*>([\s\S]*?)<\/(?:th|td)>/g)].map((c) =>
      (c[1] as string)
        .replace(/<span class="cell-label">[^<]*<\/span>/, '')
        .replace(/<[^>]+>/g, ''),
    ),
  );
}

describeEachDialect('dashboard account analytics', (get) => {
  test('an account without figures shows the designed empty state', async () => {
    const t = get();
    t.clock.set(START);
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const acc = await account(call, 'quiet.one');
    const b = await as(t, co.companyId, 'viewer');
    const res = await b.get(`/dashboard/accounts/${acc}/analytics`);
    assert.equal(res.status, 200);
    assert.match(res.body, /<title>Analytics of @quiet\.one · Slotline<\/title>/);
    assert.match(res.body, /No account figures yet/);
    assert.match(res.body, /No post figures yet: they arrive after @quiet\.one’s posts go out/);
    assert.doesNotMatch(res.body, /<svg class="chart"/);
    assert.doesNotMatch(res.body, /figures-table/);
    assert.match(res.body, new RegExp(`href="/dashboard/posts\\?account=${acc}"`));
    assert.match(
      res.body,
      new RegExp(
        `href="/dashboard/exports/posts\\.csv\\?account=${acc}" hx-boost="false" download`,
      ),
    );
    // The accounts list links to it.
    const list = await b.get('/dashboard/accounts');
    assert.ok(list.body.includes(`/dashboard/accounts/${acc}/analytics`));
  });

  test('the figures as reported and the posts’ totals by day, in the reader’s zone', async () => {
    const t = get();
    t.clock.set(START);
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const acc = await account(call, 'busy.one');
    const other = await account(call, 'other.one');
    const first = await post(t, call, [acc, other]);
    const second = await post(t, call, [acc]);
    await storeAccountStats(t.ctx.db, {
      account_id: acc,
      company_id: co.companyId,
      followers: 12_345,
      posts: 42,
      engagement: 3.75,
      views: 98_765,
      likes: 4_321,
      comments: 210,
      scanned_posts: 30,
      updated_at: '2026-03-03T09:30:00.000Z',
    });
    // New York is five hours behind: 03:00Z on the 3rd is still the 2nd there.
    await snapshot(t, co.companyId, first, acc, '2026-03-02T12:00:00.000Z', 100, 10);
    await snapshot(t, co.companyId, first, acc, '2026-03-03T03:00:00.000Z', 300, 20);
    await snapshot(t, co.companyId, second, acc, '2026-03-03T15:00:00.000Z', 50, 5);
    await snapshot(t, co.companyId, first, acc, '2026-03-04T15:00:00.000Z', 500, 30);
    // Another account's figures are not this account's.
    await snapshot(t, co.companyId, first, other, '2026-03-03T15:00:00.000Z', 9_999, 999);
    // Nor another company's.
    const stranger = await seedCompany(t);
    const strangerCall = client(t, stranger.key);
    const theirs = await account(strangerCall, 'busy.one');
    const theirPost = await post(t, strangerCall, [theirs]);
    await snapshot(t, stranger.companyId, theirPost, theirs, '2026-03-03T15:00:00.000Z', 7_777, 7);

    const b = await as(t, co.companyId, 'viewer');
    b.cookies.set('slotline_tz', encodeURIComponent('America/New_York'));
    const res = await b.get(`/dashboard/accounts/${acc}/analytics`);
    assert.equal(res.status, 200, res.body);
    assert.match(res.body, /<span class="figure">12,345<\/span><span class="label">followers/);
    assert.match(
      res.body,
      /<span class="figure">42<\/span><span class="label">posts on the platform/,
    );
    assert.match(res.body, /<span class="figure">3\.75 %<\/span><span class="label">engagement/);
    assert.match(res.body, /<span class="figure">98,765<\/span><span class="label">views/);
    assert.match(res.body, /<span class="figure">30<\/span><span class="label">posts scanned/);
    assert.match(res.body, /<time datetime="2026-03-03T09:30:00.000Z">3 Mar 2026, 04:30<\/time>/);
    assert.match(
      res.body,
      /<svg class="chart"[^>]*role="img" aria-labelledby="account-chart-title"/,
    );
    assert.equal((res.body.match(/<polyline /g) ?? []).length, 3);
    assert.match(res.body, /Totals of the 2 posts with figures/);
    assert.match(
      res.body,
      /550 views, 35 likes, 2 comments, 2 shares, 0 saves; engagement 7\.09 %/,
    );
    assert.ok(!res.body.includes('9,999') && !res.body.includes('7,777'));
    // Newest day first; each day the latest snapshot of each post so far.
    assert.deepEqual(tableRows(res.body), [
      ['4 Mar 2026', '550', '35', '2', '2', '0', '7.09', '2'],
      ['3 Mar 2026', '350', '25', '2', '2', '0', '8.29', '2'],
      ['2 Mar 2026', '300', '20', '1', '1', '0', '7.33', '1'],
    ]);

    // In UTC the early snapshot of the 3rd is a day of its own.
    const utc = await as(t, co.companyId, 'viewer');
    utc.cookies.set('slotline_tz', 'UTC');
    const rows = tableRows((await utc.get(`/dashboard/accounts/${acc}/analytics`)).body);
    assert.deepEqual(
      rows.map((r) => r[0]),
      ['4 Mar 2026', '3 Mar 2026', '2 Mar 2026'],
    );
    assert.deepEqual(rows[2], ['2 Mar 2026', '100', '10', '1', '1', '0', '12', '1']);
  });

  test('another company’s account answers like an unknown one', async () => {
    const t = get();
    t.clock.set(START);
    const owner = await seedCompany(t);
    const acc = await account(client(t, owner.key), 'private.one');
    const other = await seedCompany(t);
    const b = await as(t, other.companyId, 'admin');
    const theirs = await b.get(`/dashboard/accounts/${acc}/analytics`);
    const unknown = await b.get('/dashboard/accounts/acc_doesnotexist/analytics');
    assert.equal(theirs.status, 404);
    assert.equal(unknown.status, 404);
    assert.equal(
      pageShape(theirs.body),
      pageShape(unknown.body).replaceAll('acc_doesnotexist', acc),
    );
    assert.ok(!theirs.body.includes('private.one'));
    const anonymous = browser(t, '198.18.0.251');
    const out = await anonymous.get(`/dashboard/accounts/${acc}/analytics`);
    assert.equal(out.status, 303);
    assert.match(out.location ?? '', /^\/dashboard\/sign-in\?next=/);
  });

  test('daily totals count each item’s latest snapshot once', async () => {
    const clock = clockface('UTC');
    const s = (id: string, taskId: string, at: string, views: number) => ({
      id,
      taskId,
      views,
      likes: 0,
      comments: 0,
      shares: 0,
      saves: 0,
      collectedAt: at,
    });
    const days = await dailyTotals(
      [
        s('1', 'a', '2026-03-01T10:00:00.000Z', 10),
        s('2', 'a', '2026-03-01T11:00:00.000Z', 15),
        s('3', 'b', '2026-03-01T12:00:00.000Z', 5),
        s('4', 'a', '2026-03-03T12:00:00.000Z', 40),
      ],
      clock,
    );
    assert.deepEqual(
      days.map((d) => [d.day, d.views, d.posts]),
      [
        ['2026-03-01', 20, 2],
        ['2026-03-03', 45, 2],
      ],
    );
    assert.deepEqual(await dailyTotals([], clock), []);
  });
});
