// The workers' page (dashboard page 10) through HTTP on both databases: signing in with a
// worker token, the tasks of its accounts only, starting and reporting a task with the
// worker API's rules, CSRF, revocation, and the wall between worker and company sessions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import {
  browser,
  hidden,
  signIn,
  userIn,
  workerSignIn,
  type Browser,
} from '../../helpers/dashboard.ts';
import { makeActiveAccounts, readyUpload } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { MAX_FAILURES_PER_ADDRESS } from '../../../src/modules/sign-in/index.ts';
import {
  assignAccounts,
  createWorker,
  revokeWorker,
  rotateWorkerToken,
} from '../../../src/modules/workers/index.ts';

const TASKS = '/dashboard/worker/tasks';

/**
 * A company with two accounts, each operated by its own worker, and one post released to
 * both at 11:00 UTC of `day`: each worker has one task.
 */
async function released(t: TestApp, day: string) {
  t.clock.set(`${day}T10:00:00.000Z`);
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const [mine, theirs] = (await makeActiveAccounts(t, call, 2)) as [string, string];
  const upload = await readyUpload(t, call, 'image.png');
  const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ana', timezone: 'UTC' });
  const other = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ben', timezone: 'UTC' });
  await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [mine]);
  await assignAccounts(t.ctx.db, t.ctx.clock, other.workerId, [theirs]);
  const post = await call('POST', '/v2/posts', {
    media: [upload],
    accountIds: [mine, theirs],
    skipApproval: true,
    caption: 'Sunset over the bay',
    hashtags: ['#sea', '#sun'],
  });
  assert.equal(post.status, 201, JSON.stringify(post.body));
  t.clock.set(`${day}T11:00:00.000Z`);
  assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
  const tasks = async (token: string) => {
    const res = await client(t, token)('GET', '/worker/v1/tasks');
    assert.equal(res.status, 200);
    return res.body.data as { taskId: string; accountId: string; state: string }[];
  };
  const [myTask] = await tasks(worker.token);
  const [theirTask] = await tasks(other.token);
  assert.ok(myTask && theirTask);
  return { co, call, postId: post.body.postId as string, mine, worker, other, myTask, theirTask };
}

function setCookies(res: { headers: Record<string, unknown> }): string[] {
  return ([] as string[]).concat((res.headers['set-cookie'] as string | string[]) ?? []);
}

/** The task page's CSRF token, as its forms carry it. */
async function csrfOf(b: Browser, taskId: string): Promise<string> {
  const page = await b.get(`${TASKS}/${taskId}`);
  assert.equal(page.status, 200, page.body);
  return hidden(page.body, '_csrf');
}

