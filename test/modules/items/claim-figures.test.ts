// Release-to-claim figures on both databases, through HTTP: tasks claimed through the worker
// API and the workers' app count their hand-off time once each, however often they are
// claimed again (a second claim call, a double tap, two claims at once, a claim after the
// report), and the dashboard's Delivery page reads the p50 and p95 back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, workerSignIn } from '../../helpers/dashboard.ts';
import { makeActiveAccounts, readyUpload } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { deliveryFigures } from '../../../src/modules/items/index.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';
import { LATENCY_BUCKETS } from '../../../src/modules/items/delivery-figures.rules.ts';

const TASKS = '/dashboard/worker/tasks';

/** Claims counted in delivery_days for one subject: the sum of its release-to-claim buckets. */
async function claimsCounted(t: TestApp, scope: string, scopeId: string): Promise<number> {
  const columns = Array.from({ length: LATENCY_BUCKETS }, (_, i) => sql.ref(`claim_lat_${i}`));
  const row = await t.ctx.db
    .selectFrom('delivery_days')
    .select(sql<number | string>`sum(${sql.join(columns, sql` + `)})`.as('n'))
    .where('scope', '=', scope)
    .where('scope_id', '=', scopeId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

describeEachDialect('release-to-claim figures', (get) => {
  test('each task counts its claim once, and the dashboard reads p50 and p95', async () => {
    const t = get();
    const day = '2026-09-14';
    t.clock.set(`${day}T10:00:00.000Z`);
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const [a, b, c, d] = (await makeActiveAccounts(t, call, 4)) as [string, string, string, string];
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Rui', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [a, b, c, d]);
    const work = client(t, worker.token);
    const upload = await readyUpload(t, call, 'image.png');
    const post = await call('POST', '/v2/posts', {
      media: [upload],
      accountIds: [a, b, c, d],
      skipApproval: true,
      caption: 'Hand-off',
    });
    assert.equal(post.status, 201, JSON.stringify(post.body));

    const viewerUser = await userIn(t, co.companyId, 'viewer');
    const viewer = browser(t, '198.51.100.201');
    assert.equal((await signIn(viewer, viewerUser.email, viewerUser.password)).status, 303);
    const before = await viewer.get('/dashboard/delivery');
    assert.match(before.body, /Nothing was delivered in the last 7 days yet/);

    t.clock.set(`${day}T11:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 4);
    const taskOf = async (accountId: string) => {
      const list = await work('GET', '/worker/v1/tasks');
      return list.body.data.find((x: any) => x.accountId === accountId).taskId as string;
    };
    const [ta, tb, tc] = [await taskOf(a), await taskOf(b), await taskOf(c)];

    // a: claimed through the API 4 minutes after release, then the same call again (a
    // retry after a lost answer) finds nothing left to claim.
    t.clock.set(`${day}T11:04:00.000Z`);
    const first = await work('POST', '/worker/v1/tasks/claim', { accountId: a });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      first.body.data.map((x: any) => x.taskId),
      [ta],
    );
    t.clock.set(`${day}T11:06:00.000Z`);
    const retry = await work('POST', '/worker/v1/tasks/claim', { accountId: a });
    assert.equal(retry.status, 200);
    assert.deepEqual(retry.body.data, []);
    assert.equal(await claimsCounted(t, 'company', co.companyId), 1);

    // The workers' app: starting a (claimed already) changes nothing; b is started at 11:20
    // and the start is tapped again.
    const phone = browser(t, '198.51.100.202');
    assert.equal((await workerSignIn(phone, worker.token)).status, 303);
    const csrf = hidden((await phone.get(TASKS)).body, '_csrf');
    assert.equal((await phone.post(`${TASKS}/${ta}/start`, { _csrf: csrf })).status, 303);
    t.clock.set(`${day}T11:20:00.000Z`);
    assert.equal((await phone.post(`${TASKS}/${tb}/start`, { _csrf: csrf })).status, 303);
    t.clock.set(`${day}T11:21:00.000Z`);
    assert.equal((await phone.post(`${TASKS}/${tb}/start`, { _csrf: csrf })).status, 303);
    assert.equal(await claimsCounted(t, 'company', co.companyId), 2);

    // c: two claims at once (two devices); one wins and the task counts once.
    t.clock.set(`${day}T11:30:00.000Z`);
    const both = await Promise.all([
      work('POST', '/worker/v1/tasks/claim', { accountId: c }),
      work('POST', '/worker/v1/tasks/claim', { accountId: c }),
    ]);
    assert.deepEqual(
      both.flatMap((r) => r.body.data.map((x: any) => x.taskId)),
      [tc],
    );
    assert.equal(await claimsCounted(t, 'company', co.companyId), 3);

    // a is reported; starting it afterwards (a late tap) counts nothing either.
    const done = await work('POST', `/worker/v1/tasks/${ta}/result`, {
      outcome: 'posted',
      postUrl: 'https://platform-a.example/v/claim',
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal((await phone.post(`${TASKS}/${ta}/start`, { _csrf: csrf })).status, 303);

    // Once per task in each scope: company, account and the claiming worker.
    assert.equal(await claimsCounted(t, 'company', co.companyId), 3);
    assert.equal(await claimsCounted(t, 'worker', worker.workerId), 3);
    for (const [account, n] of [
      [a, 1],
      [b, 1],
      [c, 1],
      [d, 0],
    ] as const) {
      assert.equal(await claimsCounted(t, 'account', account), n, account);
    }

    // 4, 20 and 30 minutes: the median is 20, the 95th percentile 30.
    const now = t.clock.now();
    const company = (await deliveryFigures(t.ctx.db, 'company', [co.companyId], now, 7)).get(
      co.companyId,
    );
    assert.equal(company?.releaseToClaimP50Minutes, 20);
    assert.equal(company?.releaseToClaimP95Minutes, 30);
    assert.equal(company?.releaseToPostedP50Minutes, 30, 'a was posted 30 min after release');
    const accountA = (await deliveryFigures(t.ctx.db, 'account', [a], now, 7)).get(a);
    assert.equal(accountA?.releaseToClaimP50Minutes, 4);

    const page = await viewer.get('/dashboard/delivery');
    assert.equal(page.status, 200);
    assert.match(
      page.body,
      /<span class="figure">20 min<\/span><span class="label">release to claim by a worker, median \(95 %: 30 min\)/,
    );
    const rowOf = (accountId: string) => {
      const at = page.body.indexOf(`account=${encodeURIComponent(accountId)}"`);
      assert.ok(at > 0, accountId);
      return page.body.slice(at, page.body.indexOf('</tr>', at));
    };
    assert.match(rowOf(a), /Median to claim: <\/span>4 min<\/td>/);
    assert.match(rowOf(b), /Median to claim: <\/span>20 min<\/td>/);
    assert.match(rowOf(d), /Median to claim: <\/span>—<\/td>/);

    // Another company's figures hold none of these claims.
    const other = await seedCompany(t);
    const theirs = (
      await deliveryFigures(t.ctx.db, 'company', [other.companyId], now, 7, other.companyId)
    ).get(other.companyId);
    assert.equal(theirs?.releaseToClaimP50Minutes, null);
  });
});
