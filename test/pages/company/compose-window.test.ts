// Choosing the window in the composer, through HTTP on both databases: the window preview for
// the chosen accounts, a particular day's window, a per-account window, "not before" a time,
// a window taken since refused beside its account, and the chosen floor kept through approval;
// each checked against the API's `scheduledSlotStart` and `scheduledAfter` and the queue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload, setAccountStatus } from '../../helpers/posts.ts';
import { approve } from '../../../src/modules/items/index.ts';

let ips = 0;

async function composer(t: TestApp, companyId: string): Promise<{ b: Browser; csrf: string }> {
  const u = await userIn(t, companyId, 'admin');
  const b = browser(t, `198.51.100.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const page = await b.get('/dashboard/compose');
  assert.equal(page.status, 200, page.body);
  return { b, csrf: hidden(page.body, '_csrf') };
}

/** The window starts offered for an account in the preview, in order. */
function offered(html: string, accountId: string): string[] {
  const select = new RegExp(`<select id="at-${accountId}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  assert.ok(select, html);
  return [...(select[1] as string).matchAll(/<option value="(\d{4}-[^"]+)"/g)].map(
    (m) => m[1] as string,
  );
}

const postIdOf = (location: string | undefined) =>
  decodeURIComponent(/\/posts\/([^/?]+)/.exec(location ?? '')?.[1] ?? '');

