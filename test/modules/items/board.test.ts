// The operator's fulfilment board on both databases: each section's tasks and counts across
// companies, by company and by worker, with report deadlines read in the service's time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { makeActiveAccounts, readyUpload } from '../../helpers/posts.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { failOverdueTasks } from '../../../src/dispatch/deadlines.ts';
import { fulfilmentBoard, UNCONFIRMED_REASON } from '../../../src/modules/items/index.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';

const HOUR = 3_600_000;

async function company(t: TestApp, accounts: number, workerName: string) {
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const ids = await makeActiveAccounts(t, call, accounts);
  const upload = await readyUpload(t, call, 'image.png');
  const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: workerName, timezone: 'UTC' });
  await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, ids);
  const res = await call('POST', '/v2/posts', {
    media: [upload],
    accountIds: ids,
    skipApproval: true,
    caption: `Post of ${workerName}`,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { companyId: co.companyId, ids, worker, work: client(t, worker.token) };
}

describeEachDialect('fulfilment board', (get) => {
  test('sections, counts, deadlines and filters', async () => {
    const t = get();
    const day = '2026-08-03';
    t.clock.set(`${day}T10:00:00.000Z`);
    const one = await company(t, 4, 'Ana');
    const two = await company(t, 1, 'Ben');
    t.clock.set(`${day}T11:00:00.000Z`);
    assert.ok((await releaseDue(t.ctx, t.clock.now())).released >= 5);
    // Company one: a claimed at 11:10 and never reported (unconfirmed at 13:10), b claimed
    // at 13:00 (due 15:00), c reported failed, d never claimed. Company two: nothing claimed.
    const [a, b, c, d] = one.ids as [string, string, string, string];
    const claim = async (accountId: string) => {
      const r = await one.work('POST', '/worker/v1/tasks/claim', { accountId });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.data[0].taskId as string;
    };
    t.clock.set(`${day}T11:10:00.000Z`);
    const ta = await claim(a);
    const tc = await claim(c);
    const failed = await one.work('POST', `/worker/v1/tasks/${tc}/result`, {
      outcome: 'failed',
      reason: 'Password changed',
    });
    assert.equal(failed.status, 200);
    t.clock.set(`${day}T12:59:00.000Z`);
    const tb = await claim(b);
    t.clock.set(`${day}T13:11:00.000Z`);
    // Only a's claim is overdue here; d's and company two's release are too (unclaimed).
    const overdue = await failOverdueTasks(t.ctx, t.clock.now());
    assert.ok(overdue.unconfirmed >= 1 && overdue.unclaimed >= 2, JSON.stringify(overdue));

    // Company two gets a second item released at 14:00, still unclaimed at 14:40.
    t.clock.set(`${day}T14:40:00.000Z`);
    const board = await fulfilmentBoard(
      t.ctx.db,
      { companyId: one.companyId },
      { now: t.clock.now(), reportTimeoutMs: t.config.taskReportTimeoutMs },
    );
    assert.equal(board.unclaimed.count, 0);
    assert.equal(board.claimed.count, 1);
    const claimedTask = board.claimed.tasks[0]!;
    assert.equal(claimedTask.itemId, tb);
    assert.equal(claimedTask.reportBy, `${day}T14:59:00.000Z`);
    assert.equal(claimedTask.dueSoon, true);
    assert.equal(claimedTask.overdue, false);
    assert.equal(claimedTask.workerName, 'Ana');
    assert.equal(claimedTask.caption, 'Post of Ana');
    assert.equal(board.unconfirmed.count, 1);
    assert.equal(board.unconfirmed.tasks[0]!.itemId, ta);
    assert.equal(board.unconfirmed.tasks[0]!.failureReason, UNCONFIRMED_REASON);
    assert.equal(board.failed.count, 2, 'c reported failed, d never claimed');
    assert.deepEqual(new Set(board.failed.tasks.map((x) => x.accountId)), new Set([c, d]));
    for (const task of [...board.failed.tasks, ...board.unconfirmed.tasks]) {
      assert.equal(task.reportBy, null);
      assert.ok(task.failedAt);
      assert.equal(task.companyId, one.companyId);
    }

    // By worker: Ben's board holds only company two's account.
    const ben = await fulfilmentBoard(
      t.ctx.db,
      { workerId: two.worker.workerId },
      { now: t.clock.now(), reportTimeoutMs: t.config.taskReportTimeoutMs },
    );
    assert.equal(ben.claimed.count + ben.unconfirmed.count, 0);
    assert.ok(ben.failed.tasks.every((x) => x.companyId === two.companyId));
    assert.ok(ben.unclaimed.tasks.every((x) => x.workerName === 'Ben'));

    // Past the claim's deadline, the claimed task reads as overdue.
    const late = await fulfilmentBoard(
      t.ctx.db,
      { companyId: one.companyId },
      { now: new Date(Date.parse(`${day}T14:59:00.000Z`) + 1), reportTimeoutMs: 2 * HOUR },
    );
    assert.equal(late.claimed.tasks[0]!.overdue, true);
    assert.equal(late.claimed.tasks[0]!.dueSoon, false);
    // A limit bounds the rows, never the count.
    const small = await fulfilmentBoard(
      t.ctx.db,
      { companyId: one.companyId },
      { now: t.clock.now(), reportTimeoutMs: t.config.taskReportTimeoutMs, limit: 1 },
    );
    assert.equal(small.failed.count, 2);
    assert.equal(small.failed.tasks.length, 1);
  });
});
