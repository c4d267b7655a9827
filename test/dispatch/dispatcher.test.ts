// The release dispatcher on both databases, driven by the fake clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { makeActiveAccounts, readyUpload, type CallFn } from '../helpers/posts.ts';
import { releaseDue } from '../../src/dispatch/dispatcher.ts';
import { openContext } from '../../src/bootstrap.ts';

async function post(call: CallFn, video: string, accountIds: string[], extra: object = {}) {
  const r = await call('POST', '/v2/posts', {
    media: [video],
    accountIds,
    skipApproval: true,
    ...extra,
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.postId as string;
}

/** Items of these accounts only: each test seeds its own company on a shared database. */
async function statuses(t: TestApp, accountIds: string[]) {
  return t.ctx.db
    .selectFrom('queue_items')
    .select(['post_id', 'status'])
    .where('account_id', 'in', accountIds)
    .execute();
}

/** Other tests' companies share the database: count only what this test released. */
async function releasedFor(t: TestApp, accountIds: string[]) {
  return t.ctx.db
    .selectFrom('releases')
    .selectAll()
    .where('account_id', 'in', accountIds)
    .execute();
}

describeEachDialect('dispatcher', (get, dialect) => {
  test('releases one item per window, only items ready at the window start', async () => {
    const t = get();
    t.clock.set('2026-03-02T10:00:00.000Z');
    const call = client(t, (await seedCompany(t)).key);
    const [acc] = (await makeActiveAccounts(t, call, 1)) as [string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    const first = await post(call, video, [acc]);
    const second = await post(call, video, [acc], { priority: 5 });
    // 10:00 is inside the 08:00 slot, but the items became ready after 08:00.
    assert.deepEqual(await releaseDue(t.ctx, t.clock.now()), {
      accounts: 1,
      released: 0,
      lagSeconds: [],
    });
    t.clock.set('2026-03-02T11:00:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 1);
    // Highest priority first.
    const got = (await call('GET', `/v2/posts/${second}`)).body;
    assert.equal(got.status, 'posting');
    assert.equal((await call('GET', `/v2/posts/${first}`)).body.status, 'queued');
    t.clock.set('2026-03-02T11:30:00.000Z');
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 0, 'one release per window');
    t.clock.set('2026-03-02T14:00:01.000Z');
    // Released a second after its window opened: that second is its lag.
    const late = await releaseDue(t.ctx, t.clock.now());
    assert.deepEqual([late.released, late.lagSeconds], [1, [1]]);
    assert.equal((await call('GET', `/v2/posts/${first}`)).body.status, 'posting');
  });

  test('never more than 4 releases in a local day; pending approval waits', async () => {
    const t = get();
    t.clock.set('2026-03-03T06:00:00.000Z');
    const call = client(t, (await seedCompany(t)).key);
    const [acc] = (await makeActiveAccounts(t, call, 1)) as [string];
    const video = await readyUpload(t, call, 'h264-noaudio.mp4');
    for (let i = 0; i < 6; i++) await post(call, video, [acc]);
    const waiting = await call('POST', '/v2/posts', { media: [video], accountIds: [acc] });
    for (let h = 6; h < 24; h += 0.5) {
      t.clock.set(new Date(Date.UTC(2026, 2, 3, 0, h * 60)));
      await releaseDue(t.ctx, t.clock.now());
    }
    assert.equal((await releasedFor(t, [acc])).length, 4);
    const rows = await statuses(t, [acc]);
    assert.equal(rows.filter((r) => r.status === 'posting').length, 4);
    assert.equal(rows.find((r) => r.post_id === waiting.body.postId)?.status, 'pending_approval');
  });

  // SPEC: on SQLite one process dispatches; PostgreSQL allows several at once.
  test(
    'two dispatchers at once release every due item exactly once',
    { skip: dialect === 'sqlite' },
    async () => {
      const t = get();
      t.clock.set('2026-03-04T07:00:00.000Z');
      const call = client(t, (await seedCompany(t, { plan: 'scale' })).key);
      const accounts = await makeActiveAccounts(t, call, 30);
      const video = await readyUpload(t, call, 'h264-noaudio.mp4');
      for (let i = 0; i < accounts.length; i += 10)
        await post(call, video, accounts.slice(i, i + 10));
      for (let i = 0; i < accounts.length; i += 10)
        await post(call, video, accounts.slice(i, i + 10));
      const other = await openContext(t.config, { clock: t.clock, skipMigrations: true });
      try {
        t.clock.set('2026-03-04T08:00:00.000Z');
        await Promise.all([releaseDue(t.ctx, t.clock.now()), releaseDue(other.ctx, t.clock.now())]);
        const rows = await statuses(t, accounts);
        assert.equal(rows.filter((r) => r.status === 'posting').length, accounts.length);
        const releases = await releasedFor(t, accounts);
        assert.equal(releases.length, accounts.length);
        assert.equal(new Set(releases.map((r) => r.account_id)).size, accounts.length);
      } finally {
        await other.close();
      }
    },
  );
});
