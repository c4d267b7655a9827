// The setup queue, the fulfilment board and the delivery figures of the console through
// HTTP, on both databases, over a small history made through the real API and worker API:
// accounts waiting to be set up (oldest first, everything their company asked for, handed
// to a worker from the row), the board's sections and filters by company and by worker,
// accounts disconnected and moved to another worker, and the figures of the companies' and
// workers' lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount } from '../../helpers/app.ts';
import { hidden, type Browser } from '../../helpers/dashboard.ts';
import { makeActiveAccounts, readyUpload, type CallFn } from '../../helpers/posts.ts';
import { enrolledOperator, operatorSignIn, type EnrolledOperator } from '../../helpers/operator.ts';
import { releaseDue } from '../../../src/dispatch/dispatcher.ts';
import { failOverdueTasks } from '../../../src/dispatch/deadlines.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import { listOperatorLog } from '../../../src/modules/operators/index.ts';
import {
  assignAccounts,
  createWorker,
  revokeWorker,
  type IssuedWorker,
} from '../../../src/modules/workers/index.ts';

async function submit(b: Browser, pageUrl: string, action: string, form: Record<string, string>) {
  const page = await b.get(pageUrl);
  assert.equal(page.status, 200, `${pageUrl}: ${page.status}`);
  return b.post(action, { _csrf: hidden(page.body, '_csrf'), ...form });
}

