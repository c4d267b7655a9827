// The dashboard's posts, accounts and schedule pages through HTTP on both databases: what a
// viewer sees, the list filters, roles, CSRF, other companies' ids, and that each change made
// in the dashboard is what the API then answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import {
  browser,
  hidden,
  signIn,
  userIn,
  type Browser,
  pageShape,
} from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload, setAccountStatus, type CallFn } from '../../helpers/posts.ts';
import { storeSnapshot } from '../../../src/modules/analytics/index.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;

/** A signed-in browser of a fresh user of the company, from its own address. */
async function as(t: TestApp, companyId: string, role: UserRole): Promise<Browser> {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${++ips % 250}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return b;
}

async function csrf(b: Browser): Promise<string> {
  return hidden((await b.get('/dashboard/accounts')).body, '_csrf');
}

interface Seeded {
  companyId: string;
  call: CallFn;
  accounts: [string, string];
  /** Queued to the first account, untagged. */
  queued: string;
  /** Waiting for approval on the second account, tagged. */
  pending: string;
  tagGroup: string;
}

async function seed(t: TestApp): Promise<Seeded> {
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const [a, b] = (await makeAccounts(call, 2)) as [string, string];
  const image = await readyUpload(t, call, 'image.png');
  const queued = await call('POST', '/v2/posts', {
    media: [image],
    accountIds: [a],
    skipApproval: true,
    caption: 'Queued caption',
  });
  assert.equal(queued.status, 201, JSON.stringify(queued.body));
  // Newest first: the second post is a second younger.
  t.clock.advance(1000);
  const pending = await call('POST', '/v2/posts', {
    media: [image],
    accountIds: [b],
    caption: 'Pending caption',
  });
  assert.equal(pending.status, 201, JSON.stringify(pending.body));
  const tag = await call('POST', '/v2/content-tags', { name: `Tag ${Math.random()}` });
  assert.equal(tag.status, 201, JSON.stringify(tag.body));
  const tagged = await call('PATCH', `/v2/posts/${pending.body.postId}`, {
    contentGroupIds: [tag.body.contentGroupId],
  });
  assert.equal(tagged.status, 200, JSON.stringify(tagged.body));
  return {
    companyId: co.companyId,
    call,
    accounts: [a, b],
    queued: queued.body.postId,
    pending: pending.body.postId,
    tagGroup: tag.body.contentGroupId,
  };
}

/** The post ids a list page shows, in order. */
function postsShown(html: string): string[] {
  return [...html.matchAll(/data-post="([^"]+)"/g)].map((m) => m[1] as string);
}

