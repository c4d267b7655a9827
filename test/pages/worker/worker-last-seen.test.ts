// A worker's last sight from the workers' page, through HTTP on both databases: signing in
// and every request after it count (not only starting a task), so the console says when the
// phone was last there; the sight is written at most once a minute per worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount } from '../../helpers/app.ts';
import { browser } from '../../helpers/dashboard.ts';
import { enrolledOperator } from '../../helpers/operator.ts';
import { assignAccounts, createWorker, getWorker } from '../../../src/modules/workers/index.ts';
import { WBASE, signedInAt } from './worker-page.helpers.ts';

describeEachDialect('workers app: last seen', (get) => {
  test('signing in and setting an account up are sights; at most one write a minute', async () => {
    const t = get();
    t.clock.set('2031-05-04T09:00:00.000Z');
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const created = await call('POST', '/v2/accounts', validAccount());
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const account = created.body.accountId as string;
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ana', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [account]);
    const seen = async () => (await getWorker(t.ctx.db, worker.workerId)).lastSeenAt;
    assert.equal(await seen(), null);
    const op = await enrolledOperator(t, 'Lia');
    const never = await op.browser.get(`/operator/workers/${worker.workerId}`);
    assert.match(never.body, /Never: it has not reported in yet/);

    const b = browser(t, '198.51.100.201');
    const page = `${WBASE}/accounts/${account}`;
    const csrf = await signedInAt(b, worker.token, page);
    assert.equal(await seen(), '2031-05-04T09:00:00.000Z');
    // Within the minute, requests write nothing more.
    t.clock.set('2031-05-04T09:00:40.000Z');
    assert.equal((await b.get(page)).status, 200);
    assert.equal(await seen(), '2031-05-04T09:00:00.000Z');
    // Past it, the next request of the signed-in worker is the new sight: here, an account
    // reported warming up, no task started.
    t.clock.set('2031-05-04T09:01:05.000Z');
    const warm = await b.post(`${page}/status`, { _csrf: csrf, status: 'warming_up' });
    assert.ok(warm.status < 400, `${warm.status}`);
    assert.equal(await seen(), '2031-05-04T09:01:05.000Z');
    t.clock.set('2031-05-04T09:02:05.000Z');
    const shown = await op.browser.get(`/operator/workers/${worker.workerId}`);
    assert.doesNotMatch(shown.body, /Never: it has not reported in yet/);
    assert.match(shown.body, /<dt>Last seen<\/dt><dd><time datetime="2031-05-04T09:01:05.000Z">/);
  });
});
