// What a post's page and the posts list say, through HTTP on both databases: a delivered
// post's punctuality chip (its tick drawn once, by the stylesheet) and the window each account
// went out in; rejection as its own state (the API still says `cancelled`) in the list, its
// filter, the CSV export and the post's page, whose delivery record says why it has none; and
// the platformB format only on a post that goes to platformB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeActiveAccounts, makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { reject } from '../../../src/modules/items/index.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;

async function as(t: TestApp, companyId: string, role: UserRole): Promise<Browser> {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 200) + 40}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return b;
}

async function post(call: CallFn, media: string, accountIds: string[], extra = {}) {
  const res = await call('POST', '/v2/posts', { media: [media], accountIds, ...extra });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.postId as string;
}

/** The list's rows as post id → the state its Status cell shows. */
function listed(html: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of html.matchAll(/<tr data-post="([^"]+)">([\s\S]*?)<\/tr>/g)) {
    const cell = /Status: <\/span><span class="status status-([a-z_]+)">([^<]*)</.exec(
      m[2] as string,
    );
    rows.set(m[1] as string, cell ? `${cell[1]}|${cell[2]}` : '');
  }
  return rows;
}

describeEachDialect('dashboard post screens', (get) => {
  test('a delivered post: the chip reads "on time" once; each account shows its window', async () => {
    const t = get();
    t.clock.set('2026-10-05T10:00:00.000Z');
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a] = (await makeActiveAccounts(t, call, 1)) as [string];
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Dana', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [a]);
    const image = await readyUpload(t, call, 'image.png');
    const postId = await post(call, image, [a], { skipApproval: true, caption: 'Went out' });
    const viewer = await as(t, co.companyId, 'viewer');
    const before = await viewer.get(`/dashboard/posts/${postId}`);
    // Queued: its planned window, said to be planned.
    assert.match(
      before.body,
      /<td class="slot"><span class="cell-label">Window: <\/span><time datetime="2026-10-05T11:00:00.000Z">[^<]+<\/time> <span class="meta">planned<\/span><\/td>/,
    );
    assert.match(before.body, /Nothing of this post has been released yet: each account’s record/);
    t.clock.set('2026-10-05T11:00:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
    t.clock.set('2026-10-05T11:07:00.000Z');
    const work = client(t, worker.token);
    const [task] = (await work('POST', '/worker/v1/tasks/claim', { limit: 1 })).body.data;
    const done = await work('POST', `/worker/v1/tasks/${task.taskId}/result`, {
      outcome: 'posted',
      postUrl: 'https://platform-a.example/@x/video/7',
    });
    assert.equal(done.status, 200);

    const page = await viewer.get(`/dashboard/posts/${postId}`);
    assert.equal(page.status, 200);
    // The tick is the stylesheet's (.status-posted::before): the text has none of its own.
    assert.match(
      page.body,
      /<span class="status status-posted">on time<\/span> <span class="meta">7 min after opening/,
    );
    assert.doesNotMatch(page.body, /✓/);
    // Posted: the window it went out in, as Delivery shows it, not a planned window gone.
    assert.match(
      page.body,
      /<td class="slot"><span class="cell-label">Window: <\/span><time datetime="2026-10-05T11:00:00.000Z">[^<]+<\/time> <span class="meta">released<\/span><\/td>/,
    );
    assert.doesNotMatch(page.body, /Planned window/);
    // The post id field holds the whole id.
    assert.match(page.body, new RegExp(`id="post-id" class="id-field" [^>]*value="${postId}"`));
  });

  test('rejection is its own state: list, filter, export and the post’s page', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b] = (await makeAccounts(call, 2)) as [string, string];
    const image = await readyUpload(t, call, 'image.png');
    const rejected = await post(call, image, [a, b], { caption: 'Off brand' });
    const cancelled = await post(call, image, [a], { caption: 'Changed our mind' });
    const waiting = await post(call, image, [b], { caption: 'Still waiting' });
    await reject(t.ctx, { postId: rejected, companyId: co.companyId, reason: 'Wrong logo' });
    assert.equal((await call('DELETE', `/v2/posts/${cancelled}`)).status, 200);
    // The API keeps saying cancelled (DECISIONS 2); the reject record tells them apart.
    assert.equal((await call('GET', `/v2/posts/${rejected}`)).body.status, 'cancelled');

    const viewer = await as(t, co.companyId, 'viewer');
    const list = await viewer.get('/dashboard/posts');
    assert.equal(list.status, 200);
    const rows = listed(list.body);
    assert.equal(rows.get(rejected), 'rejected|rejected');
    assert.equal(rows.get(cancelled), 'cancelled|cancelled');
    assert.equal(rows.get(waiting), 'pending_approval|pending approval');
    // The filter offers it beside cancelled, and each lists its own.
    assert.match(
      list.body,
      /<option value="cancelled">cancelled<\/option><option value="rejected">rejected<\/option>/,
    );
    const onlyRejected = await viewer.get('/dashboard/posts?status=rejected');
    assert.equal(onlyRejected.status, 200);
    assert.deepEqual([...listed(onlyRejected.body).keys()], [rejected]);
    assert.match(onlyRejected.body, /<option value="rejected" selected>rejected<\/option>/);
    const onlyCancelled = await viewer.get('/dashboard/posts?status=cancelled');
    assert.deepEqual([...listed(onlyCancelled.body).keys()], [cancelled]);
    const ofAccount = await viewer.get(`/dashboard/posts?status=rejected&account=${b}`);
    assert.deepEqual([...listed(ofAccount.body).keys()], [rejected]);
    assert.equal((await viewer.get('/dashboard/posts?status=nonsense')).status, 400);
    // The export under the same filter, with the same word in its status cells.
    const csv = await viewer.get('/dashboard/exports/posts.csv?status=rejected');
    assert.equal(csv.status, 200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.equal(lines.length, 3, csv.body);
    for (const line of lines.slice(1)) assert.match(line, new RegExp(`^${rejected},.*,rejected,`));

    const page = await viewer.get(`/dashboard/posts/${rejected}`);
    assert.match(
      page.body,
      /<dt>Status<\/dt><dd><span class="status status-rejected">rejected<\/span><\/dd>/,
    );
    assert.equal(
      (page.body.match(/<span class="status status-rejected">rejected<\/span>/g) ?? []).length,
      3,
      'the post and both of its accounts',
    );
    assert.match(page.body, /This post was rejected in review, so it was never released/);
    assert.doesNotMatch(page.body, /appears here once its window opens/);
    const gone = await viewer.get(`/dashboard/posts/${cancelled}`);
    assert.match(gone.body, /<dt>Status<\/dt><dd><span class="status status-cancelled">cancelled/);
    assert.match(
      gone.body,
      /This post was cancelled before its release: there is no delivery record/,
    );
  });

  test('the platformB format shows only on a post that goes to platformB', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [onA] = await makeAccounts(call, 1, 'platformA');
    const [onB] = await makeAccounts(call, 1, 'platformB');
    const image = await readyUpload(t, call, 'image.png');
    const aOnly = await post(call, image, [onA as string]);
    const both = await post(call, image, [onA as string, onB as string]);
    for (const role of ['viewer', 'editor'] as const) {
      const b = await as(t, co.companyId, role);
      const a = await b.get(`/dashboard/posts/${aOnly}`);
      assert.equal(a.status, 200);
      assert.doesNotMatch(
        a.body,
        /Format on platformB|name="format"/,
        `${role}: a platformA-only post`,
      );
      assert.match(
        (await b.get(`/dashboard/posts/${both}`)).body,
        /<dt>Format on platformB<\/dt><dd>Reel/,
      );
    }
    // The editor's form of a platformA-only post asks nothing of the format.
    const editor = await as(t, co.companyId, 'editor');
    const form = await editor.get(`/dashboard/posts/${aOnly}`);
    assert.match(form.body, /Change the caption, hashtags, sound, notes or tags</);
  });
});
