// The users page (/dashboard/users) through HTTP, on both databases: admins only; an
// invitation by one-time link that the person follows to choose a password and sign in;
// role changes; disabling (never oneself, never the last enabled admin); resets with a new
// link; each recorded in the company's activity log; another company's user answering
// like an unknown one; CSRF on every change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn, type Browser } from '../../helpers/dashboard.ts';
import { listActivity } from '../../../src/modules/activity/index.ts';
import { ActionRefused } from '../../../src/lib/action-refused.ts';
import {
  disableCompanyUser,
  getCompanyUser,
  listCompanyUsers,
} from '../../../src/modules/users/index.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;
const freshAddress = () => `198.51.100.${(++ips % 250) + 1}`;

/** A signed-in browser of a new user of the company, and the CSRF token of its session. */
async function signedIn(t: TestApp, companyId: string, role: UserRole, email?: string) {
  const u = await userIn(t, companyId, role, email);
  const b = browser(t, freshAddress());
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const csrf = hidden((await b.get('/dashboard/usage')).body, '_csrf');
  return { b, csrf, email: u.email, userId: u.user.userId, password: u.password };
}

/** The one-time link a page shows (in its read-only field), and its token. */
function linkOf(body: string): { url: string; path: string; token: string } {
  const m = /id="user-link" type="text" readonly value="([^"]+)"/.exec(body);
  assert.ok(m, 'the page shows the link');
  const url = (m[1] as string).replace(/&amp;/g, '&');
  const parsed = new URL(url);
  return {
    url,
    path: `${parsed.pathname}${parsed.search}`,
    token: parsed.searchParams.get('token') ?? '',
  };
}

/** Follows a one-time link in a fresh browser: chooses the password, and is signed in. */
async function accept(t: TestApp, path: string, token: string, password: string) {
  const b = browser(t, freshAddress());
  const welcome = await b.get(path);
  assert.equal(welcome.status, 200, welcome.body);
  const done = await b.post('/dashboard/welcome', {
    _csrf: hidden(welcome.body, '_csrf'),
    token,
    password,
    confirmation: password,
  });
  assert.equal(done.status, 303, done.body);
  return b;
}

async function invite(admin: { b: Browser; csrf: string }, email: string, role: string) {
  return admin.b.post('/dashboard/users', { _csrf: admin.csrf, email, role });
}

async function log(t: TestApp, companyId: string) {
  return (await listActivity(t.ctx.db, companyId, { limit: 50 })).filter(
    (e) => e.action !== 'user.created',
  );
}