describeEachDialect('dashboard posts and accounts', (get) => {
  test('a viewer sees the posts, a post, the accounts and the schedules', async () => {
    const t = get();
    const s = await seed(t);
    const b = await as(t, s.companyId, 'viewer');

    const list = await b.get('/dashboard/posts');
    assert.equal(list.status, 200);
    assert.deepEqual(postsShown(list.body), [s.pending, s.queued]);
    assert.match(list.body, /Queued caption/);
    assert.match(list.body, /aria-current="page">Posts/);

    const detail = await b.get(`/dashboard/posts/${s.queued}`);
    assert.equal(detail.status, 200);
    assert.match(detail.body, new RegExp(`data-account="${s.accounts[0]}"`));
    assert.match(detail.body, /status-queued/);
    assert.match(detail.body, /No analytics yet/);
    // Nothing is planned for an account its worker has not set up; once it is active, the
    // item's window shows.
    assert.match(detail.body, /<td class="slot"><span class="cell-label">Window: <\/span>—<\/td>/);
    await setAccountStatus(t, [s.accounts[0]]);
    const planned = await b.get(`/dashboard/posts/${s.queued}`);
    assert.match(
      planned.body,
      /<td class="slot"><span class="cell-label">Window: <\/span><time datetime="[^"]+Z">[^<]+<\/time> <span class="meta">planned</,
    );

    const accounts = await b.get('/dashboard/accounts');
    assert.equal(accounts.status, 200);
    for (const id of s.accounts) assert.match(accounts.body, new RegExp(`data-account="${id}"`));
    assert.match(accounts.body, /pending setup/);
    assert.match(accounts.body, /UTC/);
    // A viewer gets no buttons that would only be refused.
    assert.doesNotMatch(accounts.body, /New account|>Pause</);

    const schedule = await b.get(`/dashboard/accounts/${s.accounts[0]}/schedule`);
    assert.equal(schedule.status, 200);
    assert.match(schedule.body, /08:00, 11:00, 14:00, 17:00/);
    assert.doesNotMatch(schedule.body, /Save schedule/);
    assert.equal((await b.get('/dashboard/schedule')).status, 200);
  });

  test('the list filters by status, account and untagged; a bad cursor starts over', async () => {
    const t = get();
    const s = await seed(t);
    const b = await as(t, s.companyId, 'viewer');
    const shown = async (query: string) => {
      const res = await b.get(`/dashboard/posts?${query}`);
      assert.equal(res.status, 200, res.body);
      return postsShown(res.body);
    };
    assert.deepEqual(await shown('status=queued'), [s.queued]);
    assert.deepEqual(await shown('status=pending_approval'), [s.pending]);
    assert.deepEqual(await shown(`account=${s.accounts[1]}`), [s.pending]);
    assert.deepEqual(await shown('tag=untagged'), [s.queued]);
    assert.deepEqual(await shown(`tag=${encodeURIComponent(s.tagGroup)}`), [s.pending]);
    assert.deepEqual(await shown('status=queued&tag=untagged&account='), [s.queued]);
    assert.deepEqual(await shown('status=posted'), []);
    // The filter form keeps what was chosen.
    const kept = await b.get('/dashboard/posts?status=queued');
    assert.match(kept.body, /<option value="queued" selected>/);

    const bad = await b.get('/dashboard/posts?status=queued&cursor=forged');
    assert.equal(bad.status, 303);
    assert.equal(bad.location, '/dashboard/posts?status=queued');
    assert.equal((await b.get('/dashboard/posts?status=nonsense')).status, 400);
  });

  test('another company’s post or account answers the same 404 as an unknown id', async () => {
    const t = get();
    const s = await seed(t);
    const other = await seedCompany(t);
    const b = await as(t, other.companyId, 'admin');
    const token = await csrf(b);
    const pairs: [string, string][] = [
      [`/dashboard/posts/${s.queued}`, '/dashboard/posts/pst_unknown'],
      [`/dashboard/accounts/${s.accounts[0]}/schedule`, '/dashboard/accounts/acc_unknown/schedule'],
    ];
    for (const [theirs, unknown] of pairs) {
      const a = await b.get(theirs);
      const u = await b.get(unknown);
      assert.equal(a.status, 404);
      assert.equal(pageShape(a.body), pageShape(u.body));
    }
    for (const path of ['pause', 'resume', 'schedule']) {
      const form = { _csrf: token, window: '08:00' };
      const a = await b.post(`/dashboard/accounts/${s.accounts[0]}/${path}`, form);
      const u = await b.post(`/dashboard/accounts/acc_unknown/${path}`, form);
      assert.equal(a.status, 404, path);
      assert.equal(pageShape(a.body), pageShape(u.body));
    }
    const account = await s.call('GET', `/v2/accounts/${s.accounts[0]}`);
    assert.equal(account.body.status, 'pending_setup');
    const theirPosts = await b.get(`/dashboard/posts?account=${s.accounts[0]}`);
    assert.equal(theirPosts.status, 404);
  });

  test('viewers may not create, pause or change schedules', async () => {
    const t = get();
    const s = await seed(t);
    const b = await as(t, s.companyId, 'viewer');
    const token = await csrf(b);
    const [a] = s.accounts;
    assert.equal((await b.get('/dashboard/accounts/new')).status, 403);
    const refused = [
      await b.post('/dashboard/accounts', { _csrf: token, username: 'viewer_made' }),
      await b.post(`/dashboard/accounts/${a}/pause`, { _csrf: token }),
      await b.post(`/dashboard/accounts/${a}/schedule`, { _csrf: token, window: '08:00' }),
      await b.post('/dashboard/schedule', { _csrf: token, window: '08:00' }),
    ];
    for (const res of refused) {
      assert.equal(res.status, 403);
      assert.match(res.body, /needs the editor role/);
    }
    assert.equal((await s.call('GET', `/v2/accounts/${a}`)).body.status, 'pending_setup');
    assert.equal((await s.call('GET', `/v2/accounts/${a}/schedule`)).body.schedule, null);
    assert.equal((await s.call('GET', '/v2/accounts')).body.data.length, 2);
  });

  test('an editor creates an account, then pauses and resumes it', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const b = await as(t, co.companyId, 'editor');
    const form = hidden((await b.get('/dashboard/accounts/new')).body, '_csrf');
    const fields = {
      _csrf: form,
      platform: 'platformB',
      username: '@made_here',
      displayName: 'Made Here',
      bio: 'Made in the dashboard',
      profilePictureUrl: 'https://example.com/me.png',
      bioUrl: '',
      searchTerms: 'cooking\nbaking',
    };

    const tooMany = await b.post('/dashboard/accounts', {
      ...fields,
      searchTerms: 'a\nb\nc\nd\ne\nf',
    });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body, /Warm-up search terms: at most 5 \(you entered 6\)/);
    assert.match(tooMany.body, /id="a-terms"[^>]*aria-invalid="true"/);
    // What was typed is kept.
    assert.match(tooMany.body, /value="made_here"/);
    const noBio = await b.post('/dashboard/accounts', { ...fields, bio: '  ' });
    assert.equal(noBio.status, 400);
    assert.match(noBio.body, /id="a-bio-error">Bio: required</);
    assert.equal((await call('GET', '/v2/accounts')).body.data.length, 0);

    const created = await b.post('/dashboard/accounts', fields);
    assert.equal(created.status, 303, created.body);
    assert.equal(created.location, '/dashboard/accounts');
    const listed = (await call('GET', '/v2/accounts')).body.data;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].username, 'made_here');
    assert.equal(listed[0].platform, 'platformB');
    assert.deepEqual(listed[0].warmup, { searchTerms: ['cooking', 'baking'] });
    const id = listed[0].accountId as string;

    const again = await b.post('/dashboard/accounts', fields);
    assert.equal(again.status, 409);
    assert.match(again.body, /already exists/);

    const token = await csrf(b);
    const paused = await b.post(`/dashboard/accounts/${id}/pause`, { _csrf: token });
    assert.equal(paused.status, 303);
    assert.equal((await call('GET', `/v2/accounts/${id}`)).body.status, 'paused');
    const page = await b.get(paused.location as string);
    assert.match(page.body, /Account paused/);
    assert.match(page.body, new RegExp(`/accounts/${id}/resume`));
    assert.equal((await b.post(`/dashboard/accounts/${id}/resume`, { _csrf: token })).status, 303);
    assert.equal((await call('GET', `/v2/accounts/${id}`)).body.status, 'pending_setup');

    // The company's log also holds the creation of the users the test signs in as.
    const log = (await listActivity(t.ctx.db, co.companyId, { limit: 10 })).filter(
      (e) => !e.action.startsWith('user.'),
    );
    assert.deepEqual(
      log.map((e) => e.action),
      ['account.resumed', 'account.paused', 'account.created'],
    );
    assert.ok(log.every((e) => e.target === id && e.actor.startsWith('user:')));
  });

  test('an editor sets and clears schedules; a broken rule changes nothing', async () => {
    const t = get();
    const s = await seed(t);
    const [a] = s.accounts;
    const b = await as(t, s.companyId, 'editor');
    const token = await csrf(b);
    const path = `/dashboard/accounts/${a}/schedule`;
    const apiSchedule = async () => (await s.call('GET', `/v2/accounts/${a}/schedule`)).body;

    const set = await b.post(path, {
      _csrf: token,
      window: ['08:00', '12:30', ''],
      action: 'save',
    });
    assert.equal(set.status, 303);
    assert.deepEqual((await apiSchedule()).schedule, { windows: ['08:00', '12:30'] });
    const shown = await b.get(set.location as string);
    assert.match(shown.body, /Account schedule saved/);
    assert.match(shown.body, /value="12:30"/);

    for (const [windows, rule] of [
      [
        ['08:00', '10:00'],
        /Window 2 \(&quot;10:00&quot;\) must be at least 3 hours after &quot;08:00&quot;/,
      ],
      [['07:00'], /Window 1 must be between 08:00 and 17:00/],
      [['14:00', '08:00'], /Window 2 must come after &quot;14:00&quot;/],
      [['08:00', '11:00', '14:00', '17:00', '17:00'], /Windows must have 1 to 4 entries/],
      [[''], /Windows must have 1 to 4 entries \(got 0\)/],
    ] as const) {
      const res = await b.post(path, { _csrf: token, window: [...windows], action: 'save' });
      assert.equal(res.status, 400, windows.join());
      assert.match(res.body, rule);
      assert.match(res.body, /role="alert"/);
    }
    assert.deepEqual((await apiSchedule()).schedule, { windows: ['08:00', '12:30'] });

    const cleared = await b.post(path, { _csrf: token, window: '08:00', action: 'clear' });
    assert.equal(cleared.status, 303);
    const after = await apiSchedule();
    assert.equal(after.schedule, null);
    assert.equal(after.source, 'global');

    const company = await b.post('/dashboard/schedule', {
      _csrf: token,
      window: ['09:00', '15:00'],
      action: 'save',
    });
    assert.equal(company.status, 303);
    assert.deepEqual((await s.call('GET', '/v2/schedule')).body.schedule, {
      windows: ['09:00', '15:00'],
    });
    assert.match((await b.get(path)).body, /the company schedule \(09:00, 15:00\)/);
    assert.equal(
      (await b.post('/dashboard/schedule', { _csrf: token, action: 'clear' })).status,
      303,
    );
    assert.equal((await s.call('GET', '/v2/schedule')).body.schedule, null);

    const log = (await listActivity(t.ctx.db, s.companyId, { limit: 10 })).filter(
      (e) => !e.action.startsWith('user.'),
    );
    assert.deepEqual(
      log.map((e) => [e.action, e.target, e.detail]),
      [
        ['schedule.changed', s.companyId, 'cleared'],
        ['schedule.changed', s.companyId, '09:00, 15:00'],
        ['schedule.changed', a, 'cleared'],
        ['schedule.changed', a, '08:00, 12:30'],
      ],
    );
  });

  test('a state change without the CSRF token is refused', async () => {
    const t = get();
    const s = await seed(t);
    const [a] = s.accounts;
    const b = await as(t, s.companyId, 'admin');
    const forged = await b.post(`/dashboard/accounts/${a}/pause`, { _csrf: 'forged' });
    assert.equal(forged.status, 403);
    assert.match(forged.body, /This form has expired/);
    const none = await b.post(`/dashboard/accounts/${a}/schedule`, { window: '08:00' });
    assert.equal(none.status, 403);
    assert.equal((await s.call('GET', `/v2/accounts/${a}`)).body.status, 'pending_setup');
    assert.equal((await s.call('GET', `/v2/accounts/${a}/schedule`)).body.schedule, null);
  });

  test('the post detail charts its analytics, with a table of the same figures', async () => {
    const t = get();
    const s = await seed(t);
    const [a] = s.accounts;
    const item = await t.ctx.db
      .selectFrom('queue_items')
      .select('id')
      .where('post_id', '=', s.queued)
      .executeTakeFirstOrThrow();
    const snap = (n: number, at: string, views: number, likes: number) =>
      storeSnapshot(
        t.ctx.db,
        {
          id: `pan_dash_${s.queued}_${n}`,
          company_id: s.companyId,
          post_id: s.queued,
          queue_item_id: item.id,
          account_id: a,
          platform: 'platformA',
          post_url: `https://platform-a.example/v/${item.id}`,
          views,
          likes,
          comments: 1,
          shares: 0,
          saves: 0,
          collected_at: at,
        },
        at,
      );
    await snap(1, '2026-03-02T12:00:00.000Z', 100, 9);
    await snap(2, '2026-03-02T18:00:00.000Z', 400, 19);

    const b = await as(t, s.companyId, 'viewer');
    const res = await b.get(`/dashboard/posts/${s.queued}`);
    assert.equal(res.status, 200);
    assert.match(res.body, /<svg class="chart"[^>]*role="img"/);
    assert.equal((res.body.match(/<polyline /g) ?? []).length, 3);
    assert.match(res.body, /400 views, 19 likes/);
    // The table alternative: one row per collection time (in the reader's timezone, UTC
    // here); engagement 10/100 then 20/400.
    assert.match(res.body, /2 Mar 2026, 12:00<\/time><\/td><td>100<\/td><td>9<\/td><td>10<\/td>/);
    assert.match(res.body, /2 Mar 2026, 18:00<\/time><\/td><td>400<\/td><td>19<\/td><td>5<\/td>/);
  });
});
