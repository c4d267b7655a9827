// Rejecting with a reason, on both databases: the inbox and the post's page ask to confirm
// and for a reason (required, 1-500 characters) before anything is rejected; the reason is
// kept with the item with who rejected it and when, shown on the post, in the activity log
// and in the `post.item.rejected` event's data. Queueing the post to the account again is
// the way back (the state machine has no undo of a rejection: cancelled is final).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, pageShape, signIn, userIn } from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { outbox, seedListeningCompany } from '../../helpers/webhook-events.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;

async function as(t: TestApp, companyId: string, role: UserRole) {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `198.51.100.${(++ips % 200) + 30}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  return { b, email: u.email, userId: u.user.userId };
}

interface Seeded {
  companyId: string;
  call: CallFn;
  accounts: [string, string];
  usernames: Map<string, string>;
  postId: string;
}

async function seed(t: TestApp): Promise<Seeded> {
  const co = await seedListeningCompany(t);
  const call = client(t, co.key);
  const accounts = (await makeAccounts(call, 2)) as [string, string];
  const usernames = new Map<string, string>();
  for (const id of accounts) {
    usernames.set(id, (await call('GET', `/v2/accounts/${id}`)).body.username as string);
  }
  const image = await readyUpload(t, call, 'image.png');
  const post = await call('POST', '/v2/posts', {
    media: [image],
    accountIds: accounts,
    caption: 'Needs review',
  });
  assert.equal(post.status, 201, JSON.stringify(post.body));
  return { companyId: co.companyId, call, accounts, usernames, postId: post.body.postId };
}

async function itemOf(t: TestApp, postId: string, accountId: string) {
  return t.ctx.db
    .selectFrom('queue_items')
    .select(['id', 'status', 'reject_reason', 'rejected_by', 'rejected_at'])
    .where('post_id', '=', postId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
}

describeEachDialect('dashboard rejection with a reason', (get) => {
  test('the inbox asks to confirm with a reason; the reason is kept, shown and sent', async () => {
    const t = get();
    const s = await seed(t);
    const [a, b2] = s.accounts;
    const editor = await as(t, s.companyId, 'editor');
    const inbox = await editor.b.get('/dashboard/approvals');
    // The r key presses a button that asks first: it carries no reason.
    assert.match(
      inbox.body,
      new RegExp(`name="do" value="reject ${s.postId}" data-key="r">Reject post…<`),
    );
    assert.match(inbox.body, /<kbd>r<\/kbd> reject it \(asks for a reason first\)/);
    const token = hidden(inbox.body, '_csrf');
    const path = `/dashboard/approvals/decide?item=${s.postId}:${a}`;

    const ask = await editor.b.post(path, { _csrf: token, outcome: 'reject' });
    assert.equal(ask.status, 200);
    assert.match(ask.body, /Reject this post for 1 account\?/);
    assert.match(ask.body, /“Needs review”/);
    assert.match(ask.body, new RegExp(`@${s.usernames.get(a)}</a>`));
    assert.doesNotMatch(ask.body, new RegExp(`@${s.usernames.get(b2)}</a>`));
    assert.match(ask.body, /<textarea id="reject-reason" name="reason"[^>]*required autofocus/);
    assert.match(ask.body, new RegExp(`name="item" value="${s.postId}:${a}"`));
    assert.equal((await itemOf(t, s.postId, a)).status, 'pending_approval');

    // An account's button on a card names its one account, whatever else is ticked.
    const card = await editor.b.post('/dashboard/approvals/decide', {
      _csrf: token,
      do: `reject ${s.postId}:${a}`,
      item: `${s.postId}:${b2}`,
    });
    assert.equal(card.status, 200);
    assert.match(card.body, /Reject this post for 1 account\?/);
    assert.match(card.body, new RegExp(`name="item" value="${s.postId}:${a}"`));
    assert.doesNotMatch(card.body, new RegExp(`name="item" value="${s.postId}:${b2}"`));

    const empty = await editor.b.post('/dashboard/approvals/decide', {
      _csrf: token,
      outcome: 'reject',
      item: `${s.postId}:${a}`,
      reason: '   ',
    });
    assert.equal(empty.status, 400);
    assert.match(empty.body, /Reason: required/);
    assert.match(empty.body, /id="reject-reason"[^>]*aria-invalid="true"/);
    const long = await editor.b.post('/dashboard/approvals/decide', {
      _csrf: token,
      outcome: 'reject',
      item: `${s.postId}:${a}`,
      reason: 'x'.repeat(501),
    });
    assert.equal(long.status, 400);
    assert.match(long.body, /Reason: at most 500 characters \(this has 501\)/);
    assert.equal((await itemOf(t, s.postId, a)).status, 'pending_approval');

    t.clock.advance(60_000);
    const reason = 'The music is not licensed for ads; use the original sound.';
    const done = await editor.b.post('/dashboard/approvals/decide', {
      _csrf: token,
      outcome: 'reject',
      item: `${s.postId}:${a}`,
      reason: `  ${reason}  `,
    });
    assert.equal(done.status, 303);
    assert.equal(done.location, '/dashboard/approvals');
    assert.match((await editor.b.get('/dashboard/approvals')).body, /role="status">1 rejected</);
    const at = t.clock.now().toISOString();
    const item = await itemOf(t, s.postId, a);
    assert.deepEqual(
      { ...item, id: undefined },
      {
        id: undefined,
        status: 'cancelled',
        reject_reason: reason,
        rejected_by: `user:${editor.userId}`,
        rejected_at: at,
      },
    );
    // The other account still waits.
    assert.equal((await itemOf(t, s.postId, b2)).status, 'pending_approval');

    // On the post: who, when, why.
    const page = await editor.b.get(`/dashboard/posts/${s.postId}`);
    assert.match(
      page.body,
      new RegExp(
        `Rejected by <strong>${editor.email}</strong> on <time datetime="${at}">[^<]+</time>: <q class="reason">${reason}</q>`,
      ),
    );
    assert.match(page.body, /status-rejected">rejected</);

    // In the activity log, the accounts by name and the reason.
    const entry = (await listActivity(t.ctx.db, s.companyId, { limit: 5 })).find(
      (e) => e.action === 'post.rejected',
    );
    assert.equal(entry?.detail, `accounts ${a}; reason: ${reason}`);
    const log = await editor.b.get('/dashboard/activity');
    assert.match(
      log.body,
      new RegExp(`Rejected</td>.*@${s.usernames.get(a)}</a>[^;]*; reason: ${reason}`, 's'),
    );

    // In the webhook event's data.
    const events = (await outbox(t, s.companyId)).filter((e) => e.type === 'post.item.rejected');
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]?.data, {
      postId: s.postId,
      queueItemId: item.id,
      accountId: a,
      status: 'cancelled',
      postUrl: null,
      reason: 'rejected in review',
      rejection: {
        reason,
        rejectedBy: { userId: editor.userId, email: editor.email },
        rejectedAt: at,
      },
    });
  });

  test('from the post’s page: confirm, then back to the post; queueing again is the way back', async () => {
    const t = get();
    const s = await seed(t);
    const [a, b2] = s.accounts;
    const editor = await as(t, s.companyId, 'editor');
    const page = await editor.b.get(`/dashboard/posts/${s.postId}`);
    assert.match(page.body, />Reject all waiting…</);
    const token = hidden(page.body, '_csrf');
    const back = `/dashboard/posts/${s.postId}`;

    const ask = await editor.b.post(`/dashboard/approvals/decide?post=${s.postId}`, {
      _csrf: token,
      outcome: 'reject',
      back,
    });
    assert.equal(ask.status, 200);
    assert.match(ask.body, /Reject for 2 accounts\?/);
    assert.match(ask.body, new RegExp(`name="back" value="${back}"`));
    assert.match(ask.body, new RegExp(`href="${back}">Keep it, go back`));

    const done = await editor.b.post('/dashboard/approvals/decide', {
      _csrf: token,
      outcome: 'reject',
      item: [`${s.postId}:${a}`, `${s.postId}:${b2}`],
      reason: 'Wrong product shown',
      back,
    });
    assert.equal(done.status, 303);
    assert.equal(done.location, back);
    const after = await editor.b.get(back);
    assert.match(after.body, /role="status">2 rejected</);
    assert.equal((after.body.match(/<q class="reason">Wrong product shown<\/q>/g) ?? []).length, 2);
    // A rejected account can be queued again; that is a new decision, not an undo.
    assert.match(after.body, /\(again: it was rejected\)/);
    const queued = await editor.b.post(`/dashboard/posts/${s.postId}/queue`, {
      _csrf: token,
      account: a,
    });
    assert.equal(queued.status, 303, queued.body);
    const revived = await itemOf(t, s.postId, a);
    assert.equal(revived.status, 'pending_approval');
    assert.equal(revived.reject_reason, null);
    assert.equal(revived.rejected_by, null);
    // An address to return to outside the dashboard's posts is not followed.
    const elsewhere = await editor.b.post('/dashboard/approvals/decide', {
      _csrf: token,
      outcome: 'approve',
      item: `${s.postId}:${a}`,
      back: 'https://evil.example/',
    });
    assert.equal(elsewhere.location, '/dashboard/approvals');
  });

  test('viewers, forged forms and other companies’ posts reject nothing', async () => {
    const t = get();
    const s = await seed(t);
    const [a] = s.accounts;
    const viewer = await as(t, s.companyId, 'viewer');
    const inbox = await viewer.b.get('/dashboard/approvals');
    assert.doesNotMatch(inbox.body, /value="reject"/);
    const form = {
      _csrf: hidden(inbox.body, '_csrf'),
      outcome: 'reject',
      item: `${s.postId}:${a}`,
      reason: 'No',
    };
    const refused = await viewer.b.post('/dashboard/approvals/decide', form);
    assert.equal(refused.status, 403);
    assert.match(refused.body, /needs the editor role/);

    const editor = await as(t, s.companyId, 'editor');
    const forged = await editor.b.post('/dashboard/approvals/decide', { ...form, _csrf: 'forged' });
    assert.equal(forged.status, 403);
    assert.match(forged.body, /This form has expired/);

    const other = await seedListeningCompany(t);
    const outsider = await as(t, other.companyId, 'admin');
    const token = hidden((await outsider.b.get('/dashboard/approvals')).body, '_csrf');
    for (const reason of [undefined, 'Not ours']) {
      const body = { _csrf: token, outcome: 'reject', ...(reason ? { reason } : {}) };
      const theirs = await outsider.b.post('/dashboard/approvals/decide', {
        ...body,
        item: `${s.postId}:${a}`,
      });
      const unknown = await outsider.b.post('/dashboard/approvals/decide', {
        ...body,
        item: `pst_unknown:${a}`,
      });
      assert.equal(theirs.status, 404);
      assert.equal(pageShape(theirs.body), pageShape(unknown.body));
    }
    const item = await itemOf(t, s.postId, a);
    assert.equal(item.status, 'pending_approval');
    assert.equal(item.reject_reason, null);
    assert.deepEqual(
      (await outbox(t, s.companyId)).filter((e) => e.type === 'post.item.rejected'),
      [],
    );
  });
});