describeEachDialect('composer: choosing the window', (get) => {
  async function setup() {
    const t = get();
    // Monday 2 March 2026, 10:00 UTC.
    t.clock.set('2026-03-02T10:00:00.000Z');
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const accounts = (await makeAccounts(call, 2)) as [string, string];
    await setAccountStatus(t, accounts);
    for (const id of accounts) {
      const r = await call('PATCH', `/v2/accounts/${id}/schedule`, {
        schedule: { windows: ['08:00', '14:00'] },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const s = await composer(t, co.companyId);
    const form = (fields: Record<string, string | string[]>) => ({
      _csrf: s.csrf,
      key: `k-${Math.random()}`,
      kind: 'video',
      video,
      skipApproval: 'true',
      ...fields,
    });
    return { t, co, call, accounts, video, s, form };
  }

  test('the preview lists each account’s free windows, and other companies’ accounts not at all', async () => {
    const { t, accounts, s } = await setup();
    const other = await seedCompany(t, { name: 'Other Co' });
    const [foreign] = (await makeAccounts(client(t, other.key), 1)) as [string];
    const res = await s.b.get(
      `/dashboard/compose/windows?account=${accounts[0]}&account=${foreign}&when=next`,
    );
    assert.equal(res.status, 200, res.body);
    const starts = offered(res.body, accounts[0]);
    assert.deepEqual(starts.slice(0, 3), [
      '2026-03-02T14:00:00.000Z',
      '2026-03-03T08:00:00.000Z',
      '2026-03-03T14:00:00.000Z',
    ]);
    assert.match(res.body, /data-planned="2026-03-02T14:00:00.000Z"/);
    assert.ok(!res.body.includes(foreign));
    const page = await s.b.get('/dashboard/compose');
    assert.match(page.body, /Posts go out in posting windows/);
  });

  test('a day’s window and a per-account window land there, as the API and the queue say', async () => {
    const { accounts, call, s, form } = await setup();
    const [a, b] = accounts;
    const sent = await s.b.post(
      '/dashboard/compose',
      form({
        account: [a, b],
        when: 'day',
        whenDay: '2026-03-04',
        [`at.${b}`]: '2026-03-03T14:00:00.000Z',
      }),
    );
    assert.equal(sent.status, 303, sent.body);
    const post = await call('GET', `/v2/posts/${postIdOf(sent.location)}`);
    type Entry = {
      accountId: string;
      status: string;
      scheduledSlotStart?: string;
      scheduledAfter?: string;
    };
    const byAccount = new Map<string, Entry>(
      (post.body.accounts as Entry[]).map((x) => [x.accountId, x]),
    );
    assert.equal(byAccount.get(a)?.status, 'queued');
    assert.equal(byAccount.get(a)?.scheduledSlotStart, '2026-03-04T08:00:00.000Z');
    assert.equal(byAccount.get(a)?.scheduledAfter, '2026-03-04T08:00:00.000Z');
    assert.equal(byAccount.get(b)?.scheduledSlotStart, '2026-03-03T14:00:00.000Z');
    const queue = await call('GET', `/v2/accounts/${a}/queue`);
    assert.equal(queue.body.data[0].scheduledSlotStart, '2026-03-04T08:00:00.000Z');

    // The next post for the same account, next free window: today's 14:00 is still free.
    const next = await s.b.post('/dashboard/compose', form({ account: a, when: 'next' }));
    assert.equal(next.status, 303, next.body);
    const nextPost = await call('GET', `/v2/posts/${postIdOf(next.location)}`);
    assert.equal(nextPost.body.accounts[0].scheduledSlotStart, '2026-03-02T14:00:00.000Z');
    assert.equal(nextPost.body.accounts[0].scheduledAfter, undefined);
  });

  test('not before a time: the first window at or after it', async () => {
    const { call, accounts, s, form } = await setup();
    const sent = await s.b.post(
      '/dashboard/compose',
      form({ account: accounts[0], when: 'after', notBefore: '2026-03-03T09:30' }),
    );
    assert.equal(sent.status, 303, sent.body);
    const post = await call('GET', `/v2/posts/${postIdOf(sent.location)}`);
    assert.equal(post.body.accounts[0].scheduledAfter, '2026-03-03T09:30:00.000Z');
    assert.equal(post.body.accounts[0].scheduledSlotStart, '2026-03-03T14:00:00.000Z');
    for (const [notBefore, words] of [
      ['2026-03-01T09:00', 'that time has passed'],
      ['soon', 'give a date and a time'],
    ] as const) {
      const refused = await s.b.post(
        '/dashboard/compose',
        form({ account: accounts[0], when: 'after', notBefore }),
      );
      assert.equal(refused.status, 400);
      assert.ok(refused.body.includes(words), words);
    }
  });

  test('a window taken since is refused beside its account, and nothing is created', async () => {
    const { call, accounts, s, form } = await setup();
    const first = await s.b.post('/dashboard/compose', form({ account: accounts[0] }));
    assert.equal(first.status, 303);
    const refused = await s.b.post(
      '/dashboard/compose',
      form({ account: accounts[0], [`at.${accounts[0]}`]: '2026-03-02T14:00:00.000Z' }),
    );
    assert.equal(refused.status, 400, refused.body);
    assert.match(refused.body, /that window has been taken since; choose another/);
    assert.match(refused.body, /aria-invalid="true" aria-describedby="at-[^"]+-error"/);
    const outside = await s.b.post(
      '/dashboard/compose',
      form({ account: accounts[0], [`at.${accounts[0]}`]: '2026-03-03T09:00:00.000Z' }),
    );
    assert.equal(outside.status, 400);
    assert.match(outside.body, /not one of its coming windows/);
    assert.equal((await call('GET', '/v2/posts')).body.data.length, 1);
  });

  test('a chosen window survives approval', async () => {
    const { t, co, call, accounts, s, form } = await setup();
    const sent = await s.b.post(
      '/dashboard/compose',
      form({ account: accounts[0], skipApproval: 'false', when: 'day', whenDay: '2026-03-05' }),
    );
    assert.equal(sent.status, 303, sent.body);
    const postId = postIdOf(sent.location);
    const waiting = await call('GET', `/v2/posts/${postId}`);
    assert.equal(waiting.body.accounts[0].status, 'pending_approval');
    assert.equal(waiting.body.accounts[0].scheduledAfter, '2026-03-05T08:00:00.000Z');
    t.clock.advance(60 * 60_000);
    await approve(t.ctx, { postId, companyId: co.companyId });
    const approved = await call('GET', `/v2/posts/${postId}`);
    assert.equal(approved.body.accounts[0].status, 'queued');
    assert.equal(approved.body.accounts[0].scheduledSlotStart, '2026-03-05T08:00:00.000Z');
  });

  test('queueing an existing post offers the same choice, and the chosen day holds', async () => {
    const { t, call, accounts, video, s } = await setup();
    const [elsewhere] = (await makeAccounts(call, 1)) as [string];
    await setAccountStatus(t, [elsewhere]);
    const draft = await call('POST', '/v2/posts', {
      media: [video],
      accountIds: [elsewhere],
      caption: 'Queued elsewhere first',
    });
    assert.equal(draft.status, 201, JSON.stringify(draft.body));
    const postId = draft.body.postId as string;
    const page = await s.b.get(`/dashboard/posts/${postId}`);
    assert.match(page.body, /name="when" value="day"/);
    assert.match(page.body, /assets\/windows\.js/);
    const refused = await s.b.post(`/dashboard/posts/${postId}/queue`, {
      _csrf: s.csrf,
      account: accounts[0],
      skipApproval: 'on',
      when: 'after',
      notBefore: 'later',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /give a date and a time/);
    assert.equal((await call('GET', `/v2/posts/${postId}`)).body.accounts.length, 1);
    const queued = await s.b.post(`/dashboard/posts/${postId}/queue`, {
      _csrf: s.csrf,
      account: [accounts[0], accounts[1]],
      skipApproval: 'on',
      when: 'day',
      whenDay: '2026-03-03',
      [`at.${accounts[1]}`]: '2026-03-04T14:00:00.000Z',
    });
    assert.equal(queued.status, 303, queued.body);
    const post = await call('GET', `/v2/posts/${postId}`);
    const slot = new Map(
      (post.body.accounts as { accountId: string; scheduledSlotStart?: string }[]).map((x) => [
        x.accountId,
        x.scheduledSlotStart,
      ]),
    );
    assert.equal(slot.get(accounts[0]), '2026-03-03T08:00:00.000Z');
    assert.equal(slot.get(accounts[1]), '2026-03-04T14:00:00.000Z');
  });
});