describeEachDialect('workers page', (get) => {
  test('a wrong token is refused, then the address is limited', async () => {
    const t = get();
    const { worker } = await released(t, '2031-03-01');
    const b = browser(t, '198.51.100.10');
    const wrong = await workerSignIn(b, 'slw_000000000000_00000000000000000000000000000000');
    assert.equal(wrong.status, 401);
    assert.match(wrong.body, /not valid, or it was revoked/);
    assert.equal((await workerSignIn(b, 'not a token')).status, 401);
    for (let i = 2; i < MAX_FAILURES_PER_ADDRESS; i++) await workerSignIn(b, 'wrong');
    const limited = await workerSignIn(b, worker.token);
    assert.equal(limited.status, 429);
    assert.match(limited.body, /Too many failed sign-ins/);
    assert.ok(!b.cookies.has('slotline_worker_session'));
    // Another address is not limited; this one is again after the window.
    assert.equal((await workerSignIn(browser(t, '198.51.100.11'), worker.token)).status, 303);
    t.clock.advance(16 * 60 * 1000);
    assert.equal((await workerSignIn(b, worker.token)).status, 303);
  });

  test('the sign-in form needs its own form token', async () => {
    const t = get();
    const { worker } = await released(t, '2031-03-02');
    const b = browser(t, '198.51.100.12');
    await b.get('/dashboard/worker/sign-in');
    const res = await b.post('/dashboard/worker/sign-in', { token: worker.token });
    assert.equal(res.status, 403);
    assert.ok(!b.cookies.has('slotline_worker_session'));
  });

  test('signed in with its token, a worker sees its tasks only; the cookie holds no token', async () => {
    const t = get();
    const { worker, myTask, theirTask, mine } = await released(t, '2031-03-03');
    const anonymous = browser(t, '198.51.100.13');
    const out = await anonymous.get(TASKS);
    assert.equal(out.status, 303);
    assert.equal(out.location, '/dashboard/worker/sign-in');

    const form = await t.app.inject({ method: 'GET', url: '/dashboard/worker/sign-in' });
    const csrf = /name="_csrf" value="([^"]*)"/.exec(form.body)?.[1] as string;
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/worker/sign-in',
      remoteAddress: '198.51.100.13',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `slotline_worker_sign_in=${csrf}`,
      },
      payload: new URLSearchParams({ _csrf: csrf, token: worker.token }).toString(),
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, TASKS);
    const cookies = setCookies(res);
    const session = cookies.find((c) => c.startsWith('slotline_worker_session='));
    assert.ok(session);
    assert.match(session, /HttpOnly/i);
    assert.match(session, /SameSite=Lax/i);
    assert.match(session, /Path=\/dashboard\/worker(;|$)/);
    assert.match(session, /Max-Age=43200/);
    assert.doesNotMatch(session, /Secure/);
    const secretPart = worker.token.split('_')[2] as string;
    for (const c of cookies) {
      assert.ok(!c.includes(worker.token) && !c.includes(secretPart), 'no token in a cookie');
    }

    const b = browser(t, '198.51.100.14');
    assert.equal((await workerSignIn(b, worker.token)).status, 303);
    for (const value of b.cookies.values()) assert.ok(!value.includes(secretPart));
    const list = await b.get(TASKS);
    assert.equal(list.status, 200);
    assert.match(list.body, new RegExp(myTask.taskId));
    assert.doesNotMatch(list.body, new RegExp(theirTask.taskId));
    assert.match(list.body, /platformA/);
    assert.match(list.body, /Released <time datetime="2031-03-03T11:00:00.000Z"/);

    const detail = await b.get(`${TASKS}/${myTask.taskId}`);
    assert.equal(detail.status, 200);
    assert.equal(myTask.accountId, mine);
    assert.match(
      detail.body,
      /<textarea id="caption" readonly rows="\d">Sunset over the bay<\/textarea>/,
    );
    assert.match(detail.body, /#sea #sun/);
    assert.match(detail.body, /<label for="postUrl">/);
    assert.match(detail.body, /<label for="reason">/);
    // The download link is the worker API's signed media URL, and it serves the file.
    const href = /href="([^"]+)" download/.exec(detail.body)?.[1] as string;
    assert.ok(href);
    const url = new URL(href.replaceAll('&amp;', '&'));
    const media = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    assert.equal(media.statusCode, 200);

    const stranger = await b.get(`${TASKS}/${theirTask.taskId}`);
    assert.equal(stranger.status, 404);
    assert.match(stranger.body, /does not exist for this worker/);
  });

  test('start, report posted: the company sees the post URL; a second report is refused', async () => {
    const t = get();
    const { worker, myTask, call, postId, mine } = await released(t, '2031-03-04');
    const b = browser(t, '198.51.100.15');
    await workerSignIn(b, worker.token);
    const csrf = await csrfOf(b, myTask.taskId);
    const start = await b.post(`${TASKS}/${myTask.taskId}/start`, { _csrf: csrf });
    assert.equal(start.status, 303);
    const work = client(t, worker.token);
    const claimed = await work('GET', `/worker/v1/tasks/${myTask.taskId}`);
    assert.equal(claimed.body.state, 'claimed');

    const badUrl = await b.post(`${TASKS}/${myTask.taskId}/report`, {
      _csrf: csrf,
      outcome: 'posted',
      postUrl: 'ftp://example.com/x',
    });
    assert.equal(badUrl.status, 400);
    assert.match(badUrl.body, /This link must be an http or https URL/);
    assert.match(badUrl.body, /value="ftp:\/\/example.com\/x"/);

    t.clock.advance(5 * 60 * 1000);
    const postUrl = 'https://platform-a.example/p/123';
    const done = await b.post(`${TASKS}/${myTask.taskId}/report`, {
      _csrf: csrf,
      outcome: 'posted',
      postUrl,
    });
    assert.equal(done.status, 303);
    assert.equal(done.location, TASKS);
    const view = await call('GET', `/v2/posts/${postId}`);
    const account = view.body.accounts.find((a: any) => a.accountId === mine);
    assert.equal(account.status, 'posted');
    assert.equal(account.postUrl, postUrl);
    const tasks = (await b.get(TASKS)).body;
    // No longer to post: listed with this week's posts, for its figures.
    const [toPost = '', postedList = ''] = tasks.split('<h2 id="posted-h">');
    assert.doesNotMatch(toPost, new RegExp(myTask.taskId));
    assert.match(toPost, /Nothing to post right now\./);
    assert.match(postedList, new RegExp(myTask.taskId));
    // The notice comes from the report's own flash, once; the address cannot make one.
    assert.match(tasks, /role="status">Reported as posted\. Thank you\.</);
    assert.doesNotMatch((await b.get(TASKS)).body, /Reported as/);
    assert.doesNotMatch((await b.get(`${TASKS}?done=posted`)).body, /Reported as/);

    const again = await b.post(`${TASKS}/${myTask.taskId}/report`, {
      _csrf: csrf,
      outcome: 'failed',
      reason: 'changed my mind',
    });
    assert.equal(again.status, 409);
    assert.match(again.body, /This task is already posted; its outcome cannot change/);
  });

  test('report failed with a reason straight from a new task', async () => {
    const t = get();
    const { worker, myTask, call, postId, mine } = await released(t, '2031-03-05');
    const b = browser(t, '198.51.100.16');
    await workerSignIn(b, worker.token);
    const csrf = await csrfOf(b, myTask.taskId);
    const blank = await b.post(`${TASKS}/${myTask.taskId}/report`, {
      _csrf: csrf,
      outcome: 'failed',
      reason: '   ',
    });
    assert.equal(blank.status, 400);
    assert.match(blank.body, /The reason must not be blank/);
    const done = await b.post(`${TASKS}/${myTask.taskId}/report`, {
      _csrf: csrf,
      outcome: 'failed',
      reason: 'Account locked',
    });
    assert.equal(done.status, 303);
    const task = await client(t, worker.token)('GET', `/worker/v1/tasks/${myTask.taskId}`);
    assert.equal(task.body.state, 'failed');
    assert.equal(task.body.failureReason, 'Account locked');
    assert.ok(task.body.claimedAt, 'claimed on the worker’s behalf before the report');
    const view = await call('GET', `/v2/posts/${postId}`);
    assert.equal(view.body.accounts.find((a: any) => a.accountId === mine).status, 'failed');
  });

  test('a POST without the session’s CSRF token is refused', async () => {
    const t = get();
    const { worker, myTask } = await released(t, '2031-03-06');
    const b = browser(t, '198.51.100.17');
    await workerSignIn(b, worker.token);
    const forged = await b.post(`${TASKS}/${myTask.taskId}/report`, {
      _csrf: 'forged',
      outcome: 'posted',
      postUrl: 'https://platform-a.example/p/1',
    });
    assert.equal(forged.status, 403);
    assert.match(forged.body, /This form has expired/);
    const none = await b.post(`${TASKS}/${myTask.taskId}/start`, {});
    assert.equal(none.status, 403);
    const task = await client(t, worker.token)('GET', `/worker/v1/tasks/${myTask.taskId}`);
    assert.equal(task.body.state, 'released');
  });

  test('revoking or rotating the worker ends its sessions; idle sessions expire', async () => {
    const t = get();
    const { worker } = await released(t, '2031-03-07');
    const b = browser(t, '198.51.100.18');
    await workerSignIn(b, worker.token);
    assert.equal((await b.get(TASKS)).status, 200);
    await revokeWorker(t.ctx.db, t.ctx.clock, worker.workerId);
    const out = await b.get(TASKS);
    assert.equal(out.status, 303);
    assert.equal(out.location, '/dashboard/worker/sign-in');
    assert.equal((await workerSignIn(b, worker.token)).status, 401);

    const rotated = await rotateWorkerToken(t.ctx.db, t.ctx.clock, worker.workerId);
    await workerSignIn(b, rotated.token);
    assert.equal((await b.get(TASKS)).status, 200);
    await rotateWorkerToken(t.ctx.db, t.ctx.clock, worker.workerId);
    assert.equal((await b.get(TASKS)).status, 303);

    const fresh = await rotateWorkerToken(t.ctx.db, t.ctx.clock, worker.workerId);
    await workerSignIn(b, fresh.token);
    t.clock.advance(2 * 60 * 60 * 1000 + 1000);
    assert.equal((await b.get(TASKS)).status, 303);
  });

  test('company sessions do not open worker pages, nor worker sessions company pages', async () => {
    const t = get();
    const { worker, co, myTask } = await released(t, '2031-03-08');
    const u = await userIn(t, co.companyId, 'admin');
    const person = browser(t, '198.51.100.19');
    assert.equal((await signIn(person, u.email, u.password)).status, 303);
    const approvals = await person.get('/dashboard/approvals');
    assert.equal(approvals.status, 200);
    const refused = await person.get(TASKS);
    assert.equal(refused.status, 303);
    assert.equal(refused.location, '/dashboard/worker/sign-in');
    const post = await person.post(`${TASKS}/${myTask.taskId}/start`, {
      _csrf: hidden(approvals.body, '_csrf'),
    });
    assert.equal(post.status, 303);

    const w = browser(t, '198.51.100.20');
    await workerSignIn(w, worker.token);
    assert.equal((await w.get(TASKS)).status, 200);
    const company = await w.get('/dashboard/approvals');
    assert.equal(company.status, 303);
    assert.match(company.location ?? '', /^\/dashboard\/sign-in/);
    // Nor is a worker session's secret taken for a company session's.
    const secret = w.cookies.get('slotline_worker_session') as string;
    const swapped = await t.app.inject({
      method: 'GET',
      url: '/dashboard/approvals',
      headers: { cookie: `slotline_session=${secret}` },
    });
    assert.equal(swapped.statusCode, 303);
  });
});
