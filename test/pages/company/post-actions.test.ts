// Acting on posts from the dashboard, on both databases: names instead of ids on the posts
// list, a post's page and the activity log; editing a post under the editability rules;
// cancelling per account or all with a confirmation and what was skipped and why; queueing
// to more accounts; the priority of what is not released; bulk approve and cancel on the
// list; the export links. Roles, CSRF and other companies' ids are refused as everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import {
  browser,
  hidden,
  pageShape,
  signIn,
  userIn,
  type Browser,
} from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import { releaseItems } from '../../../src/modules/items/items.state.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;

async function as(t: TestApp, companyId: string, role: UserRole) {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 200) + 20}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return { b, email: u.email, userId: u.user.userId };
}

async function csrf(b: Browser): Promise<string> {
  return hidden((await b.get('/dashboard/posts')).body, '_csrf');
}

interface Seeded {
  companyId: string;
  call: CallFn;
  accounts: [string, string, string];
  usernames: Map<string, string>;
  image: string;
}

async function seed(t: TestApp): Promise<Seeded> {
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const ids = (await makeAccounts(call, 3)) as [string, string, string];
  const usernames = new Map<string, string>();
  for (const id of ids) {
    usernames.set(id, (await call('GET', `/v2/accounts/${id}`)).body.username as string);
  }
  const image = await readyUpload(t, call, 'image.png');
  return { companyId: co.companyId, call, accounts: ids, usernames, image };
}

