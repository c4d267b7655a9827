// Moving an item to another window from the dashboard, through HTTP on both databases: the
// move page names what is in each window, a free window moves the item there (the API's
// scheduledSlotStart and the account queue agree), taken, full and non-window times are
// refused in words, JSON for the calendar's script, the floor cleared again, and another
// company's item, a viewer and a missing CSRF token refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload, setAccountStatus } from '../../helpers/posts.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;

async function session(t: TestApp, companyId: string, role: UserRole = 'editor') {
  const u = await userIn(t, companyId, role);
  const b: Browser = browser(t, `198.51.100.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const csrf = hidden((await b.get('/dashboard/posts')).body, '_csrf');
  return { b, csrf };
}

/**
 * A request as the calendar's script sends it, asking for JSON: a GET, or with `form` a POST
 * of the form with the CSRF header.
 */
function asScript(
  t: TestApp,
  s: { b: Browser; csrf: string },
  url: string,
  form?: Record<string, string>,
) {
  const cookie = [...s.b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return t.app.inject({
    method: form ? 'POST' : 'GET',
    url,
    remoteAddress: '198.51.100.251',
    headers: {
      cookie,
      accept: 'application/json',
      ...(form
        ? { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': s.csrf }
        : {}),
    },
    ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
  });
}

describeEachDialect('moving an item to another window', (get) => {
  async function setup() {
    const t = get();
    t.clock.set('2026-03-02T10:00:00.000Z');
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [account] = (await makeAccounts(call, 1)) as [string];
    await setAccountStatus(t, [account]);
    const schedule = await call('PATCH', `/v2/accounts/${account}/schedule`, {
      schedule: { windows: ['08:00', '14:00'] },
    });
    assert.equal(schedule.status, 200);
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const make = async (caption: string) => {
      const r = await call('POST', '/v2/posts', {
        media: [video],
        accountIds: [account],
        caption,
        skipApproval: true,
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return r.body as { postId: string; accounts: { queueItemId?: string }[] };
    };
    const first = await make('Spring menu launch');
    const second = await make('Behind the counter');
    const queue = await call('GET', `/v2/accounts/${account}/queue`);
    const itemOf = (postId: string) =>
      (queue.body.data as { postId: string; queueItemId: string }[]).find(
        (i) => i.postId === postId,
      )?.queueItemId as string;
    return { t, co, call, account, first, second, itemOf };
  }

  test('a free window moves the item; taken and non-window times are refused in words', async () => {
    const { t, co, call, account, first, second, itemOf } = await setup();
    const item = itemOf(second.postId);
    const s = await session(t, co.companyId);
    const before = await call('GET', `/v2/posts/${second.postId}`);
    assert.equal(before.body.accounts[0].scheduledSlotStart, '2026-03-03T08:00:00.000Z');

    const pageRes = await s.b.get(`/dashboard/items/${item}/window`);
    assert.equal(pageRes.status, 200, pageRes.body);
    assert.match(pageRes.body, /taken by “Spring menu launch”/);
    assert.match(pageRes.body, /“Behind the counter”<\/a> on/);
    assert.match(pageRes.body, /name="at" value="2026-03-03T14:00:00.000Z"/);

    const taken = await s.b.post(`/dashboard/items/${item}/window`, {
      _csrf: s.csrf,
      at: '2026-03-02T14:00:00.000Z',
    });
    assert.equal(taken.status, 409);
    assert.match(taken.body, /already taken by “Spring menu launch”/);

    const moved = await s.b.post(`/dashboard/items/${item}/window`, {
      _csrf: s.csrf,
      at: '2026-03-03T14:00:00.000Z',
      back: `/dashboard/posts/${second.postId}`,
    });
    assert.equal(moved.status, 303, moved.body);
    assert.equal(moved.location, `/dashboard/posts/${second.postId}`);
    const after = await call('GET', `/v2/posts/${second.postId}`);
    assert.equal(after.body.accounts[0].scheduledSlotStart, '2026-03-03T14:00:00.000Z');
    assert.equal(after.body.accounts[0].scheduledAfter, '2026-03-03T14:00:00.000Z');
    const queue = await call('GET', `/v2/accounts/${account}/queue`);
    const row = queue.body.data.find((i: { queueItemId: string }) => i.queueItemId === item);
    assert.equal(row.scheduledSlotStart, '2026-03-03T14:00:00.000Z');
    const firstNow = await call('GET', `/v2/posts/${first.postId}`);
    assert.equal(firstNow.body.accounts[0].scheduledSlotStart, '2026-03-02T14:00:00.000Z');

    // The calendar's script: JSON answers.
    const json = (at: string) =>
      asScript(t, s, `/dashboard/items/${item}/window`, { _csrf: s.csrf, at });
    const outside = await json('2026-03-04T10:00:00.000Z');
    assert.equal(outside.statusCode, 409, outside.body);
    assert.equal(outside.json().reason, 'outside_windows');
    assert.match(outside.json().message, /not one of @[\w.]+’s posting windows/);
    const back = await json('next');
    assert.equal(back.statusCode, 200, back.body);
    assert.equal(back.json().ok, true);
    const cleared = await call('GET', `/v2/posts/${second.postId}`);
    assert.equal(cleared.body.accounts[0].scheduledAfter, undefined);
    assert.equal(cleared.body.accounts[0].scheduledSlotStart, '2026-03-03T08:00:00.000Z');

    const log = await listActivity(t.ctx.db, co.companyId, { limit: 20 });
    assert.equal(log.filter((e) => e.action === 'item.window_moved').length, 2);
  });

  test('another company’s item is not found; a viewer and a missing token are refused', async () => {
    const { t, co, second, itemOf } = await setup();
    const item = itemOf(second.postId);
    const other = await seedCompany(t, { name: 'Other Co' });
    const stranger = await session(t, other.companyId);
    assert.equal((await stranger.b.get(`/dashboard/items/${item}/window`)).status, 404);
    const foreign = await stranger.b.post(`/dashboard/items/${item}/window`, {
      _csrf: stranger.csrf,
      at: '2026-03-03T14:00:00.000Z',
    });
    assert.equal(foreign.status, 404);
    const viewer = await session(t, co.companyId, 'viewer');
    assert.equal((await viewer.b.get(`/dashboard/items/${item}/window`)).status, 403);
    const editor = await session(t, co.companyId);
    const noToken = await editor.b.post(`/dashboard/items/${item}/window`, {
      at: '2026-03-03T14:00:00.000Z',
    });
    assert.equal(noToken.status, 403);
  });

  test('the calendar offers its planned items to move, and its script reads their windows', async () => {
    const { t, co, first, second, itemOf } = await setup();
    const item = itemOf(second.postId);
    const s = await session(t, co.companyId);
    const cal = await s.b.get('/dashboard/calendar?date=2026-03-02');
    assert.equal(cal.status, 200, cal.body);
    assert.match(
      cal.body,
      new RegExp(`draggable="true" data-move="/dashboard/items/${item}/window"`),
    );
    assert.match(
      cal.body,
      new RegExp(`href="/dashboard/items/${item}/window\\?back=%2Fdashboard%2Fcalendar`),
    );
    assert.match(cal.body, /data-date="2026-03-03"/);
    assert.match(cal.body, /assets\/calendar\.js/);
    assert.match(cal.body, /<span class="cal-handle">@/);

    const res = await asScript(t, s, `/dashboard/items/${item}/window`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json<{
      account: string;
      open: boolean;
      days: {
        date: string;
        windows: { at: string; time: string; state: string; takenBy: string | null }[];
      }[];
    }>();
    assert.equal(body.open, true);
    assert.match(body.account, /^@/);
    assert.deepEqual(body.days[0]?.windows, [
      {
        at: '2026-03-02T14:00:00.000Z',
        time: '14:00',
        state: 'taken',
        takenBy: '“Spring menu launch”',
      },
    ]);
    assert.equal(body.days[1]?.date, '2026-03-03');
    assert.deepEqual(
      body.days[1]?.windows.map((w) => w.state),
      ['free', 'free'],
    );
    assert.equal(body.days.length, 14);
    void first;

    // A viewer sees the calendar without anything to move.
    const viewer = await session(t, co.companyId, 'viewer');
    const seen = await viewer.b.get('/dashboard/calendar?date=2026-03-02');
    assert.equal(seen.status, 200);
    assert.ok(!seen.body.includes('draggable="true"'));
    assert.ok(!seen.body.includes('/window?back='));
  });
});
