// Analytics from the workers' app, through HTTP on both databases: a posted task's figures
// (the form carries the moment it was opened, so a resend is the same snapshot) and an
// account's statistics, with the services' refusals shown next to their fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { browser, hidden } from '../../helpers/dashboard.ts';
import {
  TASKS,
  WBASE,
  fieldError,
  postMultipart,
  releasedTask,
  signedInAt,
  unescape,
} from './worker-page.helpers.ts';

describeEachDialect('workers app: analytics', (get) => {
  /** A task reported posted from the app at 11:05, its page open at 12:00. */
  async function posted(day: string, ip: string) {
    const t = get();
    const s = await releasedTask(t, day);
    const b = browser(t, ip);
    const csrf = await signedInAt(b, s.worker.token);
    t.clock.set(`${day}T11:05:00.000Z`);
    const report = await postMultipart(t, b, `${TASKS}/${s.taskId}/report`, {
      _csrf: csrf,
      outcome: 'posted',
      postUrl: 'https://platform-a.example/p/42',
    });
    assert.equal(report.status, 303);
    t.clock.set(`${day}T12:00:00.000Z`);
    const page = await b.get(`${TASKS}/${s.taskId}`);
    assert.equal(page.status, 200);
    return { ...s, t, b, csrf, page: page.body };
  }

  test('figures of a posted task: saved once, even when the form is sent twice', async () => {
    const s = await posted('2031-07-01', '198.51.100.90');
    assert.match(s.page, /<h2 id="figures-h">Figures<\/h2>/);
    assert.match(s.page, /No figures entered yet\./);
    const opened = hidden(s.page, 'collectedAt');
    assert.equal(opened, '2031-07-01T12:00:00.000Z', 'the moment the form was opened');
    assert.doesNotMatch(s.page, /<h2 id="report-h">/, 'a posted task is not reported again');

    s.t.clock.set('2031-07-01T12:03:00.000Z');
    const form = {
      _csrf: s.csrf,
      collectedAt: opened,
      views: '12,500',
      likes: '830',
      comments: '41',
      shares: '12',
      saves: '7',
    };
    const res = await s.b.post(`${TASKS}/${s.taskId}/figures`, form);
    assert.equal(res.status, 303, res.body);
    assert.equal(res.location, `${TASKS}/${s.taskId}`);
    const page = await s.b.get(`${TASKS}/${s.taskId}`);
    assert.match(page.body, /role="status">Figures saved: 12,500 views\.</);
    assert.match(
      page.body,
      /Last entered <time datetime="2031-07-01T12:00:00.000Z">Tue 1 Jul, 12:00<\/time>: 12,500 views, 830 likes, 41 comments, 12 shares, 7 saves\./,
    );
    // The answer was lost: the same form again is the same snapshot.
    assert.equal((await s.b.post(`${TASKS}/${s.taskId}/figures`, form)).status, 303);
    const analytics = await s.call('GET', `/v2/posts/${s.postId}/analytics`);
    assert.equal(analytics.body.history.length, 1);
    assert.equal(analytics.body.summary.views, 12500);
    assert.equal(analytics.body.summary.likes, 830);
    assert.equal(analytics.body.history[0].collectedAt, '2031-07-01T12:00:00.000Z');
    assert.match((await s.b.get(TASKS)).body, /Figures entered Tue 1 Jul, 12:00/);
  });

  test('refusals: not a number, fewer views than before, a time in the future, an open task', async () => {
    const s = await posted('2031-07-02', '198.51.100.91');
    const url = `${TASKS}/${s.taskId}/figures`;
    const base = {
      _csrf: s.csrf,
      collectedAt: hidden(s.page, 'collectedAt'),
      views: '900',
      likes: '10',
      comments: '1',
      shares: '0',
      saves: '0',
    };
    const typed = await s.b.post(url, { ...base, views: 'lots', likes: '' });
    assert.equal(typed.status, 400);
    assert.equal(
      fieldError(typed.body, 'fig-views'),
      'Type the views as a whole number, like 12500.',
    );
    assert.equal(fieldError(typed.body, 'fig-likes'), 'Enter the likes (0 if there are none).');
    assert.match(typed.body, /id="fig-views"[^>]*value="lots"[^>]*aria-invalid="true"/);
    assert.equal(
      hidden(typed.body, 'collectedAt'),
      base.collectedAt,
      'a refused form keeps its time',
    );

    assert.equal((await s.b.post(url, base)).status, 303);
    s.t.clock.set('2031-07-02T13:00:00.000Z');
    const later = hidden((await s.b.get(`${TASKS}/${s.taskId}`)).body, 'collectedAt');
    const fewer = await s.b.post(url, { ...base, collectedAt: later, views: '100' });
    assert.equal(fewer.status, 400);
    assert.equal(
      fieldError(fewer.body, 'fig-views'),
      'Views must not be fewer than the 900 views counted at Wed 2 Jul, 12:00',
    );
    const future = await s.b.post(url, { ...base, collectedAt: '2031-07-02T15:00:00.000Z' });
    assert.equal(future.status, 400);
    assert.match(
      unescape(future.body),
      /role="alert">The time of these figures must not be in the future</,
    );
    const broken = await s.b.post(url, { ...base, collectedAt: 'yesterday' });
    assert.equal(broken.status, 400);
    assert.match(broken.body, /role="alert">The time of these figures must be a valid date-time/);
    const forged = await s.b.post(url, { ...base, _csrf: 'forged', collectedAt: later });
    assert.equal(forged.status, 403);
    const analytics = await s.call('GET', `/v2/posts/${s.postId}/analytics`);
    assert.equal(analytics.body.history.length, 1);

    const open = await releasedTask(s.t, '2031-07-03');
    const b = browser(s.t, '198.51.100.92');
    const csrf = await signedInAt(b, open.worker.token);
    const notPosted = await b.post(`${TASKS}/${open.taskId}/figures`, { ...base, _csrf: csrf });
    assert.equal(notPosted.status, 409);
    assert.match(notPosted.body, /role="alert">This task is released, not posted</);
  });

  test('an account’s figures: saved, shown, refused next to their fields', async () => {
    const s = await posted('2031-07-04', '198.51.100.93');
    const page = `${WBASE}/accounts/${s.account}`;
    const before = await s.b.get(page);
    assert.match(before.body, /<h2 id="stats-h">Account figures<\/h2>/);
    assert.match(before.body, /No figures reported yet\./);
    const form = {
      _csrf: s.csrf,
      followers: '15 300',
      posts: '48',
      engagement: '4,25 %',
      views: '250000',
      likes: '18000',
      comments: '900',
      scannedPosts: '12',
    };
    const res = await s.b.post(`${page}/stats`, form);
    assert.equal(res.status, 303, res.body);
    assert.equal((await s.b.post(`${page}/stats`, form)).status, 303, 'sent twice, the same');
    const analytics = await s.call('GET', `/v2/accounts/${s.account}/analytics`);
    assert.deepEqual(analytics.body, {
      accountId: s.account,
      followers: 15300,
      posts: 48,
      engagement: 4.25,
      analytics: { views: 250000, likes: 18000, comments: 900 },
      scannedPosts: 12,
    });
    assert.equal((await s.call('GET', `/v2/accounts/${s.account}`)).body.followers, 15300);
    const shown = await s.b.get(page);
    assert.match(shown.body, /role="status">Account figures saved\.</);
    assert.match(shown.body, /Last reported Fri 4 Jul, 12:00\./);
    assert.match(shown.body, /id="st-followers"[^>]*value="15300"/);
    assert.match(shown.body, /id="st-engagement"[^>]*value="4.25"/);

    const bad = await s.b.post(`${page}/stats`, {
      ...form,
      engagement: 'high',
      followers: '-3',
      posts: '',
    });
    assert.equal(bad.status, 400);
    assert.equal(
      fieldError(bad.body, 'st-engagement'),
      'Type the engagement rate as a percentage, like 4.25.',
    );
    assert.equal(
      fieldError(bad.body, 'st-followers'),
      'Type the followers as a whole number, like 12500.',
    );
    assert.equal(fieldError(bad.body, 'st-posts'), 'Enter the posts (0 if there are none).');
    const big = await s.b.post(`${page}/stats`, { ...form, followers: '3000000000' });
    assert.equal(big.status, 400);
    assert.equal(
      fieldError(big.body, 'st-followers'),
      'Followers must be <= 2147483647 (got 3000000000)',
    );
    assert.equal(
      (await s.call('GET', `/v2/accounts/${s.account}/analytics`)).body.followers,
      15300,
    );
  });
});