async function newPost(s: Seeded, body: Record<string, unknown>): Promise<string> {
  const res = await s.call('POST', '/v2/posts', { media: [s.image], ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.postId as string;
}

/** Releases the post's item of the account, as a window opening would. */
async function release(t: TestApp, postId: string, accountId: string): Promise<void> {
  const item = await t.ctx.db
    .selectFrom('queue_items')
    .select('id')
    .where('post_id', '=', postId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const at = t.clock.now().toISOString();
  const moved = await t.ctx.db.transaction().execute((tx) => releaseItems(tx, [item.id], at));
  assert.equal(moved.length, 1);
}

function statusOf(post: { accounts: { accountId: string; status: string }[] }, id: string) {
  return post.accounts.find((a) => a.accountId === id)?.status;
}

/** The company's log without the users the tests sign in as. */
async function log(t: TestApp, companyId: string) {
  return (await listActivity(t.ctx.db, companyId, { limit: 50 })).filter(
    (e) => !e.action.startsWith('user.'),
  );
}

describeEachDialect('dashboard post actions', (get) => {
  test('the list, a post and its page name accounts, tags and templates, not ids', async () => {
    const t = get();
    const s = await seed(t);
    const [a, b] = s.accounts;
    const tag = await s.call('POST', '/v2/content-tags', { name: 'Spring launch', color: 'rose' });
    const postId = await newPost(s, {
      accountIds: [a, b],
      caption: 'Our spring menu is here, with twelve new dishes to try this week',
      contentGroupIds: [tag.body.contentGroupId],
    });
    // Template provenance (SPEC 2.2 rule 2), as a post made from a template carries it.
    await t.ctx.db
      .insertInto('post_content_groups')
      .values({
        post_id: postId,
        company_id: s.companyId,
        group_id: 'template:tpl_menu',
        created_at: t.clock.now().toISOString(),
      })
      .execute();
    const { b: viewer } = await as(t, s.companyId, 'viewer');

    const list = await viewer.get('/dashboard/posts');
    assert.equal(list.status, 200);
    for (const id of [a, b]) {
      assert.match(
        list.body,
        new RegExp(
          `<a href="/dashboard/accounts/${id}">@${s.usernames.get(id)}</a> <span class="platform">\\(platformA\\)</span>`,
        ),
      );
    }
    assert.match(
      list.body,
      /swatch-rose[^>]*><\/span> <a href="\/dashboard\/posts\?tag=tag%3A[^"]+">Spring launch<\/a>/,
    );
    // A viewer gets no selection for bulk actions.
    assert.doesNotMatch(list.body, /name="post"/);

    const page = await viewer.get(`/dashboard/posts/${postId}`);
    assert.equal(page.status, 200);
    assert.match(
      page.body,
      /<title>“Our spring menu is here, with twelve new dishes to try this…” · Slotline<\/title>/,
    );
    assert.match(page.body, /<h1 class="post-title">“Our spring menu is here/);
    // The id only as secondary text, in a field with a copy button.
    assert.match(page.body, new RegExp(`<input id="post-id"[^>]*readonly value="${postId}"`));
    assert.match(page.body, /data-copy="post-id"/);
    assert.match(page.body, /swatch-rose[^>]*><\/span> <a [^>]*>Spring launch<\/a>/);
    assert.match(page.body, /Template tpl_menu<\/a> <span class="meta">\(made from it\)<\/span>/);
    assert.doesNotMatch(page.body, /Groups: |tag:tag_/);
    for (const id of [a, b]) {
      assert.match(
        page.body,
        new RegExp(`href="/dashboard/accounts/${id}">@${s.usernames.get(id)}<`),
      );
    }
    // A viewer reads; the actions are an editor's.
    assert.doesNotMatch(page.body, /\/edit"|\/cancel"|\/queue"|\/priority"|approvals\/decide/);
  });

  test('an editor edits the metadata; the rules and limits are the API’s', async () => {
    const t = get();
    const s = await seed(t);
    const [a] = s.accounts;
    const tag = await s.call('POST', '/v2/content-tags', { name: 'Menu', color: 'green' });
    const postId = await newPost(s, { accountIds: [a], caption: 'Before' });
    const { b } = await as(t, s.companyId, 'editor');
    const page = await b.get(`/dashboard/posts/${postId}`);
    assert.match(page.body, /data-count-max="2200"/);
    assert.match(page.body, /6 of 2,200 characters/);
    const token = hidden(page.body, '_csrf');
    const form = {
      _csrf: token,
      caption: 'After\r\nwith a second line',
      hashtags: '#food, menu  #Launch',
      soundMode: 'specific',
      soundUrl: 'https://sounds.example/track',
      soundUrlA: '',
      soundUrlB: '',
      notes: 'For the spring campaign',
      tag: tag.body.contentGroupId,
      format: 'reel',
    };
    const saved = await b.post(`/dashboard/posts/${postId}/edit`, form);
    assert.equal(saved.status, 303, saved.body);
    assert.equal(saved.location, `/dashboard/posts/${postId}`);
    assert.match((await b.get(saved.location)).body, /role="status">Post saved\./);
    const api = (await s.call('GET', `/v2/posts/${postId}`)).body;
    assert.equal(api.caption, 'After\nwith a second line');
    assert.deepEqual(api.hashtags, ['food', 'menu', 'Launch']);
    assert.deepEqual(api.sound, { mode: 'specific', url: 'https://sounds.example/track' });
    assert.equal(api.notes, 'For the spring campaign');
    assert.deepEqual(api.contentGroupIds, [tag.body.contentGroupId]);
    const [edited] = await log(t, s.companyId);
    assert.equal(edited?.action, 'post.edited');
    assert.equal(edited?.target, postId);
    assert.equal(edited?.detail, 'caption, hashtags, sound, notes, tags');

    // The same form again changes nothing and records nothing.
    const same = await b.post(`/dashboard/posts/${postId}/edit`, form);
    assert.equal(same.status, 303);
    assert.match((await b.get(`/dashboard/posts/${postId}`)).body, /Nothing to save/);
    assert.equal((await log(t, s.companyId)).length, 1);

    // A caption of 2,200 characters with its line ends counted once is taken; 2,201 is not.
    const exact = `${'a'.repeat(1099)}\r\n${'b'.repeat(1100)}`;
    assert.equal(
      (await b.post(`/dashboard/posts/${postId}/edit`, { ...form, caption: exact })).status,
      303,
    );
    const long = await b.post(`/dashboard/posts/${postId}/edit`, {
      ...form,
      caption: 'x'.repeat(2201),
      hashtags: Array.from({ length: 31 }, (_, i) => `h${i}`).join(' '),
    });
    assert.equal(long.status, 400);
    assert.match(long.body, /Caption: at most 2,200 characters \(this has 2,201\)/);
    assert.match(long.body, /Hashtags: at most 30 \(you entered 31\)/);
    assert.match(long.body, /id="post-caption"[^>]*aria-invalid="true"/);
    // What was typed is kept.
    assert.match(long.body, /xxxxxxxxxx<\/textarea>/);
    const feed = await b.post(`/dashboard/posts/${postId}/edit`, { ...form, format: 'post' });
    assert.equal(feed.status, 400);
    assert.match(feed.body, /Format on platformB: regular feed posts are not enabled/);
    const badUrl = await b.post(`/dashboard/posts/${postId}/edit`, { ...form, soundUrl: 'nope' });
    assert.equal(badUrl.status, 400);
    assert.match(badUrl.body, /Sound link: must be an http or https URL/);
    assert.equal(
      (await s.call('GET', `/v2/posts/${postId}`)).body.caption,
      exact.replace('\r', ''),
    );
  });

  test('past editing the page says why; only the tags can still change', async () => {
    const t = get();
    const s = await seed(t);
    const [a, b2] = s.accounts;
    const tag = await s.call('POST', '/v2/content-tags', { name: 'Late tag' });
    const postId = await newPost(s, {
      accountIds: [a, b2],
      skipApproval: true,
      caption: 'Going out',
    });
    await release(t, postId, a);
    const { b } = await as(t, s.companyId, 'editor');
    const page = await b.get(`/dashboard/posts/${postId}`);
    assert.match(
      page.body,
      new RegExp(
        `can no longer change: it has been released to @${s.usernames.get(a)}’s worker for posting\\. Its tags can still change\\.`,
      ),
    );
    assert.doesNotMatch(page.body, /name="caption"/);
    assert.match(page.body, /name="scope" value="tags"/);
    const token = hidden(page.body, '_csrf');

    const refused = await b.post(`/dashboard/posts/${postId}/edit`, {
      _csrf: token,
      caption: 'Changed anyway',
      hashtags: '',
      soundMode: '',
      notes: '',
      format: 'reel',
    });
    assert.equal(refused.status, 409);
    assert.match(
      refused.body,
      /role="alert">The caption, hashtags, sound, notes and format can no longer change/,
    );
    assert.equal((await s.call('GET', `/v2/posts/${postId}`)).body.caption, 'Going out');

    const tagged = await b.post(`/dashboard/posts/${postId}/edit`, {
      _csrf: token,
      scope: 'tags',
      tag: tag.body.contentGroupId,
    });
    assert.equal(tagged.status, 303, tagged.body);
    assert.deepEqual((await s.call('GET', `/v2/posts/${postId}`)).body.contentGroupIds, [
      tag.body.contentGroupId,
    ]);
    assert.match((await b.get(`/dashboard/posts/${postId}`)).body, /Tags saved\./);
  });

  test('cancel asks first, then shows what was cancelled and what was skipped and why', async () => {
    const t = get();
    const s = await seed(t);
    const [a, b2, c] = s.accounts;
    const postId = await newPost(s, { accountIds: [a, b2, c], skipApproval: true });
    await release(t, postId, c);
    const { b } = await as(t, s.companyId, 'editor');
    const token = await csrf(b);
    const path = `/dashboard/posts/${postId}/cancel`;

    // One account: the confirmation first, nothing changed yet.
    const ask = await b.post(path, { _csrf: token, account: a });
    assert.equal(ask.status, 200);
    assert.match(ask.body, new RegExp(`<h1>Cancel Image post for @${s.usernames.get(a)}\\?</h1>`));
    assert.match(ask.body, /name="confirm" value="yes"/);
    assert.equal(statusOf((await s.call('GET', `/v2/posts/${postId}`)).body, a), 'queued');
    const one = await b.post(path, { _csrf: token, account: a, confirm: 'yes' });
    assert.equal(one.status, 200);
    assert.match(one.body, /Cancelled for 1 account\./);
    assert.match(one.body, new RegExp(`@${s.usernames.get(a)}</a>`));
    assert.equal(statusOf((await s.call('GET', `/v2/posts/${postId}`)).body, a), 'cancelled');

    // All: the one being posted is skipped, and the page says why.
    const askAll = await b.post(path, { _csrf: token });
    assert.match(askAll.body, /Will be cancelled/);
    assert.match(askAll.body, /Will be left as they are/);
    assert.match(askAll.body, /it is being posted right now: its worker has it/);
    const all = await b.post(path, { _csrf: token, confirm: 'yes' });
    assert.equal(all.status, 200);
    assert.match(all.body, /<h2>Cancelled<\/h2>/);
    assert.match(all.body, new RegExp(`@${s.usernames.get(b2)}</a>`));
    assert.match(
      all.body,
      new RegExp(
        `@${s.usernames.get(c)}</a>[^<]*<span class="platform">\\(platformA\\)</span></span>: it is being posted right now`,
      ),
    );
    assert.match(all.body, /it was already cancelled or rejected/);
    const after = (await s.call('GET', `/v2/posts/${postId}`)).body;
    assert.equal(statusOf(after, b2), 'cancelled');
    assert.equal(statusOf(after, c), 'posting');

    // Nothing left to cancel: refused as the API refuses it, with the reasons.
    const none = await b.post(path, { _csrf: token, confirm: 'yes' });
    assert.equal(none.status, 409);
    assert.match(none.body, /Nothing was cancelled/);
    assert.match(none.body, /it is being posted right now/);

    const entries = (await log(t, s.companyId)).filter((e) => e.action === 'post.cancelled');
    assert.deepEqual(
      entries.map((e) => e.detail),
      [
        `accounts ${b2}; skipped ${a} (already_cancelled), ${c} (currently_posting)`,
        `accounts ${a}`,
      ],
    );
    // An account of the company the post was never queued to, and another company's.
    const other = await seedCompany(t);
    const [theirs] = await makeAccounts(client(t, other.key), 1);
    assert.equal((await b.post(path, { _csrf: token, account: theirs as string })).status, 404);
  });

  test('queue to more accounts, skipping approval, at a priority; and its refusals', async () => {
    const t = get();
    const s = await seed(t);
    const [a, b2, c] = s.accounts;
    const postId = await newPost(s, { accountIds: [a] });
    const { b } = await as(t, s.companyId, 'editor');
    const page = await b.get(`/dashboard/posts/${postId}`);
    assert.match(page.body, /Choose accounts \(2 available\)/);
    assert.match(page.body, /name="skipApproval"/);
    const token = hidden(page.body, '_csrf');
    const path = `/dashboard/posts/${postId}/queue`;

    const none = await b.post(path, { _csrf: token });
    assert.equal(none.status, 400);
    assert.match(none.body, /Accounts: choose at least one account/);
    const badPriority = await b.post(path, { _csrf: token, account: b2, priority: '-1' });
    assert.equal(badPriority.status, 400);
    assert.match(badPriority.body, /Priority: a whole number from 0 to 1,000,000/);

    const queued = await b.post(path, {
      _csrf: token,
      account: [b2, c],
      skipApproval: 'on',
      priority: '5',
    });
    assert.equal(queued.status, 303, queued.body);
    const shown = await b.get(`/dashboard/posts/${postId}`);
    assert.match(
      shown.body,
      new RegExp(`Queued to @${s.usernames.get(b2)}, @${s.usernames.get(c)}; approval skipped`),
    );
    const api = (await s.call('GET', `/v2/posts/${postId}`)).body;
    assert.equal(statusOf(api, b2), 'queued');
    assert.equal(statusOf(api, c), 'queued');
    const priorities = await t.ctx.db
      .selectFrom('queue_items')
      .select(['account_id', 'priority'])
      .where('post_id', '=', postId)
      .execute();
    assert.deepEqual(Object.fromEntries(priorities.map((r) => [r.account_id, r.priority])), {
      [a]: 0,
      [b2]: 5,
      [c]: 5,
    });
    const [entry] = await log(t, s.companyId);
    assert.equal(entry?.action, 'post.queued');
    assert.equal(entry?.detail, `accounts ${b2}, ${c}, approval skipped, priority 5`);

    // Already on the post: the API's duplicate_queue_item, in words.
    const twice = await b.post(path, { _csrf: token, account: a });
    assert.equal(twice.status, 409);
    assert.match(twice.body, /Nothing was queued: the post is already waiting or queued/);
    // Another company's account reads as unknown.
    const other = await seedCompany(t);
    const [theirs] = await makeAccounts(client(t, other.key), 1);
    assert.equal((await b.post(path, { _csrf: token, account: theirs as string })).status, 404);
    assert.equal((await b.post(path, { _csrf: token, account: 'acc_unknown' })).status, 404);
    assert.match(
      (await b.get(`/dashboard/posts/${postId}`)).body,
      /Every account of the company already has this post\./,
    );
  });

  test('the priority of what is not released changes, recorded in the log', async () => {
    const t = get();
    const s = await seed(t);
    const [a, b2] = s.accounts;
    const postId = await newPost(s, { accountIds: [a, b2], skipApproval: true });
    await release(t, postId, b2);
    const { b } = await as(t, s.companyId, 'editor');
    const token = await csrf(b);
    const path = `/dashboard/posts/${postId}/priority`;
    const bad = await b.post(path, { _csrf: token, priority: 'high' });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /Priority: a whole number from 0 to 1,000,000/);
    assert.match(bad.body, /id="post-priority"[^>]*aria-invalid="true"/);

    const set = await b.post(path, { _csrf: token, priority: '9' });
    assert.equal(set.status, 303);
    assert.match(
      (await b.get(set.location as string)).body,
      new RegExp(`Priority set to 9 for @${s.usernames.get(a)}\\.`),
    );
    const rows = await t.ctx.db
      .selectFrom('queue_items')
      .select(['account_id', 'priority'])
      .where('post_id', '=', postId)
      .execute();
    // The released item keeps its priority.
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.account_id, r.priority])), {
      [a]: 9,
      [b2]: 0,
    });
    const again = await b.post(path, { _csrf: token, priority: '9' });
    assert.match((await b.get(again.location as string)).body, /Nothing changed/);
    const entries = (await log(t, s.companyId)).filter((e) => e.action === 'post.priority_changed');
    assert.deepEqual(
      entries.map((e) => [e.target, e.detail]),
      [[postId, `priority 9 for accounts ${a}`]],
    );
  });

  test('viewers are refused, forms need their CSRF token, other companies’ posts are unknown', async () => {
    const t = get();
    const s = await seed(t);
    const [a] = s.accounts;
    const postId = await newPost(s, { accountIds: [a], caption: 'Kept' });
    const viewer = await as(t, s.companyId, 'viewer');
    const vToken = await csrf(viewer.b);
    const actions: [string, Record<string, string>][] = [
      ['edit', { caption: 'Changed' }],
      ['cancel', { confirm: 'yes' }],
      ['queue', { account: s.accounts[1] }],
      ['priority', { priority: '3' }],
    ];
    for (const [action, form] of actions) {
      const res = await viewer.b.post(`/dashboard/posts/${postId}/${action}`, {
        _csrf: vToken,
        ...form,
      });
      assert.equal(res.status, 403, action);
      assert.match(res.body, /needs the editor role/);
    }
    const bulk = await viewer.b.post('/dashboard/posts/bulk', {
      _csrf: vToken,
      post: postId,
      action: 'approve',
      confirm: 'yes',
    });
    assert.equal(bulk.status, 403);

    const editor = await as(t, s.companyId, 'editor');
    for (const [action, form] of actions) {
      const res = await editor.b.post(`/dashboard/posts/${postId}/${action}`, {
        _csrf: 'forged',
        ...form,
      });
      assert.equal(res.status, 403, action);
      assert.match(res.body, /This form has expired/);
    }
    const api = (await s.call('GET', `/v2/posts/${postId}`)).body;
    assert.equal(api.caption, 'Kept');
    assert.equal(statusOf(api, a), 'pending_approval');

    const other = await seedCompany(t);
    const outsider = await as(t, other.companyId, 'admin');
    const oToken = await csrf(outsider.b);
    for (const [action, form] of actions) {
      const theirs = await outsider.b.post(`/dashboard/posts/${postId}/${action}`, {
        _csrf: oToken,
        ...form,
      });
      const unknown = await outsider.b.post(`/dashboard/posts/pst_unknown/${action}`, {
        _csrf: oToken,
        ...form,
      });
      assert.equal(theirs.status, 404, action);
      assert.equal(pageShape(theirs.body), pageShape(unknown.body));
    }
    const theirBulk = await outsider.b.post('/dashboard/posts/bulk', {
      _csrf: oToken,
      post: postId,
      action: 'cancel',
    });
    assert.equal(theirBulk.status, 404);
    assert.equal(
      statusOf((await s.call('GET', `/v2/posts/${postId}`)).body, a),
      'pending_approval',
    );
  });

  test('bulk approve and cancel ask first, then say what happened to each post', async () => {
    const t = get();
    const s = await seed(t);
    const [a, b2, c] = s.accounts;
    const first = await newPost(s, { accountIds: [a, b2], caption: 'First of the batch' });
    const second = await newPost(s, { accountIds: [c], caption: 'Second of the batch' });
    const queued = await newPost(s, {
      accountIds: [a],
      skipApproval: true,
      caption: 'Already queued',
    });
    const { b } = await as(t, s.companyId, 'editor');
    const list = await b.get('/dashboard/posts');
    assert.match(list.body, /<form id="bulk" method="post" action="\/dashboard\/posts\/bulk"/);
    assert.match(list.body, /data-select-posts="bulk"/);
    assert.match(list.body, new RegExp(`form="bulk" name="post" value="${first}"`));
    const token = hidden(list.body, '_csrf');

    const ask = await b.post('/dashboard/posts/bulk', {
      _csrf: token,
      action: 'approve',
      post: [first, second, queued],
      back: '/dashboard/posts?status=pending_approval',
    });
    assert.equal(ask.status, 200);
    assert.match(ask.body, /Approve 3 posts\?/);
    assert.match(ask.body, /Will be approved for/);
    assert.match(ask.body, /Nothing of it waits for approval\./);
    assert.equal((await s.call('GET', `/v2/posts/${first}`)).body.status, 'pending_approval');

    const done = await b.post('/dashboard/posts/bulk', {
      _csrf: token,
      action: 'approve',
      post: [first, second, queued],
      confirm: 'yes',
      back: '/dashboard/posts?status=pending_approval',
    });
    assert.equal(done.status, 200);
    assert.match(done.body, /2 posts of 3 changed\./);
    assert.match(
      done.body,
      new RegExp(`Approved for <span class="ref ref-account"><a [^>]*>@${s.usernames.get(a)}</a>`),
    );
    assert.match(done.body, /href="\/dashboard\/posts\?status=pending_approval"/);
    for (const id of [first, second]) {
      assert.equal((await s.call('GET', `/v2/posts/${id}`)).body.status, 'queued');
    }

    await release(t, first, a);
    const cancelled = await b.post('/dashboard/posts/bulk', {
      _csrf: token,
      action: 'cancel',
      post: [first, second],
      confirm: 'yes',
    });
    assert.equal(cancelled.status, 200);
    assert.match(cancelled.body, /left alone, it is being posted right now/);
    const after = (await s.call('GET', `/v2/posts/${first}`)).body;
    assert.equal(statusOf(after, a), 'posting');
    assert.equal(statusOf(after, b2), 'cancelled');
    assert.equal((await s.call('GET', `/v2/posts/${second}`)).body.status, 'cancelled');

    const actions = (await log(t, s.companyId)).map((e) => e.action);
    assert.deepEqual(actions, [
      'post.cancelled',
      'post.cancelled',
      'post.approved',
      'post.approved',
    ]);
    const empty = await b.post('/dashboard/posts/bulk', { _csrf: token, action: 'approve' });
    assert.equal(empty.status, 400);
    assert.match(empty.body, /Select at least one post/);
  });

  test('the activity log names accounts, posts and tags; the export links keep the filters', async () => {
    const t = get();
    const s = await seed(t);
    const [a, b2] = s.accounts;
    const tag = await s.call('POST', '/v2/content-tags', { name: 'Weekly', color: 'violet' });
    const postId = await newPost(s, { accountIds: [a, b2], caption: 'Logged post' });
    const { b } = await as(t, s.companyId, 'admin');
    const token = await csrf(b);
    await b.post(`/dashboard/approvals/decide?post=${postId}`, {
      _csrf: token,
      outcome: 'approve',
    });
    await b.post(`/dashboard/posts/${postId}/edit`, {
      _csrf: token,
      scope: 'tags',
      tag: tag.body.contentGroupId,
    });
    await b.post(`/dashboard/tags/${tag.body.tagId}`, {
      _csrf: token,
      name: 'Weekly picks',
      color: 'violet',
    });

    const page = await b.get('/dashboard/activity');
    assert.equal(page.status, 200);
    assert.match(page.body, /Approved<\/td>/);
    assert.match(
      page.body,
      new RegExp(
        `accounts <span class="ref ref-account"><a href="/dashboard/accounts/${a}">@${s.usernames.get(a)}</a> <span class="platform">\\(platformA\\)</span></span>, <span class="ref ref-account"><a href="/dashboard/accounts/${b2}">@${s.usernames.get(b2)}</a>`,
      ),
    );
    assert.match(page.body, new RegExp(`<a href="/dashboard/posts/${postId}">“Logged post”</a>`));
    assert.match(page.body, /swatch-violet[^>]*><\/span> <a [^>]*>Weekly picks<\/a>/);
    assert.doesNotMatch(page.body, /<code class="id">acc_/);
    assert.match(page.body, /href="\/dashboard\/exports\/activity\.csv"/);

    const list = await b.get(
      `/dashboard/posts?status=queued&account=${a}&tag=${encodeURIComponent(tag.body.contentGroupId)}`,
    );
    const query = new URLSearchParams({
      status: 'queued',
      account: a,
      tag: tag.body.contentGroupId,
    });
    const href = `/dashboard/exports/posts.csv?${query.toString().replace(/&/g, '&amp;')}`;
    assert.ok(list.body.includes(`href="${href}"`), href);
    assert.match((await b.get('/dashboard/posts')).body, /href="\/dashboard\/exports\/posts\.csv"/);
  });
});
