// Workers in the operator console through HTTP, on both databases: the list and its empty
// state, creating a worker (its token and a one-time phone link with its QR code, shown
// once), renaming it and moving it to another timezone (its accounts follow), a new phone
// link, a new token (the old token, phones and links end), revoking it, and handing a
// company's accounts to it or taking them from it in bulk; each action refused as it
// should be, in the operator log, and in the companies' activity logs when it touches
// their accounts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeAccounts } from '../../helpers/posts.ts';
import {
  enrolledOperator,
  freshAddress,
  passwordStep,
  type EnrolledOperator,
} from '../../helpers/operator.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import { listOperatorLog, type OperatorLogEntry } from '../../../src/modules/operators/index.ts';
import { resolveWorkerSession, signInWorkerByLink } from '../../../src/modules/workers/index.ts';
import { SignInRefused } from '../../../src/modules/sign-in/index.ts';

/** Submits a form of the page at `pageUrl` (its CSRF token) to `action`. */
async function submit(
  b: Browser,
  pageUrl: string,
  action: string,
  form: Record<string, string | string[]>,
) {
  const page = await b.get(pageUrl);
  assert.equal(page.status, 200, `${pageUrl}: ${page.status}`);
  return b.post(action, { _csrf: hidden(page.body, '_csrf'), ...form });
}

/** The operator log entries of actions on this worker itself, newest first. */
async function entriesOf(t: TestApp, workerId: string): Promise<OperatorLogEntry[]> {
  const all = await listOperatorLog(t.ctx.db, { limit: 500 });
  return all.filter((e) => e.target === workerId && e.action.startsWith('worker.'));
}

/** The worker id a "created" page links to. */
function workerIdOf(html: string): string {
  const id = /href="\/operator\/workers\/(wrk_\w+)"/.exec(html)?.[1];
  assert.ok(id, 'no link to the worker');
  return id;
}

function valueOf(html: string, id: string): string {
  const m = new RegExp(`id="${id}"[^>]*value="([^"]*)"`).exec(html);
  assert.ok(m, `no input #${id}`);
  return (m[1] as string).replace(/&amp;/g, '&');
}

