// Companies in the operator console through HTTP, on both databases: the list and its
// counts, creating a company, changing its plan and capability, suspending and resuming it
// (its keys and users refused meanwhile, nothing deleted), inviting its first admin with
// a one-time link; each action in the operator log and in the company's activity log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { makeAccounts, readyUpload } from '../../helpers/posts.ts';
import {
  enrolledOperator,
  freshAddress,
  operatorSignIn,
  type EnrolledOperator,
} from '../../helpers/operator.ts';
import { buildApp } from '../../../src/app.ts';
import { openContext } from '../../../src/bootstrap.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import { listOperatorLog, type OperatorLogEntry } from '../../../src/modules/operators/index.ts';

/** Submits a form of the page at `pageUrl` (its CSRF token) to `action`. */
async function submit(b: Browser, pageUrl: string, action: string, form: Record<string, string>) {
  const page = await b.get(pageUrl);
  assert.equal(page.status, 200, `${pageUrl}: ${page.status}`);
  return b.post(action, { _csrf: hidden(page.body, '_csrf'), ...form });
}

async function logOf(t: TestApp, companyId: string): Promise<OperatorLogEntry[]> {
  return listOperatorLog(t.ctx.db, { companyId, limit: 100 });
}

/** Polls `check` until it holds, for up to two seconds. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + 2000;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describeEachDialect('operator console: companies', (get, dialect) => {
  let op: EnrolledOperator;

  test('setup: an operator signed in', async () => {
    op = await enrolledOperator(get(), 'Cora');
  });

  test('creating a company: each field checked, then the company and its two log entries', async () => {
    const t = get();
    const b = op.browser;
    const form = await b.get('/operator/companies/new');
    assert.equal(form.status, 200);
    for (const plan of Object.keys(t.config.plans))
      assert.match(form.body, new RegExp(`value="${plan}"`));
    assert.match(form.body, /<datalist id="timezones">/);

    const refused = await b.post('/operator/companies', {
      _csrf: hidden(form.body, '_csrf'),
      name: '   ',
      plan: 'platinum',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /id="c-name-error">Enter the company’s name/);
    assert.match(refused.body, /id="c-plan-error">Choose a plan from the list/);
    const badZone = await b.post('/operator/companies', {
      _csrf: hidden(form.body, '_csrf'),
      name: 'Zoned Co',
      plan: 'starter',
      defaultTimezone: 'Mars/Olympus',
    });
    assert.equal(badZone.status, 400);
    assert.match(badZone.body, /id="c-tz-error">“Mars\/Olympus” is not an IANA timezone/);
    assert.match(badZone.body, /value="Zoned Co"/, 'what was typed is kept');
    const long = await b.post('/operator/companies', {
      _csrf: hidden(form.body, '_csrf'),
      name: 'x'.repeat(201),
      plan: 'starter',
    });
    assert.equal(long.status, 400);
    assert.match(long.body, /at most 200 characters/);
    const before = await t.ctx.db.selectFrom('companies').select('id').execute();

    const created = await b.post('/operator/companies', {
      _csrf: hidden(form.body, '_csrf'),
      name: '  Northwind Media ',
      plan: 'growth',
      platformBFeedPosts: 'on',
      defaultTimezone: 'Europe/Berlin',
    });
    assert.equal(created.status, 303);
    const companyId = /\/operator\/companies\/(cmp_\w+)$/.exec(created.location ?? '')?.[1];
    assert.ok(companyId, created.location);
    const after = await t.ctx.db.selectFrom('companies').select('id').execute();
    assert.equal(after.length, before.length + 1, 'the refusals created nothing');
    const row = await t.ctx.db
      .selectFrom('companies')
      .selectAll()
      .where('id', '=', companyId)
      .executeTakeFirstOrThrow();
    assert.equal(row.name, 'Northwind Media');
    assert.equal(row.plan, 'growth');
    assert.equal(row.platformb_feed_posts, 1);
    assert.equal(row.default_timezone, 'Europe/Berlin');
    assert.equal(row.suspended_at, null);

    const page = await b.get(created.location as string);
    assert.match(page.body, /role="status">Company “Northwind Media” created\./);
    assert.match(page.body, /<dt>Plan<\/dt><dd>growth<\/dd>/);

    const [entry, ...rest] = await logOf(t, companyId);
    assert.equal(rest.length, 0);
    assert.equal(entry?.action, 'company.created');
    assert.equal(entry?.operatorId, op.operatorId);
    assert.equal(entry?.actorLabel, `Cora <${op.email}>`);
    assert.equal(entry?.createdAt, t.clock.now().toISOString());
    assert.deepEqual(entry?.details, {
      name: 'Northwind Media',
      plan: 'growth',
      platformBFeedPosts: true,
      defaultTimezone: 'Europe/Berlin',
    });
    const activity = await listActivity(t.ctx.db, companyId, { limit: 10 });
    assert.equal(activity.length, 1);
    assert.equal(activity[0]?.action, 'company.created');
    assert.equal(activity[0]?.actor, `operator:${op.operatorId}`);
    assert.match(activity[0]?.actorLabel ?? '', /Cora <.*> \(Slotline operator\)/);

    const log = await b.get('/operator/log');
    assert.match(
      log.body,
      /Created company “Northwind Media”: plan growth, platformB feed posts on, timezone Europe\/Berlin\./,
    );
    assert.match(
      log.body,
      new RegExp(`href="/operator/companies/${companyId}">Northwind Media</a>`),
    );
  });

  test('the list: plan, accounts, queue items created today (UTC) and state; search and empty states', async () => {
    const t = get();
    const co = await seedCompany(t, { name: 'Counted Co', plan: 'scale' });
    const call = client(t, co.key);
    const accounts = await makeAccounts(call, 2);
    const image = await readyUpload(t, call, 'image.png');
    const post = await call('POST', '/v2/posts', { media: [image], accountIds: accounts });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    const usage = await call('GET', '/v2/usage');
    const list = await op.browser.get('/operator/companies?q=counted');
    assert.equal(list.status, 200);
    const row = /<tr>\s*<th scope="row"><a [^>]*>Counted Co<\/a><\/th>([\s\S]*?)<\/tr>/.exec(
      list.body,
    );
    assert.ok(row, list.body);
    const cells = [...(row[1] as string).matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) =>
      (m[1] as string).replace(/<[^>]+>/g, '').trim(),
    );
    assert.equal(cells[0], 'Plan: scale');
    assert.equal(cells[1], 'Accounts: 2');
    // One post to two accounts: the count says plainly that it counts one per account.
    assert.equal(usage.body.postsCreatedToday, 2);
    assert.equal(cells[2], 'Queue items today (UTC): 2');
    assert.match(list.body, /Queue items today: one per post and account it was queued to/);
    const detail = await op.browser.get(`/operator/companies/${co.companyId}`);
    assert.match(
      detail.body,
      /<dt>Queue items today \(UTC\)<\/dt><dd>2 <span class="meta">one per post and account/,
    );
    assert.doesNotMatch(detail.body + list.body, /Posts today/);
    // Nothing released yet: no delivery figures (fulfilment.test.ts has some).
    assert.equal(cells[3], 'Delivered, 7 days: 0');
    assert.equal(cells[4], 'On time (7 days): —');
    assert.equal(cells[5], 'Failed (7 days): —');
    assert.match(cells[6] as string, /^Active/);

    // The next UTC day starts from nothing (a new day, a new sign-in).
    t.clock.advance(24 * 60 * 60 * 1000);
    op.browser = await operatorSignIn(t, op);
    const tomorrow = await op.browser.get('/operator/companies?q=Counted');
    assert.match(tomorrow.body, /Queue items today \(UTC\): <\/span>0</);

    const none = await op.browser.get('/operator/companies?q=no-such-company-name');
    assert.match(none.body, /No company’s name contains “no-such-company-name”/);
    // A search is literal text, wildcards included.
    const wild = await op.browser.get('/operator/companies?q=%25');
    assert.match(wild.body, /No company’s name contains “%”/);
    const unknown = await op.browser.get('/operator/companies/cmp_doesnotexist');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /There is no company with this id/);
  });

  test('changing the plan and the feed-post capability: both logs, and the keys see it at once', async () => {
    const t = get();
    const co = await seedCompany(t, { name: 'Planned Co' });
    const call = client(t, co.key);
    assert.equal((await call('GET', '/v2/usage')).body.plan, 'starter');
    const url = `/operator/companies/${co.companyId}`;

    const bad = await submit(op.browser, url, `${url}/settings`, { plan: 'gold' });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /id="s-plan-error">Choose a plan from the list/);

    const saved = await submit(op.browser, url, `${url}/settings`, {
      plan: 'scale',
      platformBFeedPosts: 'on',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, url);
    assert.match((await op.browser.get(url)).body, /“Planned Co” updated\./);
    assert.equal((await call('GET', '/v2/usage')).body.plan, 'scale', 'the plan applies at once');

    const [entry] = await logOf(t, co.companyId);
    assert.equal(entry?.action, 'company.updated');
    assert.deepEqual(entry?.details, {
      name: 'Planned Co',
      changes: [
        { field: 'plan', from: 'starter', to: 'scale' },
        { field: 'platformBFeedPosts', from: false, to: true },
      ],
    });
    const [activity] = await listActivity(t.ctx.db, co.companyId, { limit: 1 });
    assert.equal(activity?.action, 'company.updated');
    assert.equal(activity?.detail, 'plan starter → scale; platformB feed posts off → on');
    assert.equal(activity?.actor, `operator:${op.operatorId}`);

    // The same settings again change nothing, and nothing is logged.
    const same = await submit(op.browser, url, `${url}/settings`, {
      plan: 'scale',
      platformBFeedPosts: 'on',
    });
    assert.equal(same.status, 303);
    assert.match((await op.browser.get(url)).body, /Nothing changed\./);
    assert.equal((await logOf(t, co.companyId)).length, 1);
    // Unticking the box turns the capability off.
    await submit(op.browser, url, `${url}/settings`, { plan: 'scale' });
    const off = await t.ctx.db
      .selectFrom('companies')
      .select('platformb_feed_posts')
      .where('id', '=', co.companyId)
      .executeTakeFirstOrThrow();
    assert.equal(off.platformb_feed_posts, 0);
    assert.match(
      (await op.browser.get('/operator/log')).body,
      /Changed “Planned Co”: platformB feed posts on → off\./,
    );

    const unknown = await submit(op.browser, url, '/operator/companies/cmp_nope/settings', {
      plan: 'scale',
    });
    assert.equal(unknown.status, 404);
  });

  test('suspension refuses the keys and users at once, deletes nothing; resume restores all', async () => {
    const t = get();
    const co = await seedCompany(t, { name: 'Paused Co' });
    const call = client(t, co.key);
    const [accountId] = await makeAccounts(call, 1);
    const user = await userIn(t, co.companyId, 'admin');
    const ub = browser(t, freshAddress());
    assert.equal((await signIn(ub, user.email, user.password)).status, 303);
    // Keys verified before the suspension are kept between requests: they must not survive it.
    for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/v2/accounts')).status, 200);
    assert.equal((await ub.get('/dashboard/accounts')).status, 200);

    const url = `/operator/companies/${co.companyId}`;
    const confirm = await op.browser.get(`${url}/suspend`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /Suspend “Paused Co”\?/);
    const tooLong = await op.browser.post(`${url}/suspend`, {
      _csrf: hidden(confirm.body, '_csrf'),
      reason: 'x'.repeat(501),
    });
    assert.equal(tooLong.status, 400);
    assert.equal(
      (await call('GET', '/v2/accounts')).status,
      200,
      'a refused form suspends nothing',
    );
    const suspended = await op.browser.post(`${url}/suspend`, {
      _csrf: hidden(confirm.body, '_csrf'),
      reason: 'Invoices unpaid since January',
    });
    assert.equal(suspended.status, 303);
    assert.match(
      (await op.browser.get(url)).body,
      /is suspended: its API keys and users are refused/,
    );

    for (const [method, path, body] of [
      ['GET', '/v2/accounts', undefined],
      ['GET', `/v2/accounts/${accountId}`, undefined],
      ['POST', '/v2/content-tags', { name: 'Blocked' }],
      ['GET', '/v2/usage', undefined],
    ] as const) {
      const res = await call(method, path, body);
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.body.error.code, 'unauthorized');
      assert.match(res.body.error.message, /company is suspended/);
      assert.match(res.body.error.hint, /Contact the Slotline operator/);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    }
    // The user's session stays but opens nothing; signing in says why, to the right password only.
    const page = await ub.get('/dashboard/accounts');
    assert.equal(page.status, 403);
    assert.match(page.body, /Your company’s access to Slotline is suspended/);
    const again = await signIn(browser(t, freshAddress()), user.email, user.password);
    assert.equal(again.status, 403);
    assert.match(again.body, /suspended/);
    const wrong = await signIn(browser(t, freshAddress()), user.email, 'not the password at all');
    assert.equal(wrong.status, 401);
    assert.doesNotMatch(wrong.body, /suspended/);

    const [entry] = await logOf(t, co.companyId);
    assert.equal(entry?.action, 'company.suspended');
    assert.deepEqual(entry?.details, {
      name: 'Paused Co',
      reason: 'Invoices unpaid since January',
    });
    const [activity] = await listActivity(t.ctx.db, co.companyId, { limit: 1 });
    assert.equal(activity?.action, 'company.suspended');
    assert.equal(activity?.detail, 'Invoices unpaid since January');
    const list = await op.browser.get('/operator/companies?q=Paused');
    assert.match(list.body, /<span class="status status-suspended">Suspended<\/span>/);
    // Suspending a suspended company changes and records nothing; its page says so.
    const page2 = await op.browser.get(`${url}/suspend`);
    assert.match(page2.body, /This company is suspended since/);
    assert.doesNotMatch(page2.body, /<form method="post" action="[^"]*\/suspend"/);
    const twice = await submit(op.browser, url, `${url}/suspend`, {});
    assert.equal(twice.status, 303);
    assert.match((await op.browser.get(url)).body, /was suspended already/);
    assert.equal((await logOf(t, co.companyId)).length, 1);

    // Nothing was deleted.
    const kept = await t.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('company_id', '=', co.companyId)
      .execute();
    assert.deepEqual(
      kept.map((r) => r.id),
      [accountId],
    );

    const resumed = await submit(op.browser, url, `${url}/resume`, {});
    assert.equal(resumed.status, 303);
    assert.match((await op.browser.get(url)).body, /is resumed: its API keys and users work again/);
    assert.equal((await call('GET', '/v2/accounts')).status, 200);
    assert.equal((await call('GET', `/v2/accounts/${accountId}`)).body.accountId, accountId);
    assert.equal((await ub.get('/dashboard/accounts')).status, 200, 'the old session is back');
    assert.equal((await signIn(browser(t, freshAddress()), user.email, user.password)).status, 303);
    const actions = (await logOf(t, co.companyId)).map((e) => e.action);
    assert.deepEqual(actions, ['company.resumed', 'company.suspended']);
    const resumedAgain = await submit(op.browser, url, `${url}/resume`, {});
    assert.equal(resumedAgain.status, 303);
    assert.equal(
      (await logOf(t, co.companyId)).length,
      2,
      'resuming an active company records nothing',
    );
    const activity2 = await listActivity(t.ctx.db, co.companyId, { limit: 10 });
    assert.deepEqual(
      activity2.filter((a) => a.action.startsWith('company.')).map((a) => a.action),
      ['company.resumed', 'company.suspended'],
    );
  });

  test(
    'a suspension made by another process or by hand reaches this one’s verified keys',
    { skip: dialect === 'sqlite' && 'the embedded database serves one process', timeout: 30_000 },
    async () => {
      const t = get();
      const co = await seedCompany(t, { name: 'Replica Co' });
      const call = client(t, co.key);
      const other = await openContext(t.config, { clock: t.clock, skipMigrations: true });
      const otherApp = await buildApp(other.ctx);
      await otherApp.ready();
      try {
        for (const by of ['replica', 'hand'] as const) {
          for (let i = 0; i < 3; i++)
            assert.equal((await call('GET', '/v2/content-tags')).status, 200);
          if (by === 'replica') {
            const { operatorSuspendCompany } =
              await import('../../../src/modules/operators/index.ts');
            await operatorSuspendCompany(
              other.ctx.db,
              t.clock,
              { operatorId: op.operatorId, label: 'Cora' },
              co.companyId,
              true,
            );
          } else {
            await sql`update companies set suspended_at = 'x' where id = ${co.companyId}`.execute(
              other.ctx.db,
            );
          }
          assert.ok(
            await eventually(async () => (await call('GET', '/v2/content-tags')).status === 401),
            `suspended by ${by}`,
          );
          await sql`update companies set suspended_at = null where id = ${co.companyId}`.execute(
            other.ctx.db,
          );
          assert.ok(
            await eventually(async () => (await call('GET', '/v2/content-tags')).status === 200),
            `resumed after ${by}`,
          );
        }
      } finally {
        await otherApp.close();
        await other.close();
      }
    },
  );

  test('inviting the first admin: a one-time link through which the person sets a password', async () => {
    const t = get();
    const co = await seedCompany(t, { name: 'Invited Co' });
    const url = `/operator/companies/${co.companyId}`;
    const detail = await op.browser.get(url);
    assert.match(detail.body, /Nobody of this company can sign in to the dashboard yet/);

    const bad = await submit(op.browser, url, `${url}/invite`, { email: 'not-an-email' });
    assert.equal(bad.status, 400);
    assert.match(
      bad.body,
      /id="i-email-error" role="alert">“not-an-email” is not an email address/,
    );

    const invited = await submit(op.browser, url, `${url}/invite`, {
      email: 'First.Admin@Invited.example',
    });
    assert.equal(invited.status, 200);
    assert.match(invited.body, /first\.admin@invited\.example is now an admin of Invited Co/);
    const link = /id="invite-link"[^>]*value="([^"]+)"/.exec(invited.body)?.[1];
    assert.ok(link);
    assert.match(link, /^http:\/\/slotline\.test\/dashboard\/welcome\?token=[0-9a-z]+$/);
    const path = link.replace('http://slotline.test', '');

    const user = await t.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'first.admin@invited.example')
      .executeTakeFirstOrThrow();
    assert.equal(user.role, 'admin');
    assert.equal(user.company_id, co.companyId);
    const token = new URL(link).searchParams.get('token') as string;
    const stored = JSON.stringify(await t.ctx.db.selectFrom('user_links').selectAll().execute());
    assert.ok(!stored.includes(token), 'the link is stored as a digest');
    // No password works before the link sets one.
    assert.equal((await signIn(browser(t, freshAddress()), user.email, '')).status, 401);

    const [entry] = await logOf(t, co.companyId);
    assert.equal(entry?.action, 'user.invited');
    assert.equal(entry?.target, user.id);
    assert.deepEqual(entry?.details, { email: 'first.admin@invited.example', role: 'admin' });
    const [activity] = await listActivity(t.ctx.db, co.companyId, { limit: 1 });
    assert.equal(activity?.action, 'user.invited');
    assert.equal(activity?.actor, `operator:${op.operatorId}`);
    assert.equal(activity?.detail, 'first.admin@invited.example (admin)');

    // The same email twice: refused next to the field.
    const dup = await submit(op.browser, url, `${url}/invite`, {
      email: 'first.admin@invited.example',
    });
    assert.equal(dup.status, 400);
    assert.match(dup.body, /already has a Slotline account/);

    // The person follows the link: a password, and they are signed in to the dashboard.
    const pb = browser(t, freshAddress());
    const welcome = await pb.get(path);
    assert.equal(welcome.status, 200);
    assert.match(
      welcome.body,
      /You are invited as <strong>first\.admin@invited\.example<\/strong> \(admin\)/,
    );
    const short = await pb.post('/dashboard/welcome', {
      _csrf: hidden(welcome.body, '_csrf'),
      token,
      password: 'short',
      confirmation: 'short',
    });
    assert.equal(short.status, 400);
    assert.match(short.body, /at least 12 characters/);
    const form = await pb.get(path);
    // The form's own token must come back (double submit), as on the sign-in form.
    const forged = await pb.post('/dashboard/welcome', {
      _csrf: 'forged',
      token,
      password: 'the admin passphrase',
      confirmation: 'the admin passphrase',
    });
    assert.equal(forged.status, 403);
    const done = await pb.post('/dashboard/welcome', {
      _csrf: hidden(form.body, '_csrf'),
      token,
      password: 'the admin passphrase',
      confirmation: 'the admin passphrase',
    });
    assert.equal(done.status, 303);
    assert.equal(done.location, '/dashboard/approvals');
    assert.equal((await pb.get('/dashboard/keys')).status, 200, 'an admin');
    assert.equal((await browser(t).get(path)).status, 404, 'the link works once');
    assert.equal(
      (await signIn(browser(t, freshAddress()), user.email, 'the admin passphrase')).status,
      303,
    );
    const people = await op.browser.get(url);
    assert.match(people.body, /<th scope="row">first\.admin@invited\.example<\/th>/);
  });

  test('a link of a suspended company waits; an expired link does not work', async () => {
    const t = get();
    const co = await seedCompany(t, { name: 'Waiting Co' });
    const url = `/operator/companies/${co.companyId}`;
    const invited = await submit(op.browser, url, `${url}/invite`, {
      email: 'wait@waiting.example',
    });
    const link = /id="invite-link"[^>]*value="([^"]+)"/.exec(invited.body)?.[1] as string;
    const path = link.replace('http://slotline.test', '');
    const confirm = await op.browser.get(`${url}/suspend`);
    await op.browser.post(`${url}/suspend`, { _csrf: hidden(confirm.body, '_csrf') });
    const pb = browser(t, freshAddress());
    const page = await pb.get(path);
    assert.equal(page.status, 403);
    assert.match(page.body, /suspended/);
    assert.doesNotMatch(page.body, /name="password"/);
    await submit(op.browser, url, `${url}/resume`, {});
    assert.equal((await pb.get(path)).status, 200);
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    const expired = await pb.get(path);
    assert.equal(expired.status, 404);
    assert.match(expired.body, /does not work any more/);
    op.browser = await operatorSignIn(t, op);
  });

  test('the operator log pages newest first; a company’s entries alone', async () => {
    const t = get();
    const co = await seedCompany(t, { name: 'Busy Co' });
    const url = `/operator/companies/${co.companyId}`;
    for (let i = 0; i < 55; i++) {
      t.clock.advance(1000);
      await submit(op.browser, url, `${url}/settings`, {
        plan: i % 2 === 0 ? 'growth' : 'starter',
      });
    }
    const first = await op.browser.get(`/operator/log?company=${co.companyId}`);
    assert.match(first.body, /Actions on <strong>Busy Co<\/strong> only/);
    const times = [...first.body.matchAll(/<time datetime="([^"]+)"/g)].map((m) => m[1] as string);
    assert.equal(times.length, 50);
    assert.deepEqual([...times].sort().reverse(), times, 'newest first');
    const next = /<a href="([^"]+)">Older entries<\/a>/
      .exec(first.body)?.[1]
      ?.replace(/&amp;/g, '&');
    assert.ok(next);
    const second = await op.browser.get(next);
    const more = [...second.body.matchAll(/<time datetime="([^"]+)"/g)].map((m) => m[1] as string);
    assert.equal(more.length, 5);
    assert.ok((more[0] as string) < (times[49] as string));
    assert.doesNotMatch(second.body, /Older entries/);
    const all = await op.browser.get('/operator/log');
    assert.match(all.body, /Older entries/);
    assert.match(all.body, /Cora &lt;/);
  });
});
