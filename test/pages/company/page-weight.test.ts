// The dashboard's list pages stay light (issue 22: every page's first load under 150 KB): each
// shows a page of its rows with links to the others, keeping its filters; a page's buttons
// share one form and its CSRF field; thumbnails go through short redirecting addresses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload } from '../../helpers/posts.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;

async function as(t: TestApp, companyId: string, role: UserRole): Promise<Browser> {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return b;
}

const count = (html: string, pattern: RegExp) => (html.match(pattern) ?? []).length;
const linkTo = (html: string, text: string) =>
  new RegExp(`<a href="([^"]+)">${text}</a>`).exec(html)?.[1]?.replaceAll('&amp;', '&');

describeEachDialect('dashboard page weight', (get) => {
  test('approvals: ten posts a page; a card’s buttons name their target in one form', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b] = (await makeAccounts(call, 2)) as [string, string];
    const image = await readyUpload(t, call, 'image.png');
    const posts: string[] = [];
    for (let n = 0; n < 11; n++) {
      const res = await call('POST', '/v2/posts', {
        media: [image],
        accountIds: [a, b],
        caption: `Review ${n}`,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      posts.push(res.body.postId);
      t.clock.advance(1000);
    }
    const editor = await as(t, co.companyId, 'editor');
    const first = await editor.get('/dashboard/approvals');
    assert.equal(first.status, 200);
    assert.equal(count(first.body, /<li class="card"/g), 10);
    // The sign-out form's field and the page's one form, however many cards have buttons.
    assert.equal(count(first.body, /name="_csrf"/g), 2);
    assert.doesNotMatch(first.body, /Newest posts/);
    const older = linkTo(first.body, 'Older posts');
    assert.ok(older, 'a link to the older posts');
    const second = await editor.get(older);
    assert.equal(count(second.body, /<li class="card"/g), 1);
    assert.match(second.body, new RegExp(`data-post="${posts[0]}"`));
    assert.equal(linkTo(second.body, 'Newest posts'), '/dashboard/approvals');
    assert.equal(linkTo(second.body, 'Older posts'), undefined);

    // Each card's buttons: the post, and each account on its own.
    const newest = posts[10] as string;
    for (const value of [`approve ${newest}`, `reject ${newest}`, `approve ${newest}:${a}`]) {
      assert.ok(first.body.includes(`name="do" value="${value}"`), value);
    }
    assert.match(first.body, new RegExp(`aria-label="Reject for @[^"]+…">Reject…</button>`));
    // Pressed with other accounts ticked, an account's button decides for that one only.
    const token = hidden(first.body, '_csrf');
    const one = await editor.post('/dashboard/approvals/decide', {
      _csrf: token,
      do: `approve ${newest}:${a}`,
      item: [`${newest}:${b}`, `${posts[9]}:${a}`],
    });
    assert.equal(one.status, 303);
    assert.match((await editor.get('/dashboard/approvals')).body, /role="status">1 approved</);
    const statuses = async (postId: string) =>
      Object.fromEntries(
        (await call('GET', `/v2/posts/${postId}`)).body.accounts.map(
          (x: { accountId: string; status: string }) => [x.accountId, x.status],
        ),
      );
    assert.deepEqual(await statuses(newest), { [a]: 'queued', [b]: 'pending_approval' });
    assert.deepEqual(await statuses(posts[9] as string), {
      [a]: 'pending_approval',
      [b]: 'pending_approval',
    });
    // A whole post's button; then the selection's, with the accounts ticked.
    const post = await editor.post('/dashboard/approvals/decide', {
      _csrf: token,
      do: `approve ${posts[9]}`,
    });
    assert.equal(post.status, 303);
    assert.deepEqual(await statuses(posts[9] as string), { [a]: 'queued', [b]: 'queued' });
    const ticked = await editor.post('/dashboard/approvals/decide', {
      _csrf: token,
      outcome: 'approve',
      item: [`${posts[8]}:${b}`],
    });
    assert.equal(ticked.status, 303);
    assert.deepEqual(await statuses(posts[8] as string), {
      [a]: 'pending_approval',
      [b]: 'queued',
    });
    for (const bad of ['approve', 'publish ' + newest, `approve ${newest} ${newest}`]) {
      const refused = await editor.post('/dashboard/approvals/decide', { _csrf: token, do: bad });
      assert.equal(refused.status, 400, bad);
    }

    // A viewer sees the cards (the first page: one post has left) without a form or buttons.
    const viewer = await as(t, co.companyId, 'viewer');
    const seen = (await viewer.get('/dashboard/approvals')).body;
    assert.equal(count(seen, /<li class="card"/g), 10);
    assert.doesNotMatch(seen, /name="do"|type="checkbox"|approvals\/decide/);
  });

  test('posts: fifteen a page, filters kept; thumbnails redirect to their signed URL', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b] = (await makeAccounts(call, 2)) as [string, string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    // The thumbnail is made off the request path.
    await t.media.idle();
    for (let n = 0; n < 17; n++) {
      const res = await call('POST', '/v2/posts', {
        media: [video],
        accountIds: [n === 0 ? b : a],
        caption: `Post ${n}`,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      t.clock.advance(1000);
    }
    const editor = await as(t, co.companyId, 'editor');
    const list = await editor.get(`/dashboard/posts?account=${a}`);
    assert.equal(list.status, 200);
    assert.equal(count(list.body, /<tr data-post=/g), 15);
    assert.equal(count(list.body, /name="_csrf"/g), 2);
    const older = linkTo(list.body, 'Older posts') ?? '';
    assert.ok(older.startsWith(`/dashboard/posts?account=${a}&cursor=`), older);
    const rest = await editor.get(older);
    assert.equal(count(rest.body, /<tr data-post=/g), 1);
    assert.equal(linkTo(rest.body, 'First page'), `/dashboard/posts?account=${a}`);

    const thumb = /<img src="(\/dashboard\/posts\/(pst_[^/]+)\/thumbnail)"/.exec(list.body);
    assert.ok(thumb, 'a thumbnail by its short address');
    const signed = await editor.get(thumb[1] as string);
    assert.equal(signed.status, 302);
    assert.match(signed.location ?? '', /\/v2\/media\/uploads\/upl_[^/]+\/thumbnail\?expires=/);
    assert.equal((await editor.get('/dashboard/posts/pst_unknown/thumbnail')).status, 404);
    const other = await seedCompany(t);
    const stranger = await as(t, other.companyId, 'viewer');
    assert.equal((await stranger.get(thumb[1] as string)).status, 404);
  });

  test('accounts: 25 a page; delivery: 50 a page, keeping the period', async () => {
    const t = get();
    const co = await seedCompany(t, { plan: 'growth' });
    const call = client(t, co.key);
    const accounts = await makeAccounts(call, 51);
    const editor = await as(t, co.companyId, 'editor');

    const list = await editor.get('/dashboard/accounts');
    assert.equal(count(list.body, /<tr data-account=/g), 25);
    // One form for the rows' pause buttons: its field, and the sign-out form's.
    assert.equal(count(list.body, /name="_csrf"/g), 2);
    const pause = new RegExp(`formaction="/dashboard/accounts/${accounts[0]}/pause"`);
    assert.match(list.body, pause);
    const paused = await editor.post(`/dashboard/accounts/${accounts[0]}/pause`, {
      _csrf: hidden(list.body, '_csrf'),
    });
    assert.equal(paused.status, 303);
    assert.equal((await call('GET', `/v2/accounts/${accounts[0]}`)).body.status, 'paused');
    const seen = new Set<string>();
    let url: string | undefined = '/dashboard/accounts';
    for (let pages = 0; url && pages < 5; pages++) {
      const res = await editor.get(url);
      for (const m of res.body.matchAll(/<tr data-account="([^"]+)"/g)) seen.add(m[1] as string);
      url = linkTo(res.body, 'More accounts');
    }
    assert.equal(seen.size, 51, 'every account on one page or another');

    const delivery = await editor.get('/dashboard/delivery?period=30');
    assert.equal(count(delivery.body, /<tr><th scope="row">/g), 50);
    assert.match(delivery.body, /Accounts 1–50 of 51/);
    const more = linkTo(delivery.body, 'More accounts');
    assert.equal(more, '/dashboard/delivery?period=30&page=2');
    const last = await editor.get(more);
    assert.equal(count(last.body, /<tr><th scope="row">/g), 1);
    assert.match(last.body, /aria-current="page">Last 30 days/);
    assert.equal(linkTo(last.body, 'Previous accounts'), '/dashboard/delivery?period=30');
    // Past the last page: the last page.
    const past = await editor.get('/dashboard/delivery?page=9');
    assert.equal(count(past.body, /<tr><th scope="row">/g), 1);
    assert.equal((await editor.get('/dashboard/delivery?page=0')).status, 400);
  });
});