async function workerRow(t: TestApp, id: string) {
  return t.ctx.db.selectFrom('workers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function accountRows(t: TestApp, ids: string[]) {
  const rows = await t.ctx.db
    .selectFrom('accounts')
    .select(['id', 'worker_id', 'timezone'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

describeEachDialect('operator console: workers', (get) => {
  let op: EnrolledOperator;
  let ana = '';
  let anaToken = '';
  let ben = '';

  test('setup: an operator signed in; no workers yet is a designed empty state', async () => {
    const t = get();
    op = await enrolledOperator(t, 'Wanda');
    const list = await op.browser.get('/operator/workers');
    assert.equal(list.status, 200);
    assert.match(list.body, /There are no workers yet\. Create the first one below/);
    assert.match(list.body, /aria-current="page">Workers</);
    assert.match(list.body, /<h2 id="new-worker-h">New worker<\/h2>/);
  });

  test('creating a worker: each field checked, then its token and phone link shown once', async () => {
    const t = get();
    const b = op.browser;
    const before = await t.ctx.db.selectFrom('workers').select('id').execute();
    for (const [form, field, message] of [
      [{ name: '  ', timezone: 'UTC' }, 'w-name', /Enter the worker’s name/],
      [{ name: 'x'.repeat(81), timezone: 'UTC' }, 'w-name', /at most 80 characters/],
      [
        { name: 'Ana', timezone: 'Mars/Olympus' },
        'w-tz',
        /“Mars\/Olympus” is not an IANA timezone/,
      ],
      [{ name: 'Ana', timezone: '' }, 'w-tz', /Enter the worker’s timezone/],
      [{ name: 'Ana', timezone: 'Z'.repeat(300) }, 'w-tz', /is not an IANA timezone/],
    ] as const) {
      const res = await submit(b, '/operator/workers', '/operator/workers', form);
      assert.equal(res.status, 400, JSON.stringify(form));
      assert.match(res.body, new RegExp(`id="${field}-error">`));
      assert.match(res.body, message);
      assert.match(res.body, /The worker was not created/);
    }
    const kept = await submit(b, '/operator/workers', '/operator/workers', {
      name: 'Kept Name',
      timezone: 'Nowhere/Town',
    });
    assert.match(kept.body, /value="Kept Name"/, 'what was typed is kept');
    assert.equal(
      (await t.ctx.db.selectFrom('workers').select('id').execute()).length,
      before.length,
      'the refusals created nothing',
    );

    const created = await submit(b, '/operator/workers', '/operator/workers', {
      name: ' Ana ',
      timezone: 'Europe/Berlin',
    });
    assert.equal(created.status, 200, created.body);
    assert.match(created.body, /<h1>Worker Ana created<\/h1>/);
    ana = workerIdOf(created.body);
    anaToken = valueOf(created.body, 'worker-token');
    assert.match(anaToken, /^slw_[0-9a-z]{12}_[0-9a-z]{32}$/);
    const link = valueOf(created.body, 'worker-link');
    assert.match(link, /^http:\/\/slotline\.test\/dashboard\/worker\/link\?token=[0-9a-z]+$/);
    const svg = /<svg class="qr" role="img" aria-label="([^"]+)"/.exec(created.body);
    assert.equal(svg?.[1], 'QR code of the phone sign-in link for Ana');
    assert.doesNotMatch(created.body, /<img /, 'the QR code is drawn in the page');
    assert.doesNotMatch(created.body, /A phone cannot open this link/, 'a public address');

    const row = await workerRow(t, ana);
    assert.equal(row.name, 'Ana');
    assert.equal(row.timezone, 'Europe/Berlin');
    const stored = JSON.stringify([
      row,
      await t.ctx.db.selectFrom('worker_sign_in_links').selectAll().execute(),
    ]);
    const linkToken = new URL(link).searchParams.get('token') as string;
    assert.ok(!stored.includes(anaToken) && !stored.includes(linkToken), 'digests only');

    // The token works for an automation; the link signs a phone in, once.
    const heartbeat = await client(t, anaToken)('POST', '/worker/v1/heartbeat', {});
    assert.equal(heartbeat.status, 200, JSON.stringify(heartbeat.body));
    const phone = await signInWorkerByLink(t.ctx.db, t.ctx.clock, {
      token: linkToken,
      address: freshAddress(),
    });
    assert.equal(phone.session.worker.workerId, ana);
    await assert.rejects(
      signInWorkerByLink(t.ctx.db, t.ctx.clock, { token: linkToken, address: freshAddress() }),
      SignInRefused,
    );

    const [entry, ...rest] = await entriesOf(t, ana);
    assert.equal(rest.length, 0);
    assert.equal(entry?.action, 'worker.created');
    assert.equal(entry?.operatorId, op.operatorId);
    assert.equal(entry?.companyId, null);
    assert.deepEqual(entry?.details, { name: 'Ana', timezone: 'Europe/Berlin' });
    const log = await b.get('/operator/log');
    assert.match(
      log.body,
      /Created worker Ana in Europe\/Berlin, with a token and a phone sign-in link\./,
    );

    const list = await b.get('/operator/workers');
    const rowHtml = new RegExp(`<a href="/operator/workers/${ana}">Ana</a>[\\s\\S]*?</tr>`).exec(
      list.body,
    )?.[0];
    assert.ok(rowHtml, list.body);
    const cells = [...rowHtml.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) =>
      (m[1] as string)
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    assert.equal(cells[0], 'Timezone: Europe/Berlin');
    assert.equal(cells[1], 'Accounts: 0');
    assert.equal(cells[2], 'Open tasks: 0 (0 unclaimed, 0 claimed)');
    assert.match(
      cells[3] as string,
      /^Last seen: \d{4}-\d\d-\d\d \d\d:\d\d UTC less than a minute ago$/,
    );
    assert.equal(cells[4], 'On time (7 days): —');
    assert.equal(cells[5], 'Failed (7 days): —');
    assert.equal(cells[6], 'Release to claim, median (7 days): —');
    assert.equal(cells[7], 'Release to posted, median (7 days): —');
    assert.match(rowHtml, new RegExp(`<span class="id">${ana}</span>`), 'the id as secondary text');

    const second = await submit(b, '/operator/workers', '/operator/workers', {
      name: 'Ben',
      timezone: 'America/New_York',
    });
    assert.equal(second.status, 200);
    ben = workerIdOf(second.body);
  });

  test('handing a company’s accounts to a worker in bulk, and taking them back', async () => {
    const t = get();
    const b = op.browser;
    const co = await seedCompany(t, { name: 'Handed Co' });
    const call = client(t, co.key);
    const ids = await makeAccounts(call, 3);
    const [a1, a2, a3] = ids as [string, string, string];
    const page = `/operator/workers/${ana}`;

    const choose = await b.get(page);
    assert.match(choose.body, /Choose a company to list its accounts/);
    assert.match(choose.body, new RegExp(`<option value="${co.companyId}">Handed Co</option>`));
    const listed = await b.get(`${page}?company=${co.companyId}`);
    assert.equal(listed.status, 200);
    for (const id of ids) {
      assert.match(listed.body, new RegExp(`name="account" value="${id}" id="g-${id}">`));
    }
    assert.match(listed.body, /data-select-all="give-form"/);
    assert.match(listed.body, /<span class="meta">no worker<\/span>/);
    // Without script, "select all" is a link that ticks every box.
    const all = await b.get(`${page}?company=${co.companyId}&select=give`);
    assert.equal(
      [...all.body.matchAll(/name="account" value="[^"]+" id="g-[^"]+" checked>/g)].length,
      3,
    );
    assert.equal((await b.get(`${page}?company=cmp_nope`)).status, 404);
    assert.equal((await b.get(`${page}?select=everything`)).status, 400);

    const url = `${page}?company=${co.companyId}`;
    const empty = await submit(b, url, `${page}/assign`, { company: co.companyId });
    assert.equal(empty.status, 400);
    assert.match(empty.body, /id="give-error">Select at least one account\./);
    const unknown = await submit(b, url, `${page}/assign`, {
      company: co.companyId,
      account: [a1, 'acc_nope'],
    });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /There is no account with the id acc_nope\./);
    const noWorker = await submit(b, url, '/operator/workers/wrk_nope/assign', { account: [a1] });
    assert.equal(noWorker.status, 404);
    assert.match(noWorker.body, /There is no worker with this id\./);
    assert.ok(
      [...(await accountRows(t, ids)).values()].every((r) => r.worker_id === null),
      'no refusal assigned anything',
    );

    const given = await submit(b, url, `${page}/assign`, {
      company: co.companyId,
      account: [a1, a2],
    });
    assert.equal(given.status, 303);
    assert.equal(given.location, url);
    const after = await b.get(url);
    assert.match(after.body, /2 accounts given to Ana; they take its timezone, Europe\/Berlin\./);
    let rows = await accountRows(t, ids);
    assert.equal(rows.get(a1)?.worker_id, ana);
    assert.equal(rows.get(a1)?.timezone, 'Europe/Berlin');
    assert.equal(rows.get(a3)?.worker_id, null);
    assert.equal(
      (await call('GET', `/v2/accounts/${a2}`)).body.timezone,
      'Europe/Berlin',
      'the API shows the worker’s timezone',
    );
    // Only what Ana does not operate is offered; hers are listed above with a checkbox each.
    assert.doesNotMatch(after.body, new RegExp(`id="g-${a1}"`));
    assert.match(after.body, new RegExp(`id="t-${a1}"`));

    const [entry] = await listOperatorLog(t.ctx.db, { companyId: co.companyId, limit: 10 });
    assert.equal(entry?.action, 'accounts.assigned');
    assert.equal(entry?.target, ana);
    const usernames = (await call('GET', '/v2/accounts')).body.data.reduce(
      (m: Map<string, string>, a: { accountId: string; username: string }) =>
        m.set(a.accountId, a.username),
      new Map<string, string>(),
    );
    assert.deepEqual(entry?.details, {
      worker: 'Ana',
      timezone: 'Europe/Berlin',
      accounts: [a1, a2]
        .map((id) => ({
          accountId: id,
          username: usernames.get(id),
          platform: 'platformA',
          from: null,
        }))
        .sort((x, y) => (x.username < y.username ? -1 : 1)),
    });
    const activity = (await listActivity(t.ctx.db, co.companyId, { limit: 20 })).filter((e) =>
      e.action.startsWith('account.assigned'),
    );
    assert.deepEqual(activity.map((e) => e.target).sort(), [a1, a2].sort());
    assert.equal(activity[0]?.actor, `operator:${op.operatorId}`);
    assert.match(activity[0]?.actorLabel ?? '', /^Wanda <.*> \(Slotline operator\)$/);
    assert.match(
      activity[0]?.detail ?? '',
      /^@\S+ \(platformA\): operated by worker Ana \(Europe\/Berlin\)$/,
    );
    assert.match(
      (await b.get('/operator/log')).body,
      /Gave @\S+ \(platformA\), @\S+ \(platformA\) of “Handed Co” to worker Ana \(Europe\/Berlin\)\./,
    );

    // Giving Ben one of Ana's accounts moves it from her.
    const moved = await submit(
      b,
      `/operator/workers/${ben}?company=${co.companyId}`,
      `/operator/workers/${ben}/assign`,
      {
        company: co.companyId,
        account: [a2],
      },
    );
    assert.equal(moved.status, 303);
    rows = await accountRows(t, ids);
    assert.equal(rows.get(a2)?.worker_id, ben);
    assert.equal(rows.get(a2)?.timezone, 'America/New_York');
    const [reassigned] = await listActivity(t.ctx.db, co.companyId, { limit: 1 });
    assert.equal(reassigned?.action, 'account.reassigned');
    assert.match(reassigned?.detail ?? '', /: worker Ana → Ben \(America\/New_York\)$/);
    const [movedEntry] = await listOperatorLog(t.ctx.db, { companyId: co.companyId, limit: 1 });
    assert.equal(movedEntry?.action, 'account.reassigned');
    assert.match(
      (await b.get('/operator/log')).body,
      /Moved @\S+ \(platformA\) of “Handed Co” from worker Ana to worker Ben \(America\/New_York\)\./,
    );
    // Giving accounts a worker has already changes and records nothing.
    const count = (await listOperatorLog(t.ctx.db, { companyId: co.companyId, limit: 50 })).length;
    const same = await submit(b, `${page}?company=${co.companyId}`, `${page}/assign`, {
      company: co.companyId,
      account: [a1],
    });
    assert.equal(same.status, 303);
    assert.match((await b.get(url)).body, /Ana operated that account already: nothing changed\./);
    assert.equal(
      (await listOperatorLog(t.ctx.db, { companyId: co.companyId, limit: 50 })).length,
      count,
    );

    // Taking back: only Ana's accounts; a stale form naming another's is refused whole.
    const stale = await submit(b, page, `${page}/unassign`, { account: [a1, a2] });
    assert.equal(stale.status, 409);
    assert.match(
      stale.body,
      /id="take-error">@\S+ \(platformA\) is not operated by Ana \(any more\); nothing was changed\./,
    );
    assert.equal((await accountRows(t, ids)).get(a1)?.worker_id, ana);
    const noneTaken = await submit(b, page, `${page}/unassign`, {});
    assert.equal(noneTaken.status, 400);
    assert.match(noneTaken.body, /Select at least one account\./);
    const taken = await submit(b, page, `${page}/unassign`, { account: [a1] });
    assert.equal(taken.status, 303);
    assert.match(
      (await b.get(page)).body,
      /1 account taken from Ana: nothing is released to it until another worker has it\./,
    );
    assert.equal((await accountRows(t, ids)).get(a1)?.worker_id, null);
    const [unassigned] = await listOperatorLog(t.ctx.db, { companyId: co.companyId, limit: 1 });
    assert.equal(unassigned?.action, 'accounts.unassigned');
    assert.equal(unassigned?.target, ana);
    const [gone] = await listActivity(t.ctx.db, co.companyId, { limit: 1 });
    assert.equal(gone?.action, 'account.unassigned');
    assert.equal(gone?.target, a1);
    assert.match(gone?.detail ?? '', /no longer operated by worker Ana/);
    assert.match((await b.get(page)).body, /Ana operates no account yet\. Give it some below\./);
  });

  test('renaming and moving a worker to another timezone: its accounts follow, as the CLI does', async () => {
    const t = get();
    const b = op.browser;
    const co = await seedCompany(t, { name: 'Zoned Co' });
    const call = client(t, co.key);
    const ids = await makeAccounts(call, 2);
    const page = `/operator/workers/${ben}`;
    await submit(b, `${page}?company=${co.companyId}`, `${page}/assign`, {
      company: co.companyId,
      account: ids,
    });

    const bad = await submit(b, page, `${page}/settings`, {
      name: 'Ben',
      timezone: 'Europe/Atlantis',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /id="s-tz-error">“Europe\/Atlantis” is not an IANA timezone/);
    assert.match(bad.body, /value="Europe\/Atlantis"/, 'what was typed is kept');
    const noName = await submit(b, page, `${page}/settings`, { name: '', timezone: 'UTC' });
    assert.equal(noName.status, 400);
    assert.match(noName.body, /id="s-name-error">Enter the worker’s name\./);
    assert.equal((await workerRow(t, ben)).timezone, 'America/New_York');
    const unknown = await submit(b, page, '/operator/workers/wrk_nope/settings', {
      name: 'X',
      timezone: 'UTC',
    });
    assert.equal(unknown.status, 404);

    const changed = await submit(b, page, `${page}/settings`, {
      name: 'Benjamin',
      timezone: 'Asia/Tokyo',
    });
    assert.equal(changed.status, 303);
    assert.match(
      (await b.get(page)).body,
      /Benjamin renamed from “Ben”; moved from America\/New_York to Asia\/Tokyo, and 3 accounts with it: their posting windows follow\./,
    );
    const row = await workerRow(t, ben);
    assert.equal(row.name, 'Benjamin');
    assert.equal(row.timezone, 'Asia/Tokyo');
    for (const id of ids) {
      assert.equal((await call('GET', `/v2/accounts/${id}`)).body.timezone, 'Asia/Tokyo');
      const schedule = await call('GET', `/v2/accounts/${id}/schedule`);
      assert.equal(schedule.body.timezone, 'Asia/Tokyo', 'its windows are Tokyo times now');
    }
    const [entry] = await entriesOf(t, ben);
    assert.equal(entry?.action, 'worker.updated');
    assert.deepEqual(entry?.details, {
      name: 'Benjamin',
      changes: [
        { field: 'name', from: 'Ben', to: 'Benjamin' },
        { field: 'timezone', from: 'America/New_York', to: 'Asia/Tokyo' },
      ],
      accounts: 3,
    });
    const moved = (await listActivity(t.ctx.db, co.companyId, { limit: 10 })).filter(
      (e) => e.action === 'account.timezone_changed',
    );
    assert.deepEqual(moved.map((e) => e.target).sort(), [...ids].sort());
    assert.match(
      moved[0]?.detail ?? '',
      /: America\/New_York → Asia\/Tokyo, the timezone of its worker Benjamin; its posting windows follow$/,
    );
    assert.match(
      (await b.get('/operator/log')).body,
      /Changed worker Benjamin: renamed “Ben” → “Benjamin”; timezone America\/New_York → Asia\/Tokyo \(its 3 account\(s\) follow\)\./,
    );

    const same = await submit(b, page, `${page}/settings`, {
      name: 'Benjamin',
      timezone: 'Asia/Tokyo',
    });
    assert.equal(same.status, 303);
    assert.match((await b.get(page)).body, /Nothing changed\./);
    assert.equal((await entriesOf(t, ben)).length, 2, 'created and updated, nothing more');
  });

  test('a new phone link, a new token (old token, phones and links end), revoking', async () => {
    const t = get();
    const b = op.browser;
    const page = `/operator/workers/${ana}`;
    const phoneBefore = await signInWorkerByLink(t.ctx.db, t.ctx.clock, {
      token: new URL(
        valueOf((await submit(b, page, `${page}/link`, {})).body, 'worker-link'),
      ).searchParams.get('token') as string,
      address: freshAddress(),
    });
    const linked = await submit(b, page, `${page}/link`, {});
    assert.equal(linked.status, 200);
    assert.match(linked.body, /<h1>Phone sign-in link for Ana<\/h1>/);
    assert.match(linked.body, /aria-label="QR code of the phone sign-in link for Ana"/);
    assert.doesNotMatch(linked.body, /id="worker-token"/, 'a link alone shows no token');
    const unused = new URL(valueOf(linked.body, 'worker-link')).searchParams.get('token') as string;
    const links = (await entriesOf(t, ana)).filter((e) => e.action === 'worker.link_created');
    assert.equal(links.length, 2);
    assert.deepEqual(links[0]?.details, { name: 'Ana' });

    const confirm = await b.get(`${page}/rotate`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /The current token stops working at once/);
    assert.equal((await b.get('/operator/workers/wrk_nope/rotate')).status, 404);
    t.clock.advance(1000);
    const rotated = await b.post(`${page}/rotate`, { _csrf: hidden(confirm.body, '_csrf') });
    assert.equal(rotated.status, 200);
    assert.match(rotated.body, /<h1>New token for Ana<\/h1>/);
    const newToken = valueOf(rotated.body, 'worker-token');
    assert.notEqual(newToken, anaToken);
    assert.equal((await client(t, anaToken)('POST', '/worker/v1/heartbeat', {})).status, 401);
    assert.equal((await client(t, newToken)('POST', '/worker/v1/heartbeat', {})).status, 200);
    assert.equal(
      await resolveWorkerSession(t.ctx.db, t.ctx.clock, phoneBefore.secret),
      null,
      'the phone signed in before the rotation is signed out',
    );
    await assert.rejects(
      signInWorkerByLink(t.ctx.db, t.ctx.clock, { token: unused, address: freshAddress() }),
      SignInRefused,
      'a link made before the rotation no longer works',
    );
    const [rotation] = await entriesOf(t, ana);
    assert.equal(rotation?.action, 'worker.token_rotated');
    assert.deepEqual(rotation?.details, { name: 'Ana', reactivated: false });

    const revokePage = await b.get(`${page}/revoke`);
    assert.equal(revokePage.status, 200);
    assert.match(revokePage.body, /Revoke Ana\?/);
    t.clock.advance(1000);
    const revoked = await b.post(`${page}/revoke`, { _csrf: hidden(revokePage.body, '_csrf') });
    assert.equal(revoked.status, 303);
    const shown = await b.get(page);
    assert.match(
      shown.body,
      /Ana is revoked: its token, phone sessions and links no longer work\./,
    );
    assert.match(shown.body, /<span class="status status-revoked">Revoked<\/span>/);
    assert.match(shown.body, /A revoked worker cannot be given accounts\./);
    assert.ok((await workerRow(t, ana)).revoked_at);
    assert.equal((await client(t, newToken)('POST', '/worker/v1/heartbeat', {})).status, 401);
    const [revocation] = await entriesOf(t, ana);
    assert.equal(revocation?.action, 'worker.revoked');
    assert.match((await b.get('/operator/log')).body, /Revoked worker Ana\./);
    const twice = await b.post(`${page}/revoke`, { _csrf: hidden(shown.body, '_csrf') });
    assert.equal(twice.status, 303);
    assert.match((await b.get(page)).body, /Ana was revoked already\./);
    assert.equal((await entriesOf(t, ana))[0]?.action, 'worker.revoked', 'nothing more recorded');

    // A revoked worker gets no phone link and no accounts.
    const noLink = await submit(b, page, `${page}/link`, {});
    assert.equal(noLink.status, 409);
    assert.match(noLink.body, /Ana is revoked: a sign-in link would not work\./);
    const co = await seedCompany(t, { name: 'Refused Co' });
    const [acc] = await makeAccounts(client(t, co.key), 1);
    const refused = await submit(b, page, `${page}/assign`, {
      company: co.companyId,
      account: [acc as string],
    });
    assert.equal(refused.status, 409);
    assert.match(refused.body, /Ana is revoked: accounts cannot be given to a revoked worker\./);
    assert.equal((await accountRows(t, [acc as string])).get(acc as string)?.worker_id, null);
    assert.deepEqual(await listOperatorLog(t.ctx.db, { companyId: co.companyId, limit: 5 }), []);

    // A new token makes it active again.
    const again = await submit(b, `${page}/rotate`, `${page}/rotate`, {});
    assert.equal(again.status, 200);
    assert.match(again.body, /<h1>Ana is active again<\/h1>/);
    assert.equal((await workerRow(t, ana)).revoked_at, null);
    const rotations = (await entriesOf(t, ana)).filter((e) => e.action === 'worker.token_rotated');
    assert.deepEqual(
      rotations.map((e) => e.details).sort((x, y) => Number(x.reactivated) - Number(y.reactivated)),
      [
        { name: 'Ana', reactivated: false },
        { name: 'Ana', reactivated: true },
      ],
    );
    assert.match(
      (await b.get('/operator/log')).body,
      /Issued a new token to revoked worker Ana, making it active again\./,
    );
  });

  test('refused without a full console session or its CSRF token, changing nothing', async () => {
    const t = get();
    const co = await seedCompany(t, { name: 'Guard Co' });
    const [acc] = await makeAccounts(client(t, co.key), 1);
    const user = await userIn(t, co.companyId, 'admin');
    const ub = browser(t, freshAddress());
    assert.equal((await signIn(ub, user.email, user.password)).status, 303);
    const halfway = browser(t, freshAddress());
    t.clock.advance(30_000);
    assert.equal((await passwordStep(halfway, op.email)).status, 303);
    const snapshot = async () =>
      JSON.stringify([
        await t.ctx.db.selectFrom('workers').selectAll().orderBy('id').execute(),
        await t.ctx.db
          .selectFrom('accounts')
          .select(['id', 'worker_id', 'timezone'])
          .orderBy('id')
          .execute(),
        await t.ctx.db.selectFrom('worker_sign_in_links').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('operator_log').select('id').orderBy('id').execute(),
      ]);
    const before = await snapshot();
    const actions: [string, Record<string, string>][] = [
      ['/operator/workers', { name: 'Evil', timezone: 'UTC' }],
      [`/operator/workers/${ben}/settings`, { name: 'Evil', timezone: 'UTC' }],
      [`/operator/workers/${ben}/link`, {}],
      [`/operator/workers/${ben}/rotate`, {}],
      [`/operator/workers/${ben}/revoke`, {}],
      [`/operator/workers/${ben}/assign`, { account: acc as string }],
      [`/operator/workers/${ben}/unassign`, { account: acc as string }],
      [`/operator/setup/${acc}/assign`, { worker: ben }],
      [`/operator/board/accounts/${acc}`, { to: ben }],
    ];
    for (const [path, form] of actions) {
      for (const [who, b] of [
        ['nobody', browser(t, freshAddress())],
        ['a company user', ub],
      ] as const) {
        const res = await b.post(path, { _csrf: 'x', ...form });
        assert.equal(res.status, 303, `${path} by ${who}`);
        assert.match(res.location ?? '', /^\/operator\/sign-in/, `${path} by ${who}`);
      }
      const half = await halfway.post(path, { _csrf: 'x', ...form });
      assert.equal(half.location, '/operator/sign-in/code', `${path} before the second factor`);
      const noCsrf = await op.browser.post(path, form);
      assert.equal(noCsrf.status, 403, `${path} without CSRF`);
      assert.match(noCsrf.body, /This form has expired/);
    }
    for (const path of [
      '/operator/workers',
      `/operator/workers/${ben}`,
      '/operator/setup',
      '/operator/board',
    ]) {
      const res = await ub.get(path);
      assert.equal(res.status, 303, path);
      assert.match(res.location ?? '', /^\/operator\/sign-in/);
      assert.equal((await halfway.get(path)).location, '/operator/sign-in/code');
    }
    assert.equal(await snapshot(), before, 'a refused request changed data');
    // And the operator's own session answers the pages.
    assert.equal((await op.browser.get(`/operator/workers/${ben}`)).status, 200);
    assert.equal((await op.browser.get('/operator/workers/wrk_unknown')).status, 404);
    assert.match(
      (await op.browser.get('/operator/workers/wrk_unknown')).body,
      /There is no worker with this id\./,
    );
    assert.equal((await op.browser.get(`/operator/workers/${'w'.repeat(300)}`)).status, 400);
    // Hostile ids and filters: a page saying what is wrong, never a 500.
    for (const path of [
      '/operator/workers/wrk_%00x',
      `/operator/workers/${ben}?company=cmp_%00x`,
      '/operator/board?company=%00',
      '/operator/board?worker=%00',
      '/operator/board/accounts/acc_%00x',
      '/operator/workers/wrk_%00x/rotate',
    ]) {
      const res = await op.browser.get(path);
      assert.ok([400, 404].includes(res.status), `${path}: ${res.status}`);
      assert.match(res.body, /<h1>/);
    }
    const hostile: [string, Record<string, string | string[]>][] = [
      [`/operator/setup/${acc}/assign`, { worker: 'wrk_\u0000x' }],
      [`/operator/board/accounts/${acc}`, { to: 'wrk_\u0000x' }],
      [`/operator/workers/${ben}/assign`, { account: ['acc_\u0000x'] }],
      [`/operator/workers/${ben}/unassign`, { account: 'x'.repeat(5000) }],
      [`/operator/workers/${ben}/settings`, { name: 'A\u0000B', timezone: 'UTC' }],
      ['/operator/workers', { name: ['A', 'B'], timezone: 'UTC' }],
    ];
    for (const [path, form] of hostile) {
      const res = await submit(op.browser, '/operator/workers', path, form);
      assert.ok([400, 404].includes(res.status), `${path}: ${res.status}`);
    }
  });
});