describeEachDialect('dashboard users page', (get) => {
  test('only admins open the page or change anything', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');
    const viewer = await signedIn(t, co.companyId, 'viewer');
    const editor = await signedIn(t, co.companyId, 'editor');

    const page = await admin.b.get('/dashboard/users');
    assert.equal(page.status, 200);
    assert.match(page.body, /<h1>Users<\/h1>/);
    assert.match(page.body, new RegExp(`>${admin.email} <span class="meta">\\(you\\)</span>`));
    for (const u of [viewer, editor]) assert.match(page.body, new RegExp(`>${u.email}<`));
    assert.match(page.body, /<label for="invite-email">Email<\/label>/);
    assert.match(page.body, /Last sign-in/);

    for (const who of [viewer, editor]) {
      const denied = await who.b.get('/dashboard/users');
      assert.equal(denied.status, 403);
      assert.match(denied.body, /needs the admin role/);
      assert.equal((await invite(who, 'sneaky@example.com', 'admin')).status, 403);
      const role = await who.b.post(`/dashboard/users/${who.userId}/role`, {
        _csrf: who.csrf,
        role: 'admin',
      });
      assert.equal(role.status, 403);
      const disable = await who.b.post(`/dashboard/users/${admin.userId}/disable`, {
        _csrf: who.csrf,
      });
      assert.equal(disable.status, 403);
      assert.equal(
        (await who.b.post(`/dashboard/users/${admin.userId}/reset`, { _csrf: who.csrf })).status,
        403,
      );
    }
    assert.equal((await getCompanyUser(t.ctx.db, co.companyId, viewer.userId))?.role, 'viewer');
    assert.equal((await getCompanyUser(t.ctx.db, co.companyId, admin.userId))?.disabledAt, null);
    assert.equal(
      (await listCompanyUsers(t.ctx.db, t.ctx.clock, co.companyId)).some(
        (u) => u.email === 'sneaky@example.com',
      ),
      false,
    );
  });

  test('an invitation: a one-time link, a password chosen through it, then sign-in', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');

    // Every error of the form at once, in plain words, next to each field.
    const bad = await invite(admin, 'not-an-email', 'owner');
    assert.equal(bad.status, 400);
    assert.match(bad.body, /class="error-summary"/);
    assert.match(
      bad.body,
      /<a href="#invite-email">Email: must be an email address, like name@example\.com<\/a>/,
    );
    assert.match(bad.body, /<a href="#invite-role">Role: choose one from the list<\/a>/);
    assert.match(bad.body, /id="invite-email"[^>]*aria-invalid="true"/);
    assert.match(bad.body, /value="not-an-email"/);

    const sent = await invite(admin, 'New.Person@Example.com', 'editor');
    assert.equal(sent.status, 200, sent.body);
    assert.match(sent.body, /Invitation for new\.person@example\.com/);
    assert.match(sent.body, /new\.person@example\.com is invited as editor/);
    assert.match(sent.body, /data-copy="user-link"/);
    assert.match(String(sent.body), /shown once/);
    const link = linkOf(sent.body);
    assert.match(link.url, /^http:\/\/slotline\.test\/dashboard\/welcome\?token=/);
    const stored = JSON.stringify(await t.ctx.db.selectFrom('user_links').selectAll().execute());
    assert.ok(!stored.includes(link.token), 'only the digest of the link is stored');

    const listed = await admin.b.get('/dashboard/users');
    assert.match(listed.body, /new\.person@example\.com/);
    assert.match(
      listed.body,
      /Invited: sign-in link open until <time datetime="2026-03-03T10:00:00\.000Z">/,
    );
    assert.doesNotMatch(listed.body, new RegExp(link.token), 'the link is shown once only');

    // The same email again: refused next to the field.
    const dup = await invite(admin, 'new.person@example.com', 'viewer');
    assert.equal(dup.status, 409);
    assert.match(dup.body, /Email: new\.person@example\.com already has a Slotline account/);

    // The person follows the link, chooses a password and is signed in as an editor.
    const person = await accept(t, link.path, link.token, 'a long new passphrase');
    const home = await person.get('/dashboard/approvals');
    assert.equal(home.status, 200);
    assert.match(home.body, /class="who">new\.person@example\.com · editor</);
    assert.equal((await person.get('/dashboard/users')).status, 403);
    // The link works once; the password signs in from anywhere.
    assert.equal((await browser(t, freshAddress()).get(link.path)).status, 404);
    const again = browser(t, freshAddress());
    assert.equal(
      (await signIn(again, 'new.person@example.com', 'a long new passphrase')).status,
      303,
    );

    const after = await admin.b.get('/dashboard/users');
    const row = /<tr[^>]*>\s*<th scope="row">new\.person@example\.com[\s\S]*?<\/tr>/.exec(
      after.body,
    );
    assert.ok(row);
    assert.match(row[0], /Status: <\/span>Active/);
    assert.doesNotMatch(row[0], /never/);

    const entries = await log(t, co.companyId);
    const invited = entries.find((e) => e.action === 'user.invited');
    assert.equal(invited?.actor, `user:${admin.userId}`);
    assert.equal(invited?.actorLabel, admin.email);
    assert.equal(invited?.detail, 'new.person@example.com (editor)');
    assert.ok(
      entries.some((e) => e.action === 'user.password_set' && e.target === invited?.target),
    );
  });

  test('role changes: another user’s role, never one’s own', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');
    const editor = await signedIn(t, co.companyId, 'editor');

    const changed = await admin.b.post(`/dashboard/users/${editor.userId}/role`, {
      _csrf: admin.csrf,
      role: 'viewer',
    });
    assert.equal(changed.status, 303);
    assert.equal(changed.location, '/dashboard/users');
    const page = await admin.b.get('/dashboard/users');
    assert.match(page.body, new RegExp(`${editor.email} is now viewer \\(was editor\\)`));
    assert.equal((await getCompanyUser(t.ctx.db, co.companyId, editor.userId))?.role, 'viewer');
    // The person's session carries the new role from its next request.
    const tagPost = await editor.b.post('/dashboard/tags', { _csrf: editor.csrf, name: 'Nope' });
    assert.equal(tagPost.status, 403);

    const promoted = await admin.b.post(`/dashboard/users/${editor.userId}/role`, {
      _csrf: admin.csrf,
      role: 'admin',
    });
    assert.equal(promoted.status, 303);
    assert.equal((await editor.b.get('/dashboard/users')).status, 200, 'an admin now');

    const invalid = await admin.b.post(`/dashboard/users/${editor.userId}/role`, {
      _csrf: admin.csrf,
      role: 'owner',
    });
    assert.equal(invalid.status, 400);
    assert.match(invalid.body, /The role must be one of admin, editor, viewer/);

    const self = await admin.b.post(`/dashboard/users/${admin.userId}/role`, {
      _csrf: admin.csrf,
      role: 'viewer',
    });
    assert.equal(self.status, 409);
    assert.match(self.body, /You cannot change the role of yourself; ask another admin/);
    assert.equal((await getCompanyUser(t.ctx.db, co.companyId, admin.userId))?.role, 'admin');
    // The page offers no role control for oneself.
    assert.doesNotMatch(page.body, new RegExp(`/users/${admin.userId}/role`));

    const changes = (await log(t, co.companyId)).filter((e) => e.action === 'user.role_changed');
    assert.deepEqual(
      changes.map((e) => [e.target, e.detail, e.actor]),
      [
        [editor.userId, `${editor.email}: viewer → admin`, `user:${admin.userId}`],
        [editor.userId, `${editor.email}: editor → viewer`, `user:${admin.userId}`],
      ],
    );
  });

  test('disabling: after a confirmation, never oneself, never the last enabled admin', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');
    const editor = await signedIn(t, co.companyId, 'editor');

    const confirm = await admin.b.get(`/dashboard/users/${editor.userId}/disable`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, new RegExp(`Disable ${editor.email}\\?`));
    assert.match(confirm.body, /signed out everywhere/);
    // Nothing happens before the confirmation is sent.
    assert.equal((await getCompanyUser(t.ctx.db, co.companyId, editor.userId))?.disabledAt, null);

    const done = await admin.b.post(`/dashboard/users/${editor.userId}/disable`, {
      _csrf: hidden(confirm.body, '_csrf'),
    });
    assert.equal(done.status, 303);
    const page = await admin.b.get('/dashboard/users');
    assert.match(page.body, /is disabled: signed out everywhere/);
    assert.match(page.body, /Disabled since <time datetime="2026-03-02T10:00:00\.000Z">/);
    // Out at the next request, and no sign-in.
    const out = await editor.b.get('/dashboard/approvals');
    assert.equal(out.status, 303);
    assert.match(out.location ?? '', /\/dashboard\/sign-in/);
    assert.equal(
      (await signIn(browser(t, freshAddress()), editor.email, editor.password)).status,
      401,
    );
    // Disabling again changes nothing and records nothing.
    const twice = await admin.b.post(`/dashboard/users/${editor.userId}/disable`, {
      _csrf: admin.csrf,
    });
    assert.equal(twice.status, 303);
    assert.equal(
      (await log(t, co.companyId)).filter((e) => e.action === 'user.disabled').length,
      1,
    );

    // Oneself: the confirmation page says why not, and the form is refused.
    const selfPage = await admin.b.get(`/dashboard/users/${admin.userId}/disable`);
    assert.equal(selfPage.status, 200);
    assert.match(selfPage.body, /You cannot disable yourself/);
    assert.doesNotMatch(selfPage.body, /<button type="submit" class="danger-button">/);
    const self = await admin.b.post(`/dashboard/users/${admin.userId}/disable`, {
      _csrf: admin.csrf,
    });
    assert.equal(self.status, 409);
    assert.equal((await getCompanyUser(t.ctx.db, co.companyId, admin.userId))?.disabledAt, null);

    // The last enabled admin stays, whoever asks (here the service, for an editor's id).
    const viewer = await userIn(t, co.companyId, 'viewer');
    await assert.rejects(
      disableCompanyUser(
        t.ctx.db,
        t.ctx.clock,
        co.companyId,
        admin.userId,
        {
          id: 'user:x',
          label: 'x',
        },
        viewer.user.userId,
      ),
      (err) => err instanceof ActionRefused && err.reason === 'last_admin',
    );
    assert.equal((await getCompanyUser(t.ctx.db, co.companyId, admin.userId))?.disabledAt, null);

    const [entry] = (await log(t, co.companyId)).filter((e) => e.action === 'user.disabled');
    assert.equal(entry?.target, editor.userId);
    assert.equal(entry?.detail, editor.email);
    assert.equal(entry?.actor, `user:${admin.userId}`);
  });

  test('two admins disabling each other at once leave one enabled admin', async () => {
    const t = get();
    const co = await seedCompany(t);
    const a = await signedIn(t, co.companyId, 'admin');
    const b = await signedIn(t, co.companyId, 'admin');
    const answers = await Promise.all([
      a.b.post(`/dashboard/users/${b.userId}/disable`, { _csrf: a.csrf }),
      b.b.post(`/dashboard/users/${a.userId}/disable`, { _csrf: b.csrf }),
    ]);
    const users = await listCompanyUsers(t.ctx.db, t.ctx.clock, co.companyId);
    const enabledAdmins = users.filter((u) => u.role === 'admin' && u.disabledAt === null);
    assert.equal(enabledAdmins.length, 1, JSON.stringify(answers.map((r) => r.status)));
    assert.equal(
      answers.filter((r) => r.status === 303 && r.location === '/dashboard/users').length,
      1,
    );
  });

  test('a reset: password and sessions end, a new one-time link, enabled again', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');
    const editor = await signedIn(t, co.companyId, 'editor');

    const confirm = await admin.b.get(`/dashboard/users/${editor.userId}/reset`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /password stops working/);
    const first = await admin.b.post(`/dashboard/users/${editor.userId}/reset`, {
      _csrf: hidden(confirm.body, '_csrf'),
    });
    assert.equal(first.status, 200, first.body);
    assert.match(first.body, new RegExp(`New sign-in link for ${editor.email}`));
    const stale = linkOf(first.body);
    // The old password and the old session stop working.
    assert.equal((await editor.b.get('/dashboard/approvals')).status, 303);
    assert.equal(
      (await signIn(browser(t, freshAddress()), editor.email, editor.password)).status,
      401,
    );

    // Disabled, then reset: enabled again; a newer link ends the older one.
    await admin.b.post(`/dashboard/users/${editor.userId}/disable`, { _csrf: admin.csrf });
    const second = await admin.b.post(`/dashboard/users/${editor.userId}/reset`, {
      _csrf: admin.csrf,
    });
    assert.equal(second.status, 200);
    const link = linkOf(second.body);
    assert.notEqual(link.token, stale.token);
    assert.equal((await browser(t, freshAddress()).get(stale.path)).status, 404);
    assert.equal((await getCompanyUser(t.ctx.db, co.companyId, editor.userId))?.disabledAt, null);
    const person = await accept(t, link.path, link.token, 'the reset passphrase');
    assert.equal((await person.get('/dashboard/approvals')).status, 200);

    // Oneself: refused.
    assert.match(
      (await admin.b.get(`/dashboard/users/${admin.userId}/reset`)).body,
      /You cannot reset yourself/,
    );
    const self = await admin.b.post(`/dashboard/users/${admin.userId}/reset`, {
      _csrf: admin.csrf,
    });
    assert.equal(self.status, 409);
    assert.equal((await admin.b.get('/dashboard/users')).status, 200, 'still signed in');

    const resets = (await log(t, co.companyId)).filter((e) => e.action === 'user.password_reset');
    assert.deepEqual(
      resets.map((e) => [e.target, e.detail, e.actor]),
      [
        [editor.userId, `${editor.email}: new sign-in link`, `user:${admin.userId}`],
        [editor.userId, `${editor.email}: new sign-in link`, `user:${admin.userId}`],
      ],
    );
  });

  test('another company’s user answers like an unknown one, and is left alone', async () => {
    const t = get();
    const co = await seedCompany(t);
    const other = await seedCompany(t, { name: 'Other Co' });
    const admin = await signedIn(t, co.companyId, 'admin');
    const theirs = await userIn(t, other.companyId, 'admin');
    for (const id of [theirs.user.userId, 'usr_unknown']) {
      for (const action of ['disable', 'reset']) {
        const page = await admin.b.get(`/dashboard/users/${id}/${action}`);
        assert.equal(page.status, 404);
        const post = await admin.b.post(`/dashboard/users/${id}/${action}`, { _csrf: admin.csrf });
        assert.equal(post.status, 404);
      }
      const role = await admin.b.post(`/dashboard/users/${id}/role`, {
        _csrf: admin.csrf,
        role: 'viewer',
      });
      assert.equal(role.status, 404);
    }
    const after = await getCompanyUser(t.ctx.db, other.companyId, theirs.user.userId);
    assert.equal(after?.role, 'admin');
    assert.equal(after?.disabledAt, null);
    assert.equal(
      (await signIn(browser(t, freshAddress()), theirs.email, theirs.password)).status,
      303,
    );
    assert.doesNotMatch((await admin.b.get('/dashboard/users')).body, new RegExp(theirs.email));
    assert.deepEqual(await log(t, other.companyId), []);
  });

  test('every change needs the CSRF token', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');
    const editor = await signedIn(t, co.companyId, 'editor');
    const forged = [
      await admin.b.post('/dashboard/users', {
        _csrf: 'forged',
        email: 'x@example.com',
        role: 'admin',
      }),
      await admin.b.post(`/dashboard/users/${editor.userId}/role`, { role: 'admin' }),
      await admin.b.post(`/dashboard/users/${editor.userId}/disable`, { _csrf: 'forged' }),
      await admin.b.post(`/dashboard/users/${editor.userId}/reset`, {}),
    ];
    for (const res of forged) {
      assert.equal(res.status, 403);
      assert.match(res.body, /This form has expired/);
    }
    const after = await getCompanyUser(t.ctx.db, co.companyId, editor.userId);
    assert.equal(after?.role, 'editor');
    assert.equal(after?.disabledAt, null);
    assert.equal((await editor.b.get('/dashboard/approvals')).status, 200);
    assert.deepEqual(
      (await log(t, co.companyId)).map((e) => e.action),
      [],
    );
  });
});
