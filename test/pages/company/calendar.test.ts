// The calendar page: a day, week or month of posts in the reader's timezone, for all accounts
// or one; items link to their posts and say their status in words; accounts, workers and
// posts by name; busy days counted with a link to the rest; why an account gets nothing;
// priority changes by editors only; another company's account reads as an unknown one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeActiveAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { companyCalendar } from '../../../src/pages/company/calendar-read.ts';
import { approve, changePriority } from '../../../src/modules/items/index.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

interface World {
  call: CallFn;
  companyId: string;
  accounts: string[];
  upload: string;
  worker: { workerId: string; token: string; name: string };
}

let ips = 0;

async function world(t: TestApp, now: string, accounts: number): Promise<World> {
  t.clock.set(now);
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const ids = await makeActiveAccounts(t, call, accounts);
  const upload = await readyUpload(t, call, 'image.png');
  const name = `Ana Lima ${now.slice(0, 10)}`;
  const worker = await createWorker(t.ctx.db, t.ctx.clock, { name, timezone: 'UTC' });
  await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, ids);
  return {
    call,
    companyId: co.companyId,
    accounts: ids,
    upload,
    worker: { workerId: worker.workerId, token: worker.token, name },
  };
}

async function post(w: World, accountIds: string[], caption: string): Promise<string> {
  const res = await w.call('POST', '/v2/posts', {
    media: [w.upload],
    accountIds,
    skipApproval: true,
    caption,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.postId as string;
}

async function signedIn(t: TestApp, companyId: string, role: 'admin' | 'editor' | 'viewer') {
  const user = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${++ips}`);
  await signIn(b, user.email, user.password);
  return b;
}

async function ok(b: Browser, url: string): Promise<string> {
  const res = await b.get(url);
  assert.equal(res.status, 200, `${url}: ${res.status} ${res.body.slice(0, 400)}`);
  return res.body;
}

/** The text a reader sees: the page without its tags (attribute values go with them). */
function text(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
}

/** The markup of one day of a week or month grid. */
function dayCell(html: string, localDate: string): string {
  const cell = html
    .split('<li class="cal-day')
    .slice(1)
    .find((c) => c.includes(`date=${localDate}"`));
  assert.ok(cell, `the grid has ${localDate}`);
  return cell.split('</h3>')[1]?.split(/<li class="cal-day|<\/ol>/)[0] ?? '';
}

const postLink = (postId: string) => `href="/dashboard/posts/${postId}"`;

describeEachDialect('dashboard calendar', (get) => {
  test('planned items sit at their slot; paused accounts say why; editors set priority', async () => {
    const t = get();
    const w = await world(t, '2026-03-02T10:00:00.000Z', 2);
    const [a, b] = w.accounts as [string, string];
    const postId = await post(w, [a], 'First of the week');
    const pending = await w.call('POST', '/v2/posts', {
      media: [w.upload],
      accountIds: [a],
      caption: 'Waits for approval',
    });
    assert.equal(pending.status, 201, JSON.stringify(pending.body));
    assert.equal((await w.call('POST', `/v2/accounts/${b}/pause`)).status, 200);

    const cal = await companyCalendar(t.ctx, w.companyId, {
      view: 'week',
      date: '2026-03-04',
      timezone: 'UTC',
    });
    assert.ok(cal);
    assert.equal(cal.period.start, '2026-03-02', 'weeks start on Monday');
    assert.equal(cal.days.length, 7);
    assert.equal(cal.accounts.find((x) => x.accountId === b)?.blocked, 'paused by the company');
    assert.equal(cal.accounts.find((x) => x.accountId === a)?.blocked, null);
    assert.equal(cal.accounts.find((x) => x.accountId === a)?.workerName, w.worker.name);
    const queue = (await w.call('GET', `/v2/accounts/${a}/queue`)).body.data;
    const planned = cal.days.flatMap((d) => d.entries).find((e) => e.postId === postId);
    assert.ok(planned, 'the post is planned');
    assert.equal(planned.at, queue[0].scheduledSlotStart);
    assert.equal(planned.status, 'queued');
    assert.equal(cal.days[0]?.entries[0]?.postId, postId, 'on Monday');

    const viewer = await signedIn(t, w.companyId, 'viewer');
    const all = await ok(viewer, '/dashboard/calendar');
    assert.match(all, /paused by the company/);
    assert.match(text(all), /1 item waits for approval or media/);
    assert.ok(!all.includes(pending.body.postId), 'what waits for approval has no slot');
    assert.ok(!all.includes('name="priority"'), 'viewers get no priority field');
    const itemId = queue[0].queueItemId as string;
    const refused = await viewer.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(all, '_csrf'),
      priority: '5',
    });
    assert.equal(refused.status, 403);

    const editor = await signedIn(t, w.companyId, 'editor');
    const week = await ok(editor, `/dashboard/calendar?account=${a}`);
    assert.ok(!week.includes('name="priority"'), 'a week links to its days for priorities');
    assert.match(week, /Open a day to change the priority/);
    const back = `/dashboard/calendar?view=day&date=2026-03-02&account=${a}`;
    const own = await ok(editor, back);
    assert.match(own, /<label for="p-[^"]+">Priority<\/label>/, 'the priority field has a label');
    assert.match(own, /name="priority" type="number" min="0" step="1" value="0"/);
    const set = await editor.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(own, '_csrf'),
      priority: '7',
      back,
    });
    assert.equal(set.status, 303);
    assert.equal(set.location, back, 'back to the view it was set on');
    const again = await companyCalendar(t.ctx, w.companyId, {
      view: 'week',
      date: '2026-03-02',
      timezone: 'UTC',
      accountId: a,
    });
    const moved = again?.days.flatMap((d) => d.entries).find((e) => e.queueItemId === itemId);
    assert.equal(moved?.priority, 7);
    const elsewhere = await editor.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(own, '_csrf'),
      priority: '8',
      back: 'https://elsewhere.example/',
    });
    assert.equal(elsewhere.location, '/dashboard/calendar', 'it returns only to the calendar');
    // A way back no Location may carry: the change is made, and the calendar answers.
    const broken = await editor.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(own, '_csrf'),
      priority: '9',
      back: '/dashboard/calendar?view=day\r\nX-Injected: 1',
    });
    assert.equal(broken.status, 303, broken.body);
    assert.equal(broken.location, '/dashboard/calendar');
    const bad = await editor.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(own, '_csrf'),
      priority: '-1',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /Priority must be a whole number of 0 or more/);
  });

  test('week and month show every status by word, names and links, for all or one account', async () => {
    const t = get();
    const w = await world(t, '2026-06-01T10:00:00.000Z', 3);
    const [a, b, c] = w.accounts as [string, string, string];
    const posted = await post(
      w,
      [a],
      'Morning light over the harbour, and a long caption after it',
    );
    const failed = await post(w, [b], 'A recipe that will not make it');
    const released = await post(w, [c], 'Still with the worker');
    t.clock.set('2026-06-01T11:00:00.000Z');
    // Items of the other tests' companies may be due as well.
    assert.ok((await releaseDue(t.ctx, t.clock.now())).released >= 3);
    const work = client(t, w.worker.token);
    for (const [account, outcome] of [
      [a, { outcome: 'posted', postUrl: 'https://platform-a.example/p/1' }],
      [b, { outcome: 'failed', reason: 'The app crashed while uploading' }],
    ] as const) {
      const claim = await work('POST', '/worker/v1/tasks/claim', { accountId: account });
      assert.equal(claim.status, 200, JSON.stringify(claim.body));
      const taskId = claim.body.data[0].taskId as string;
      const res = await work('POST', `/worker/v1/tasks/${taskId}/result`, outcome);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const planned = await post(w, [a], 'Afternoon plan');
    const names = new Map<string, { username: string; platform: string }>();
    for (const id of w.accounts) names.set(id, (await w.call('GET', `/v2/accounts/${id}`)).body);

    const editor = await signedIn(t, w.companyId, 'editor');
    const week = await ok(editor, '/dashboard/calendar');
    const monday = dayCell(week, '2026-06-01');
    for (const postId of [posted, failed, released, planned]) {
      assert.ok(monday.includes(postLink(postId)), `Monday links to post ${postId}`);
    }
    const seen = text(monday);
    for (const label of ['Posted', 'Failed', 'Released', 'Planned']) {
      assert.ok(seen.includes(label), `the ${label} label is written out`);
    }
    assert.match(monday, /<li class="cal-item st-posted">/, 'with the shape of its status');
    assert.match(seen, /11:00 Posted Morning light over the harbour/, 'time, status, caption');
    assert.match(seen, /14:00 Planned Afternoon plan/);
    const nameA = names.get(a) as { username: string; platform: string };
    assert.ok(seen.includes(`@${nameA.username} ${nameA.platform}`), 'the account and platform');
    assert.match(seen, /The app crashed while uploading/, 'why it failed');
    const visible = text(week);
    for (const id of [w.worker.workerId, a, b, c, posted, failed]) {
      assert.ok(!visible.includes(id), `no raw id ${id} in the text`);
    }
    assert.match(week, /aria-current="page">Week</);
    const thumb = /<img src="(\/dashboard\/calendar\/thumbnails\/[^"]+)"/.exec(monday)?.[1];
    assert.ok(thumb, 'items show their thumbnail');
    const signed = await editor.get(thumb);
    assert.equal(signed.status, 302);
    assert.match(signed.location ?? '', /\/v2\/media\/uploads\/upl_[^/]+\/thumbnail\?expires=/);
    assert.match(visible, /1 – 7 June 2026/);

    const month = await ok(editor, '/dashboard/calendar?view=month&date=2026-06-20');
    assert.match(month, /aria-current="page">Month</);
    assert.match(text(month), /June 2026/);
    const first = dayCell(month, '2026-06-01');
    assert.equal(first.split('<li class="cal-item').length - 1, 2, 'two items, the rest counted');
    assert.match(first, /\+2 more/);
    assert.match(text(first), /1 planned · 1 released · 1 posted · 1 failed/);
    assert.match(first, /href="\/dashboard\/calendar\?view=day&amp;date=2026-06-01"/);
    assert.equal((month.match(/<li class="cal-day/g) ?? []).length, 30, 'every day of June');

    const day = await ok(editor, '/dashboard/calendar?view=day&date=2026-06-01');
    for (const postId of [posted, failed, released, planned]) {
      assert.ok(day.includes(postLink(postId)), 'the day lists every item');
    }
    assert.match(day, /href="https:\/\/platform-a.example\/p\/1"/, 'and the published post');
    assert.ok(text(day).includes(`worker ${w.worker.name}`), 'the worker by name');
    assert.ok(!text(day).includes(w.worker.workerId), 'not by id');

    const one = await ok(editor, `/dashboard/calendar?view=month&date=2026-06-01&account=${a}`);
    assert.ok(one.includes(postLink(posted)) && one.includes(postLink(planned)));
    assert.ok(!one.includes(postLink(failed)), "another account's post is not shown");
    assert.match(one, new RegExp(`<option value="${a}" selected>`));
    assert.match(text(one), /free windows?/, "the account's free windows are counted");
    assert.ok(text(one).includes(`worker ${w.worker.name}`), "the account's worker by name");
    const oneWeek = await ok(editor, `/dashboard/calendar?account=${b}`);
    assert.ok(oneWeek.includes(postLink(failed)) && !oneWeek.includes(postLink(posted)));

    const before = await ok(editor, '/dashboard/calendar?date=2026-05-27');
    assert.match(text(before), /Nothing is planned, released or posted in this week/);
    assert.match(text(before), /25 – 31 May 2026/);
  });

  test("the reader's timezone lays items out: a switch moves one to another day", async () => {
    const t = get();
    const w = await world(t, '2026-06-08T10:00:00.000Z', 1);
    const postId = await post(w, w.accounts, 'Eleven o’clock in London');
    const reader = await signedIn(t, w.companyId, 'viewer');

    const utc = await ok(reader, '/dashboard/calendar?date=2026-06-08');
    assert.ok(dayCell(utc, '2026-06-08').includes(postLink(postId)), 'Monday in UTC');
    assert.match(text(dayCell(utc, '2026-06-08')), /11:00 Planned/);
    assert.match(text(utc), /Times in UTC/);

    reader.cookies.set('slotline_tz', encodeURIComponent('Pacific/Kiritimati'));
    const east = await ok(reader, '/dashboard/calendar?date=2026-06-08');
    assert.ok(!dayCell(east, '2026-06-08').includes(postLink(postId)), 'not Monday at UTC+14');
    assert.ok(dayCell(east, '2026-06-09').includes(postLink(postId)), 'Tuesday at UTC+14');
    assert.match(text(dayCell(east, '2026-06-09')), /01:00 Planned/);
    assert.match(text(east), /Times in Pacific\/Kiritimati/);
    const dayView = await ok(reader, '/dashboard/calendar?view=day&date=2026-06-08');
    assert.ok(!dayView.includes(postLink(postId)));

    reader.cookies.set('slotline_tz', encodeURIComponent('America/Los_Angeles'));
    const west = await ok(reader, '/dashboard/calendar?view=day&date=2026-06-08');
    assert.ok(west.includes(postLink(postId)), 'Monday again at UTC-7');
    assert.match(text(west), /04:00 Planned/);

    const cal = await companyCalendar(t.ctx, w.companyId, {
      view: 'month',
      date: '2026-06-01',
      timezone: 'Pacific/Kiritimati',
    });
    const day = cal?.days.find((d) => d.entries.some((e) => e.postId === postId));
    assert.equal(day?.localDate, '2026-06-09');
  });

  test('a busy day lists its first items and links to the day, which pages through all', async () => {
    const t = get();
    const w = await world(t, '2026-06-15T10:00:00.000Z', 12);
    const posts: string[] = [];
    for (const [n, account] of w.accounts.entries()) {
      posts.push(await post(w, [account], `Post number ${n + 1}`));
    }
    const reader = await signedIn(t, w.companyId, 'viewer');
    const month = await ok(reader, '/dashboard/calendar?view=month');
    const monday = dayCell(month, '2026-06-15');
    assert.equal(monday.split('<li class="cal-item').length - 1, 2);
    assert.match(monday, /\+10 more<span class="visually-hidden"> on Mon 15 Jun<\/span>/);
    assert.match(text(monday), /12 planned/, 'the day counted by status');

    const week = await ok(reader, '/dashboard/calendar');
    assert.equal(dayCell(week, '2026-06-15').split('<li class="cal-item').length - 1, 4);
    assert.match(dayCell(week, '2026-06-15'), /\+8 more/);

    const day = await ok(reader, '/dashboard/calendar?view=day&date=2026-06-15');
    for (const postId of posts) assert.ok(day.includes(postLink(postId)));
    assert.equal(
      (
        await companyCalendar(t.ctx, w.companyId, {
          view: 'day',
          date: '2026-06-15',
          timezone: 'UTC',
          perDay: 5,
          skip: 10,
        })
      )?.days[0]?.entries.length,
      2,
      'the last page of a day',
    );

    // Released, the same items are counted per minute and only those listed are read.
    t.clock.set('2026-06-15T11:00:00.000Z');
    assert.ok((await releaseDue(t.ctx, t.clock.now())).released >= 12);
    const after = await ok(reader, '/dashboard/calendar?view=month');
    const busy = dayCell(after, '2026-06-15');
    assert.equal(busy.split('<li class="cal-item st-posting').length - 1, 2);
    assert.match(text(busy), /12 released/);
    assert.match(busy, /\+10 more/);
    const pages = [0, 5, 10].map((skip) =>
      companyCalendar(t.ctx, w.companyId, {
        view: 'day',
        date: '2026-06-15',
        timezone: 'UTC',
        perDay: 5,
        skip,
      }),
    );
    const listed = (await Promise.all(pages)).flatMap((c) => c?.days[0]?.entries ?? []);
    assert.deepEqual(
      listed.map((e) => e.postId).sort(),
      [...posts].sort(),
      'the pages of the day list each item once',
    );
    assert.ok(listed.every((e) => e.status === 'posting' && e.at === '2026-06-15T11:00:00.000Z'));
  });

  test('a company with many accounts finds one by name rather than from a long menu', async () => {
    const t = get();
    const w = await world(t, '2026-06-29T10:00:00.000Z', 1);
    const [first] = w.accounts as [string];
    const reader = await signedIn(t, w.companyId, 'viewer');
    assert.match(
      await ok(reader, '/dashboard/calendar'),
      /<select id="cal-account" name="account">/,
    );
    for (let n = 0; n < 40; n++) {
      const r = await w.call('POST', '/v2/accounts', validAccount({ username: `shop_${n}` }));
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const many = await ok(reader, '/dashboard/calendar?view=month');
    assert.ok(!many.includes('<option'), 'no menu of 41 accounts');
    assert.match(many, /<label for="cal-find">Account<\/label>/);
    assert.match(many, /<input id="cal-find" name="find" type="search"/);

    const list = await ok(reader, '/dashboard/calendar?view=month&find=shop_1');
    assert.match(text(list), /11 accounts match “shop_1”/);
    assert.match(list, /href="\/dashboard\/calendar\?view=month&amp;account=acc_[^"]+">@shop_10</);
    const one = await reader.get('/dashboard/calendar?view=month&find=%40shop_17');
    assert.equal(one.status, 303, 'one match opens its calendar');
    assert.match(one.location ?? '', /^\/dashboard\/calendar\?view=month&account=acc_/);
    const none = await ok(reader, '/dashboard/calendar?find=nobody_here');
    assert.match(text(none), /No account's username contains “nobody_here”/);
    const own = (await w.call('GET', `/v2/accounts/${first}`)).body.username as string;
    const mine = await reader.get(`/dashboard/calendar?find=${own}`);
    assert.equal(mine.location, `/dashboard/calendar?account=${first}`);
  });

  test('after each write the calendar plans as the queue does, whatever else it kept', async () => {
    const t = get();
    // The clock stands still: what changed is found in the data, not in its times.
    const w = await world(t, '2026-07-13T09:30:00.000Z', 3);
    const [a, b, c] = w.accounts as [string, string, string];
    for (const account of w.accounts) {
      for (let n = 0; n < 3; n++) await post(w, [account], `Post ${n} of ${account}`);
    }
    const pending = await w.call('POST', '/v2/posts', {
      media: [w.upload],
      accountIds: [b],
      caption: 'Waits for approval',
    });
    assert.equal(pending.status, 201, JSON.stringify(pending.body));

    /** Every queued item of the accounts, where the calendar places it and where the API does. */
    const compare = async (label: string) => {
      for (const accountId of [undefined, a]) {
        const cal = await companyCalendar(t.ctx, w.companyId, {
          view: 'month',
          date: '2026-07-13',
          timezone: 'UTC',
          ...(accountId ? { accountId } : {}),
        });
        const placed = new Map(
          cal?.days.flatMap((d) => d.entries).map((e) => [e.queueItemId, e.at]) ?? [],
        );
        const expected = new Map<string, string>();
        for (const account of accountId ? [accountId] : w.accounts) {
          const queue = (await w.call('GET', `/v2/accounts/${account}/queue`)).body.data as {
            queueItemId: string;
            status: string;
            scheduledSlotStart?: string | null;
          }[];
          for (const q of queue) {
            if (q.status === 'queued' && q.scheduledSlotStart) {
              expected.set(q.queueItemId, q.scheduledSlotStart);
            }
          }
        }
        assert.deepEqual(placed, expected, `${label}${accountId ? ', one account' : ''}`);
      }
    };
    await compare('at first');
    const queueOf = async (account: string) =>
      (await w.call('GET', `/v2/accounts/${account}/queue`)).body.data as {
        queueItemId: string;
        postId: string;
      }[];
    const lastOfA = (await queueOf(a)).at(-1)?.queueItemId as string;
    assert.equal(
      await changePriority(t.ctx.db, t.ctx.clock, w.companyId, lastOfA, 9, {
        id: 'test',
        label: 'test',
      }),
      'changed',
    );
    await compare('after a priority change');
    await approve(t.ctx, { companyId: w.companyId, postId: pending.body.postId as string });
    await compare('after an approval');
    const firstOfC = (await queueOf(c))[0]?.postId as string;
    assert.equal((await w.call('DELETE', `/v2/posts/${firstOfC}`)).status, 200);
    await compare('after a cancellation');
    await post(w, [a, c], 'One more for two accounts');
    await compare('after a new post');
    assert.equal((await w.call('POST', `/v2/accounts/${c}/pause`)).status, 200);
    await compare('after a pause');
    // A plan holds from one slot's start to the next.
    for (const [at, label] of [
      ['2026-07-13T10:59:00.000Z', 'later in the same slot'],
      ['2026-07-13T11:00:00.000Z', 'as the next slot opens'],
      ['2026-07-13T13:15:00.000Z', 'later in that slot, without a release'],
      ['2026-07-13T14:05:00.000Z', 'in the next slot, the last one missed'],
      ['2026-07-14T07:59:00.000Z', 'the next day, before its first slot'],
    ] as const) {
      t.clock.set(at);
      await compare(label);
    }
  });

  test("another company's account answers 404; a wrong view or date says what is wrong", async () => {
    const t = get();
    const w = await world(t, '2026-06-22T10:00:00.000Z', 1);
    const [a] = w.accounts as [string];
    const other = await seedCompany(t);
    const stranger = await signedIn(t, other.companyId, 'admin');
    const empty = await ok(stranger, '/dashboard/calendar');
    assert.match(text(empty), /No accounts yet/);
    assert.match(empty, /href="\/dashboard\/accounts\/new"/);
    assert.equal((await stranger.get(`/dashboard/calendar?account=${a}`)).status, 404);
    assert.equal((await stranger.get(`/dashboard/calendar?view=month&account=${a}`)).status, 404);
    assert.equal((await stranger.get('/dashboard/calendar?account=acc_unknown')).status, 404);
    const queue = (await w.call('GET', `/v2/accounts/${a}/queue`)).body.data;
    assert.equal(queue.length, 0);
    const postId = await post(w, [a], 'Not theirs');
    const itemId = (await w.call('GET', `/v2/accounts/${a}/queue`)).body.data[0].queueItemId;
    const moved = await stranger.post(`/dashboard/items/${itemId}/priority`, {
      _csrf: hidden(empty, '_csrf'),
      priority: '1',
    });
    assert.equal(moved.status, 404);
    const thumb = await stranger.get(`/dashboard/calendar/thumbnails/${itemId}`);
    assert.equal(thumb.status, 404, "another company's thumbnail is not found");
    assert.ok(!(await ok(stranger, '/dashboard/calendar')).includes(postId));

    const view = await stranger.get('/dashboard/calendar?view=year');
    assert.equal(view.status, 400);
    assert.match(view.body, /The view must be day, week or month/);
    const date = await stranger.get('/dashboard/calendar?date=2026-02-30');
    assert.equal(date.status, 400);
    assert.match(date.body, /The date must be a day written like 2026-03-02/);
    assert.equal((await stranger.get('/dashboard/calendar?view=day&page=0')).status, 400);

    const own = await signedIn(t, w.companyId, 'viewer');
    const quiet = await ok(own, '/dashboard/calendar?date=2026-07-06');
    assert.match(text(quiet), /Nothing is planned, released or posted in this week/);
  });
});
