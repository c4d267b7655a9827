// The dashboard's Delivery page and a post's delivery record through HTTP on both
// databases: the figures, each account's row, the proof screenshot, and nothing of another
// company.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeActiveAccounts, readyUpload } from '../../helpers/posts.ts';
import { fixture } from '../../helpers/uploads.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';
import { minutes, percent } from '../../../src/pages/company/delivery.pages.ts';

let ips = 0;

async function viewer(t: TestApp, companyId: string): Promise<Browser> {
  const u = await userIn(t, companyId, 'viewer');
  const b = browser(t, `198.51.100.${++ips % 250}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return b;
}

test('shares and minutes read as people read them', () => {
  assert.equal(percent(null), '—');
  assert.equal(percent(0.5714), '57.1 %');
  assert.equal(percent(1), '100 %');
  assert.equal(minutes(null), '—');
  assert.equal(minutes(12), '12 min');
  assert.equal(minutes(120), '2 h');
  assert.equal(minutes(150), '2 h 30 min');
  assert.equal(minutes(1440), 'a day or more');
});

describeEachDialect('dashboard delivery', (get) => {
  test('the company figures, each account, and a post with its proof', async () => {
    const t = get();
    const day = '2026-10-05';
    t.clock.set(`${day}T10:00:00.000Z`);
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b] = (await makeActiveAccounts(t, call, 2)) as [string, string];
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Dana', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [a, b]);
    const work = client(t, worker.token);
    const page0 = await viewer(t, co.companyId);
    const empty = await page0.get('/dashboard/delivery');
    assert.equal(empty.status, 200);
    assert.match(empty.body, /Nothing was delivered in the last 7 days yet/);

    const upload = await readyUpload(t, call, 'image.png');
    const post = await call('POST', '/v2/posts', {
      media: [upload],
      accountIds: [a, b],
      skipApproval: true,
      caption: 'Delivered',
    });
    assert.equal(post.status, 201);
    const postId = post.body.postId as string;
    t.clock.set(`${day}T11:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 2);
    t.clock.set(`${day}T11:12:00.000Z`);
    const claimed = await work('POST', '/worker/v1/tasks/claim', { limit: 2 });
    // Claimed, nothing reported yet: the hand-off time already shows, the rest waits.
    const handedOff = await page0.get('/dashboard/delivery');
    assert.match(
      handedOff.body,
      /<span class="figure">12 min<\/span><span class="label">release to claim by a worker, median \(95 %: 12 min\)/,
    );
    assert.match(
      handedOff.body,
      /<span class="figure">—<\/span><span class="label">release to posted, median/,
    );
    assert.match(handedOff.body, /<span class="cell-label">Median to claim: <\/span>12 min<\/td>/);
    const taskOf = (acc: string) =>
      claimed.body.data.find((x: any) => x.accountId === acc).taskId as string;
    const proof = await t.app.inject({
      method: 'PUT',
      url: `/worker/v1/tasks/${taskOf(a)}/proof`,
      headers: { authorization: `Bearer ${worker.token}`, 'content-type': 'image/png' },
      payload: await fixture('image.png'),
    });
    assert.equal(proof.statusCode, 200, proof.body);
    const done = await work('POST', `/worker/v1/tasks/${taskOf(a)}/result`, {
      outcome: 'posted',
      postUrl: 'https://platform-a.example/@x/video/1',
    });
    assert.equal(done.status, 200);
    const failed = await work('POST', `/worker/v1/tasks/${taskOf(b)}/result`, {
      outcome: 'failed',
      reason: 'Locked out',
    });
    assert.equal(failed.status, 200);

    const delivery = await page0.get('/dashboard/delivery');
    assert.equal(delivery.status, 200);
    assert.match(
      delivery.body,
      /<span class="figure">50 %<\/span><span class="label">posted on time/,
    );
    assert.match(
      delivery.body,
      /<span class="figure">12 min<\/span><span class="label">release to posted, median/,
    );
    assert.match(delivery.body, /<span class="figure">50 %<\/span><span class="label">failed/);
    assert.match(delivery.body, /aria-current="page">Delivery</);
    // Accounts least on time first: b (failed) before a.
    const rowB = delivery.body.indexOf(`account=${encodeURIComponent(b)}"`);
    const rowA = delivery.body.indexOf(`account=${encodeURIComponent(a)}"`);
    assert.ok(rowB > 0 && rowA > rowB, 'the failed account comes first');
    const month = await page0.get('/dashboard/delivery?period=30');
    assert.match(month.body, /over the last 30 days/);
    assert.match(month.body, /aria-current="page">Last 30 days/);
    const bad = await page0.get('/dashboard/delivery?period=5');
    assert.equal(bad.status, 400);

    const detail = await page0.get(`/dashboard/posts/${postId}`);
    assert.equal(detail.status, 200);
    // The tick is drawn by the stylesheet alone, never doubled by the text.
    assert.match(
      detail.body,
      /<span class="status status-posted">on time<\/span> <span class="meta">12 min after opening/,
    );
    assert.match(detail.body, /<img src="[^"]+" alt="Screenshot of the post on @/);
    assert.match(detail.body, /status-failed">failed/);

    // Another company sees its own (empty) figures, and not the post.
    const other = await seedCompany(t);
    const stranger = await viewer(t, other.companyId);
    assert.match((await stranger.get('/dashboard/delivery')).body, /Nothing was delivered/);
    assert.equal((await stranger.get(`/dashboard/posts/${postId}`)).status, 404);
  });
});