/** The text of each cell of the table row that starts with `rowStart`. */
function cellsOf(html: string, rowStart: RegExp): string[] {
  const m = new RegExp(`${rowStart.source}[\\s\\S]*?</tr>`).exec(html);
  assert.ok(m, `no row ${rowStart}`);
  return [...m[0].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) =>
    (c[1] as string)
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/** A board section's count and the usernames of its rows. */
function section(html: string, key: string): { count: number; users: string[] } {
  const m = new RegExp(`<section aria-labelledby="${key}-h"[\\s\\S]*?</section>`).exec(html);
  assert.ok(m, `no section ${key}`);
  const count = Number(/<span class="count">([\d,]+)<\/span>/.exec(m[0])?.[1]);
  const users = [...m[0].matchAll(/<th scope="row">@(\S+) /g)].map((u) => u[1] as string);
  return { count, users };
}

async function usernames(call: CallFn): Promise<Map<string, string>> {
  const list = await call('GET', '/v2/accounts');
  return new Map(
    list.body.data.map((a: { accountId: string; username: string }) => [a.accountId, a.username]),
  );
}

describeEachDialect('operator console: setup queue, fulfilment board, figures', (get) => {
  let op: EnrolledOperator;

  test('setup: an operator signed in', async () => {
    op = await enrolledOperator(get(), 'Fran');
  });

  test('the setup queue: oldest first across companies, everything asked for, handed to a worker', async () => {
    const t = get();
    t.clock.set('2026-03-03T08:00:00.000Z');
    op.browser = await operatorSignIn(t, op);
    const b = op.browser;
    const empty = await b.get('/operator/setup');
    assert.equal(empty.status, 200);
    assert.match(empty.body, /No account is waiting to be set up/);
    assert.match(empty.body, /aria-current="page">Setup</);

    const one = await seedCompany(t, { name: 'Early Co' });
    const two = await seedCompany(t, { name: 'Later Co' });
    const first = await client(t, one.key)(
      'POST',
      '/v2/accounts',
      validAccount({
        username: 'early_bird',
        displayName: 'Early Bird',
        bio: 'Breakfast ideas\nevery morning',
        profilePictureUrl: 'https://cdn.example/early.png',
        bioUrl: 'https://early.example/links',
        warmup: { searchTerms: ['breakfast', 'pancakes'] },
      }),
    );
    assert.equal(first.status, 201, JSON.stringify(first.body));
    t.clock.advance(30 * 60_000);
    const second = await client(t, two.key)(
      'POST',
      '/v2/accounts',
      validAccount({ username: 'late_owl', platform: 'platformB' }),
    );
    assert.equal(second.status, 201);
    const early = first.body.accountId as string;
    const late = second.body.accountId as string;
    t.clock.advance(60 * 60_000);

    const page = await b.get('/operator/setup');
    assert.match(page.body, /<strong>2<\/strong> accounts waiting/);
    assert.match(page.body, /There is no active worker to give accounts to/);
    const order = [...page.body.matchAll(/<h2 id="acct-([^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(order, [early, late], 'oldest first');
    const card = new RegExp(`<h2 id="acct-${early}">[\\s\\S]*?</dl>`).exec(page.body)?.[0] ?? '';
    assert.match(card, /@early_bird <span class="meta">platformA<\/span>/);
    assert.match(card, /Of <a href="\/operator\/companies\/[^"]+">Early Co<\/a>/);
    assert.match(card, /waiting <strong>1 h 30 min<\/strong>/);
    assert.match(card, /<dt>Display name<\/dt><dd>Early Bird<\/dd>/);
    assert.match(card, /<dd class="bio">Breakfast ideas\nevery morning<\/dd>/);
    assert.match(
      card,
      /<a href="https:\/\/cdn\.example\/early\.png" rel="noopener noreferrer" target="_blank">https:\/\/cdn\.example\/early\.png<\/a>/,
    );
    assert.match(card, />https:\/\/early\.example\/links<\/a>/);
    assert.match(card, /<li>breakfast<\/li><li>pancakes<\/li>/);
    assert.match(card, /<dt>Worker<\/dt><dd><span class="meta">none yet<\/span>/);
    assert.doesNotMatch(page.body, /<img /, 'the profile picture is a link, never loaded');
    assert.match(page.body, new RegExp(`<span class="id">${late}</span>`));

    const ivy = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ivy', timezone: 'Europe/Rome' });
    const gone = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Gone', timezone: 'UTC' });
    await revokeWorker(t.ctx.db, t.ctx.clock, gone.workerId);
    const withWorkers = await b.get('/operator/setup');
    assert.match(
      withWorkers.body,
      new RegExp(`<option value="${ivy.workerId}">Ivy \\(Europe/Rome\\)</option>`),
    );
    assert.doesNotMatch(withWorkers.body, /Gone \(UTC\)/, 'only active workers are offered');

    const action = `/operator/setup/${early}/assign`;
    const none = await submit(b, '/operator/setup', action, { worker: '' });
    assert.equal(none.status, 400);
    assert.match(
      none.body,
      new RegExp(`id="e-${early}" role="alert">Choose the worker to give this account to\\.`),
    );
    const revoked = await submit(b, '/operator/setup', action, { worker: gone.workerId });
    assert.equal(revoked.status, 409);
    assert.match(revoked.body, /Gone is revoked: accounts cannot be given to a revoked worker\./);
    const noWorker = await submit(b, '/operator/setup', action, { worker: 'wrk_nope' });
    assert.equal(noWorker.status, 404);
    assert.match(noWorker.body, /There is no worker with this id\./);
    const noAccount = await submit(b, '/operator/setup', '/operator/setup/acc_nope/assign', {
      worker: ivy.workerId,
    });
    assert.equal(noAccount.status, 404);
    assert.match(noAccount.body, /There is no account with the id acc_nope\./);
    assert.deepEqual(await listOperatorLog(t.ctx.db, { companyId: one.companyId, limit: 5 }), []);

    const assigned = await submit(b, '/operator/setup', action, { worker: ivy.workerId });
    assert.equal(assigned.status, 303);
    assert.equal(assigned.location, '/operator/setup');
    const after = await b.get('/operator/setup');
    assert.match(after.body, /@early_bird is Ivy’s to set up, in Europe\/Rome\./);
    const row = await t.ctx.db
      .selectFrom('accounts')
      .select(['worker_id', 'timezone'])
      .where('id', '=', early)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { worker_id: ivy.workerId, timezone: 'Europe/Rome' });
    const card2 =
      new RegExp(`<h2 id="acct-${early}">[\\s\\S]*?</form>`).exec(after.body)?.[0] ?? '';
    assert.match(card2, new RegExp(`>Ivy</a>, in Europe/Rome`), 'still waiting, now for Ivy');
    assert.match(card2, new RegExp(`<option value="${ivy.workerId}" selected>`));
    const [entry] = await listOperatorLog(t.ctx.db, { companyId: one.companyId, limit: 5 });
    assert.equal(entry?.action, 'accounts.assigned');
    assert.deepEqual(entry?.details, {
      worker: 'Ivy',
      timezone: 'Europe/Rome',
      accounts: [{ accountId: early, username: 'early_bird', platform: 'platformA', from: null }],
    });
    const [activity] = await listActivity(t.ctx.db, one.companyId, { limit: 1 });
    assert.equal(activity?.action, 'account.assigned');
    assert.equal(activity?.detail, '@early_bird (platformA): operated by worker Ivy (Europe/Rome)');

    // Once its worker reports it warming up, it leaves the queue.
    const report = await client(t, ivy.token)('PUT', `/worker/v1/accounts/${early}/status`, {
      status: 'warming_up',
    });
    assert.equal(report.status, 200, JSON.stringify(report.body));
    const left = await b.get('/operator/setup');
    assert.match(left.body, /<strong>1<\/strong> account waiting/);
    assert.doesNotMatch(left.body, new RegExp(`acct-${early}`));
  });

  test('the board and the figures over a small history, filtered by company and by worker', async () => {
    const t = get();
    const day = '2026-08-03';
    t.clock.set(`${day}T10:00:00.000Z`);

    const one = await seedCompany(t, { name: 'Punctual Co' });
    const two = await seedCompany(t, { name: 'Second Co' });
    const call1 = client(t, one.key);
    const call2 = client(t, two.key);
    const ids1 = await makeActiveAccounts(t, call1, 6);
    const [f] = await makeActiveAccounts(t, call2, 1);
    const una = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Una', timezone: 'UTC' });
    const vic = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Vic', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, una.workerId, ids1);
    await assignAccounts(t.ctx.db, t.ctx.clock, vic.workerId, [f as string]);
    const [a, bb, c, d, e, g] = ids1 as [string, string, string, string, string, string];
    const names1 = await usernames(call1);
    const name = (id: string) => names1.get(id) as string;
    const work = (w: IssuedWorker) => client(t, w.token);

    // g: Una lost access to it, before anything is released.
    const lost = await work(una)('PUT', `/worker/v1/accounts/${g}/status`, {
      status: 'disconnected',
      reason: 'Password changed',
    });
    assert.equal(lost.status, 200, JSON.stringify(lost.body));
    for (const [call, accountIds] of [
      [call1, [a, bb, c, d, e]],
      [call2, [f]],
    ] as const) {
      const upload = await readyUpload(t, call, 'image.png');
      const res = await call('POST', '/v2/posts', {
        media: [upload],
        accountIds,
        skipApproval: true,
        caption: 'Board day',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    t.clock.set(`${day}T11:00:00.000Z`);
    assert.equal((await releaseDue(t.ctx, t.clock.now())).released, 6);
    const claim = async (w: IssuedWorker, accountId: string) => {
      const r = await work(w)('POST', '/worker/v1/tasks/claim', { accountId });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.data[0].taskId as string;
    };
    const report = async (w: IssuedWorker, taskId: string, body: object) => {
      const r = await work(w)('POST', `/worker/v1/tasks/${taskId}/result`, body);
      assert.equal(r.status, 200, JSON.stringify(r.body));
    };
    t.clock.set(`${day}T11:05:00.000Z`);
    const [ta, tb, tc] = [await claim(una, a), await claim(una, bb), await claim(una, c)];
    await claim(una, e);
    await claim(vic, f as string);
    t.clock.set(`${day}T11:10:00.000Z`);
    await report(una, ta, { outcome: 'posted', postUrl: 'https://platform-a.example/v/a' });
    await report(una, tc, { outcome: 'failed', reason: 'Account locked' });
    t.clock.set(`${day}T11:20:00.000Z`);
    await report(una, tb, { outcome: 'posted', postUrl: 'https://platform-a.example/v/b' });
    // The console's session stays 2 idle hours: signed in again, at 12:40.
    t.clock.set(`${day}T12:39:30.000Z`);
    op.browser = await operatorSignIn(t, op);
    const b = op.browser;
    assert.equal(t.clock.now().toISOString(), `${day}T12:40:00.000Z`);

    // The companies' list: 3 delivered (2 posted on time, 1 failed).
    const companies = await b.get('/operator/companies?q=Punctual');
    const co = cellsOf(companies.body, /<th scope="row"><a [^>]*>Punctual Co<\/a><\/th>/);
    assert.deepEqual(co.slice(3, 6), [
      'Delivered, 7 days: 3',
      'On time (7 days): 66.7%',
      'Failed (7 days): 33.3%',
    ]);
    const detail = await b.get(`/operator/companies/${one.companyId}`);
    assert.match(detail.body, /<dt>Delivered, 7 days<\/dt><dd>3 · 66\.7% on time · 33\.3% failed/);

    // The workers' list: Una's figures and open tasks; Vic has delivered nothing yet.
    const workers = await b.get('/operator/workers');
    const u = cellsOf(
      workers.body,
      new RegExp(`<a href="/operator/workers/${una.workerId}">Una</a>`),
    );
    assert.equal(u[1], 'Accounts: 6');
    assert.equal(u[2], 'Open tasks: 2 (1 unclaimed, 1 claimed)');
    assert.match(u[3] as string, /^Last seen: 2026-08-03 11:05 UTC 1 h 35 min ago$/);
    assert.equal(u[4], 'On time (7 days): 66.7% of 3');
    assert.equal(u[5], 'Failed (7 days): 33.3%');
    // Every claim came 5 minutes after the release.
    assert.equal(u[6], 'Release to claim, median (7 days): ≤ 5 min');
    assert.equal(u[7], 'Release to posted, median (7 days): ≤ 10 min');
    const v = cellsOf(
      workers.body,
      new RegExp(`<a href="/operator/workers/${vic.workerId}">Vic</a>`),
    );
    assert.equal(v[2], 'Open tasks: 1 (0 unclaimed, 1 claimed)');
    assert.equal(v[4], 'On time (7 days): —');
    // Vic claimed and has not reported: a hand-off time, no posting time yet.
    assert.equal(v[6], 'Release to claim, median (7 days): ≤ 5 min');
    assert.equal(v[7], 'Release to posted, median (7 days): —');
    const vicPage = await b.get(`/operator/workers/${vic.workerId}`);
    assert.match(
      vicPage.body,
      /<dt>Delivered, 7 days<\/dt><dd>0 · release to claim, median ≤ 5 min<\/dd>/,
    );

    // The whole board.
    const board = await b.get('/operator/board');
    assert.equal(board.status, 200);
    assert.match(board.body, /aria-current="page">Board</);
    assert.deepEqual(section(board.body, 'unclaimed'), { count: 1, users: [name(d)] });
    const claimed = section(board.body, 'claimed');
    assert.equal(claimed.count, 2);
    assert.ok(claimed.users.includes(name(e)));
    assert.deepEqual(section(board.body, 'unconfirmed'), { count: 0, users: [] });
    assert.match(board.body, /No task went unconfirmed in the last 7 days\./);
    assert.deepEqual(section(board.body, 'failed'), { count: 1, users: [name(c)] });
    assert.match(board.body, /<span class="reason">Account locked<\/span>/);
    assert.deepEqual(section(board.body, 'disconnected'), { count: 1, users: [name(g)] });
    assert.match(board.body, /<span class="cell-label">Reason given: <\/span>Password changed/);
    const dRow = cellsOf(board.body, new RegExp(`<th scope="row">@${name(d)} `));
    assert.equal(dRow[0], 'Company: Punctual Co');
    assert.equal(dRow[1], 'Worker: Una');
    assert.equal(dRow[3], 'Report by: 2026-08-03 13:00 UTC Due in 20 min');
    const eRow = cellsOf(board.body, new RegExp(`<th scope="row">@${name(e)} `));
    assert.equal(eRow[2], 'Released: 2026-08-03 11:00 UTC claimed 2026-08-03 11:05 UTC');
    assert.equal(eRow[3], 'Report by: 2026-08-03 13:05 UTC Due in 25 min');
    assert.match(board.body, /<span class="caption-line">Board day<\/span>/);
    assert.match(board.body, new RegExp(`<option value="${one.companyId}">Punctual Co</option>`));
    assert.match(board.body, new RegExp(`<option value="${vic.workerId}">Vic</option>`));

    // By company, by worker, both.
    const second = await b.get(`/operator/board?company=${two.companyId}`);
    assert.match(second.body, /Showing the accounts of <strong>Second Co<\/strong> only\./);
    assert.match(second.body, new RegExp(`<option value="${two.companyId}" selected>`));
    const fName = (await usernames(call2)).get(f as string) as string;
    assert.deepEqual(section(second.body, 'claimed'), { count: 1, users: [fName] });
    for (const key of ['unclaimed', 'failed', 'disconnected']) {
      assert.equal(section(second.body, key).count, 0, key);
    }
    assert.match(second.body, /Every released task has been claimed\./);
    assert.match(second.body, /No account is disconnected\./);
    const byVic = await b.get(`/operator/board?worker=${vic.workerId}`);
    assert.match(byVic.body, /what <strong>Vic<\/strong> operates or claimed only/);
    assert.deepEqual(section(byVic.body, 'claimed'), section(second.body, 'claimed'));
    const byUna = await b.get(`/operator/board?worker=${una.workerId}`);
    assert.equal(section(byUna.body, 'claimed').count, 1);
    assert.equal(section(byUna.body, 'disconnected').count, 1);
    const both = await b.get(`/operator/board?company=${one.companyId}&worker=${vic.workerId}`);
    for (const key of ['unclaimed', 'claimed', 'unconfirmed', 'failed', 'disconnected']) {
      assert.equal(section(both.body, key).count, 0, key);
    }
    // Empty filters (a GET form sends every field) are no filter; bad ones a clear page.
    assert.deepEqual(
      section((await b.get('/operator/board?company=&worker=')).body, 'claimed'),
      claimed,
    );
    const noCompany = await b.get('/operator/board?company=cmp_nope');
    assert.equal(noCompany.status, 404);
    assert.match(noCompany.body, /There is no company with this id\./);
    const noWorker = await b.get('/operator/board?worker=wrk_nope');
    assert.equal(noWorker.status, 404);
    assert.match(noWorker.body, /There is no worker with this id\./);
    assert.equal((await b.get(`/operator/board?company=${'c'.repeat(201)}`)).status, 400);

    // Past the deadlines: d failed unclaimed, e and f unconfirmed; the figures follow.
    t.clock.set(`${day}T13:06:00.000Z`);
    const overdue = await failOverdueTasks(t.ctx, t.clock.now());
    assert.deepEqual(overdue, { unclaimed: 1, unconfirmed: 2 });
    const later = await b.get('/operator/board');
    assert.equal(section(later.body, 'unconfirmed').count, 2);
    assert.deepEqual(section(later.body, 'failed').users.sort(), [name(c), name(d)].sort());
    assert.match(later.body, /Every released task has been claimed\./);
    const companies2 = await b.get('/operator/companies?q=Punctual');
    assert.deepEqual(
      cellsOf(companies2.body, /<th scope="row"><a [^>]*>Punctual Co<\/a><\/th>/).slice(3, 6),
      ['Delivered, 7 days: 5', 'On time (7 days): 40%', 'Failed (7 days): 40%'],
    );

    // Moving the disconnected account to Vic, from the board filtered by its company.
    const moveUrl = `/operator/board/accounts/${g}?company=${one.companyId}`;
    assert.match(
      (await b.get(`/operator/board?company=${one.companyId}`)).body,
      new RegExp(
        `href="/operator/board/accounts/${g}\\?company=${one.companyId}">Move<span class="visually-hidden"> @${name(g)}</span>…</a>`,
      ),
    );
    const form = await b.get(moveUrl);
    assert.equal(form.status, 200);
    assert.match(form.body, /<dt>Worker now<\/dt><dd><a [^>]*>Una<\/a>, in UTC/);
    assert.match(form.body, /“Password changed”/);
    assert.match(form.body, new RegExp(`<option value="${vic.workerId}">Vic \\(UTC\\)</option>`));
    assert.doesNotMatch(form.body, new RegExp(`<option value="${una.workerId}"`), 'not its own');
    const action = `/operator/board/accounts/${g}`;
    const noTo = await submit(b, moveUrl, action, { to: '', company: one.companyId });
    assert.equal(noTo.status, 400);
    assert.match(noTo.body, /id="to-error" role="alert">Choose the worker to move it to\./);
    const gone = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Wes', timezone: 'UTC' });
    await revokeWorker(t.ctx.db, t.ctx.clock, gone.workerId);
    const toRevoked = await submit(b, moveUrl, action, { to: gone.workerId });
    assert.equal(toRevoked.status, 409);
    assert.match(toRevoked.body, /Wes is revoked: accounts cannot be given to a revoked worker\./);
    const toNobody = await submit(b, moveUrl, action, { to: 'wrk_nope' });
    assert.equal(toNobody.status, 404);
    const unknown = await b.get('/operator/board/accounts/acc_nope');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /There is no account with this id\./);
    const unknownPost = await submit(b, moveUrl, '/operator/board/accounts/acc_nope', {
      to: vic.workerId,
    });
    assert.equal(unknownPost.status, 404);
    assert.equal(
      (await listOperatorLog(t.ctx.db, { companyId: one.companyId, limit: 5 })).length,
      0,
      'the refusals recorded nothing',
    );

    t.clock.advance(60_000);
    const moved = await submit(b, moveUrl, action, { to: vic.workerId, company: one.companyId });
    assert.equal(moved.status, 303);
    assert.equal(moved.location, `/operator/board?company=${one.companyId}`);
    const back = await b.get(moved.location);
    assert.match(
      back.body,
      new RegExp(`@${name(g)} moved from Una to Vic, in UTC\\. Tasks already released stay`),
    );
    const gRow = cellsOf(back.body, new RegExp(`<th scope="row">@${name(g)} `));
    assert.equal(gRow[1], 'Worker: Vic');
    const row = await t.ctx.db
      .selectFrom('accounts')
      .select('worker_id')
      .where('id', '=', g)
      .executeTakeFirstOrThrow();
    assert.equal(row.worker_id, vic.workerId);
    const [entry] = await listOperatorLog(t.ctx.db, { companyId: one.companyId, limit: 5 });
    assert.equal(entry?.action, 'account.reassigned');
    assert.equal(entry?.target, vic.workerId);
    assert.deepEqual(entry?.details, {
      worker: 'Vic',
      timezone: 'UTC',
      accounts: [{ accountId: g, username: name(g), platform: 'platformA', from: 'Una' }],
    });
    const [activity] = await listActivity(t.ctx.db, one.companyId, { limit: 1 });
    assert.equal(activity?.action, 'account.reassigned');
    assert.equal(activity?.target, g);
    assert.equal(activity?.detail, `@${name(g)} (platformA): worker Una → Vic (UTC)`);
    assert.match(
      (await b.get('/operator/log')).body,
      new RegExp(
        `Moved @${name(g)} \\(platformA\\) of “Punctual Co” from worker Una to worker Vic \\(UTC\\)\\.`,
      ),
    );
  });
});
