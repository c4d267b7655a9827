// Setting accounts up in the workers' app, through HTTP on both databases: the profile the
// company asked for, reported warming up (then the search terms), active, or disconnected
// with a reason; the worker API's rules and refusals, each next to its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount } from '../../helpers/app.ts';
import { browser } from '../../helpers/dashboard.ts';
import { assignAccounts, createWorker } from '../../../src/modules/workers/index.ts';
import { TASKS, WBASE, fieldError, signedInAt } from './worker-page.helpers.ts';

describeEachDialect('workers app: setting accounts up', (get) => {
  /** A new account (pending_setup) operated by a new worker, signed in on a phone. */
  async function newAccount(ip: string) {
    const t = get();
    t.clock.set('2031-04-01T09:00:00.000Z');
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const created = await call(
      'POST',
      '/v2/accounts',
      validAccount({
        displayName: 'Bay Sunsets',
        bio: 'Sunsets & <waves> every day',
        bioUrl: 'https://example.com/links',
        profilePictureUrl: 'https://example.com/pictures/bay.png',
        warmup: { searchTerms: ['sunset timelapse', 'surf'] },
      }),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const account = created.body.accountId as string;
    const username = created.body.username as string;
    const worker = await createWorker(t.ctx.db, t.ctx.clock, { name: 'Ana', timezone: 'UTC' });
    await assignAccounts(t.ctx.db, t.ctx.clock, worker.workerId, [account]);
    const b = browser(t, ip);
    const page = `${WBASE}/accounts/${account}`;
    const csrf = await signedInAt(b, worker.token, page);
    const status = async () => (await call('GET', `/v2/accounts/${account}`)).body;
    return { t, call, b, csrf, account, username, page, status, worker };
  }

  test('warming up, then active: the profile, the search terms and the tasks page follow', async () => {
    const { b, csrf, username, page, status } = await newAccount('198.51.100.60');
    const home = await b.get(TASKS);
    assert.match(home.body, /<h2 id="setup-h">Accounts to set up<\/h2>/);
    assert.match(home.body, new RegExp(`@${username}</span>[\\s\\S]*?Not set up yet`));
    assert.match(home.body, /Tasks come once an account is set up/);

    const setup = await b.get(page);
    assert.match(setup.body, /<h2 id="profile-h">Set up the profile<\/h2>/);
    assert.match(
      setup.body,
      new RegExp(`<input id="p-username" type="text" readonly value="${username}">`),
    );
    assert.match(setup.body, /<input id="p-display" type="text" readonly value="Bay Sunsets">/);
    assert.match(
      setup.body,
      /<textarea id="p-bio" readonly rows="3">Sunsets &amp; &lt;waves&gt; every day<\/textarea>/,
    );
    assert.match(setup.body, /value="https:\/\/example.com\/links"/);
    assert.match(
      setup.body,
      /<a class="big" href="https:\/\/example.com\/pictures\/bay.png" download rel="noreferrer">Download the profile picture<\/a>/,
    );
    for (const id of ['p-username', 'p-display', 'p-bio', 'p-bio-url', 'p-picture']) {
      assert.match(setup.body, new RegExp(`data-copy="${id}" hidden>Copy`), id);
    }
    assert.doesNotMatch(setup.body, /sunset timelapse/, 'search terms come with the warm-up');
    assert.match(setup.body, /Profile is set up: start the warm-up/);

    const warm = await b.post(`${page}/status`, { _csrf: csrf, status: 'warming_up' });
    assert.equal(warm.status, 303);
    assert.equal(warm.location, page);
    assert.equal((await status()).status, 'warming_up');
    const warming = await b.get(page);
    assert.match(warming.body, new RegExp(`role="status">@${username} is warming up\\.`));
    assert.match(
      warming.body,
      /<span id="term-0">sunset timelapse<\/span> <button type="button" class="copy" data-copy="term-0" hidden>Copy<span class="visually-hidden"> “sunset timelapse”<\/span>/,
    );
    assert.match(warming.body, /<span id="term-1">surf<\/span>/);
    assert.match(warming.body, /Warm-up done: ready to post/);
    // Sent twice (a poor connection): the same answer, nothing else changes.
    const twice = await b.post(`${page}/status`, { _csrf: csrf, status: 'warming_up' });
    assert.equal(twice.status, 303);
    assert.match((await b.get(TASKS)).body, /Warming up/);

    const active = await b.post(`${page}/status`, { _csrf: csrf, status: 'active' });
    assert.equal(active.status, 303);
    const now = await status();
    assert.equal(now.status, 'active');
    assert.ok(now.nextWindow);
    const ready = await b.get(page);
    assert.match(ready.body, new RegExp(`@${username} is ready to post\\.`));
    assert.match(ready.body, /<h2 id="profile-h">Profile<\/h2>/);
    assert.doesNotMatch((await b.get(TASKS)).body, /Accounts to set up/);
    const accounts = await b.get(`${WBASE}/accounts`);
    assert.match(accounts.body, new RegExp(`@${username}</span>[\\s\\S]*?Ready to post`));
    assert.match(accounts.body, /Bay Sunsets/);
  });

  test('disconnected needs a reason; the company reads it; access back is active again', async () => {
    const { b, csrf, page, status, call, account } = await newAccount('198.51.100.61');
    const blank = await b.post(`${page}/status`, {
      _csrf: csrf,
      status: 'disconnected',
      reason: '  ',
    });
    assert.equal(blank.status, 400);
    assert.equal(
      fieldError(blank.body, 'reason'),
      'Say why the account is disconnected: the company reads it.',
    );
    assert.match(blank.body, /<details class="report" open>/);
    assert.match(blank.body, /aria-invalid="true"/);
    assert.equal((await status()).status, 'pending_setup');

    const long = await b.post(`${page}/status`, {
      _csrf: csrf,
      status: 'disconnected',
      reason: 'x'.repeat(501),
    });
    assert.equal(long.status, 400);
    assert.equal(
      fieldError(long.body, 'reason'),
      'The reason must be at most 500 characters (got a string of 501 characters)',
    );
    assert.match(long.body, new RegExp(`>${'x'.repeat(501)}</textarea>`), 'what was typed stays');

    const lost = await b.post(`${page}/status`, {
      _csrf: csrf,
      status: 'disconnected',
      reason: 'Logged out; the password no longer works',
    });
    assert.equal(lost.status, 303);
    const seen = await status();
    assert.equal(seen.status, 'disconnected');
    assert.equal(seen.statusReason, 'Logged out; the password no longer works');
    const history = await call('GET', `/v2/accounts/${account}/status-history`);
    assert.equal(history.body.data[0].source, 'worker');
    const shown = await b.get(page);
    assert.match(
      shown.body,
      /<dt>Your reason<\/dt><dd>Logged out; the password no longer works<\/dd>/,
    );
    assert.match(shown.body, /Access is back: ready to post/);
    assert.doesNotMatch(shown.body, /Lost access to this account\?/);
    assert.match((await b.get(TASKS)).body, /paused or disconnected/);

    assert.equal((await b.post(`${page}/status`, { _csrf: csrf, status: 'active' })).status, 303);
    assert.equal((await status()).status, 'active');
  });

  test('refusals: a status the worker cannot report, another worker’s account, a forged form', async () => {
    const { b, csrf, page, status } = await newAccount('198.51.100.62');
    const paused = await b.post(`${page}/status`, { _csrf: csrf, status: 'paused' });
    assert.equal(paused.status, 400);
    assert.match(paused.body, /role="alert">Status must be one of/);
    assert.equal((await status()).status, 'pending_setup');

    const other = await newAccount('198.51.100.63');
    const foreign = await b.get(`${WBASE}/accounts/${other.account}`);
    assert.equal(foreign.status, 404);
    assert.match(foreign.body, /is not operated by this worker/);
    const post = await b.post(`${WBASE}/accounts/${other.account}/status`, {
      _csrf: csrf,
      status: 'active',
    });
    assert.equal(post.status, 404);
    assert.equal((await other.status()).status, 'pending_setup');

    const forged = await b.post(`${page}/status`, { _csrf: 'forged', status: 'active' });
    assert.equal(forged.status, 403);
    assert.equal((await status()).status, 'pending_setup');
  });
});
