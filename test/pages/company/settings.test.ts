// Your settings (/dashboard/settings) through HTTP, on both databases: each user's display
// timezone, chosen from the IANA list or left to the browser's (its cookie, else UTC); the
// times pages show move with it; an unknown zone is refused in plain words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { seedCompany, type TestApp } from '../../helpers/app.ts';
import { browser, hidden, signIn, userIn } from '../../helpers/dashboard.ts';
import type { UserRole } from '../../../src/db/types.ts';

let ips = 0;

async function signedIn(t: TestApp, companyId: string, role: UserRole = 'viewer') {
  const u = await userIn(t, companyId, role);
  const b = browser(t, `192.0.2.${(++ips % 250) + 1}`);
  assert.equal((await signIn(b, u.email, u.password)).status, 303);
  const csrf = hidden((await b.get('/dashboard/settings')).body, '_csrf');
  return { b, csrf, ...u };
}

/** What the settings page says is in force, and the time it shows for the clock's now. */
function inForce(body: string): { zone: string; now: string } {
  const zone = /Times on every page are shown in <strong>([^<]+)<\/strong>/.exec(body);
  const now = /It is now <time datetime="[^"]+">([^<]+)<\/time>/.exec(body);
  assert.ok(zone && now, 'the page says which timezone is in force');
  return { zone: zone[1] as string, now: now[1] as string };
}

async function storedZone(t: TestApp, userId: string) {
  const row = await t.ctx.db
    .selectFrom('users')
    .select('timezone')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.timezone;
}

describeEachDialect('dashboard settings: display timezone', (get) => {
  test('UTC, then the browser’s, then a chosen zone: the shown times move', async () => {
    const t = get();
    const co = await seedCompany(t);
    const me = await signedIn(t, co.companyId);

    // The clock stands at 2026-03-02T10:00:00Z.
    const first = await me.b.get('/dashboard/settings');
    assert.equal(first.status, 200);
    assert.match(first.body, /<h1>Your settings<\/h1>/);
    assert.deepEqual(inForce(first.body), { zone: 'UTC', now: '2 Mar 2026, 10:00' });
    assert.match(first.body, /your browser has not told its own yet/);
    assert.match(first.body, /<label for="settings-timezone">Display timezone<\/label>/);
    assert.match(first.body, /<option value="" selected>Use my browser’s timezone<\/option>/);
    assert.match(first.body, /<optgroup label="Europe">/);
    assert.match(first.body, /<option value="Asia\/Tokyo">Asia\/Tokyo<\/option>/);

    // The browser's zone, as dashboard.js reports it in its cookie.
    me.b.cookies.set('slotline_tz', encodeURIComponent('America/New_York'));
    const browsers = await me.b.get('/dashboard/settings');
    assert.deepEqual(inForce(browsers.body), {
      zone: 'America/New_York',
      now: '2 Mar 2026, 05:00',
    });
    assert.match(browsers.body, /your browser’s timezone\./);
    assert.match(browsers.body, /Use my browser’s timezone \(now America\/New_York\)/);

    // A chosen zone wins over the browser's, on every page.
    const saved = await me.b.post('/dashboard/settings', {
      _csrf: me.csrf,
      timezone: 'Asia/Tokyo',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, '/dashboard/settings');
    assert.equal(await storedZone(t, me.user.userId), 'Asia/Tokyo');
    const chosen = await me.b.get('/dashboard/settings');
    assert.match(chosen.body, /Times are now shown in Asia\/Tokyo\./);
    assert.deepEqual(inForce(chosen.body), { zone: 'Asia/Tokyo', now: '2 Mar 2026, 19:00' });
    assert.match(chosen.body, /the timezone you chose\./);
    assert.match(chosen.body, /<option value="Asia\/Tokyo" selected>/);

    // A new session carries the zone too.
    const again = browser(t, '192.0.2.250');
    assert.equal((await signIn(again, me.email, me.password)).status, 303);
    assert.equal(inForce((await again.get('/dashboard/settings')).body).zone, 'Asia/Tokyo');

    // Back to the browser's.
    const cleared = await me.b.post('/dashboard/settings', { _csrf: me.csrf, timezone: '' });
    assert.equal(cleared.status, 303);
    assert.equal(await storedZone(t, me.user.userId), null);
    const back = await me.b.get('/dashboard/settings');
    assert.match(back.body, /Times now follow your browser’s timezone\./);
    assert.equal(inForce(back.body).zone, 'America/New_York');
  });

  test('another page’s times follow the reader’s zone; each user has their own', async () => {
    const t = get();
    const co = await seedCompany(t);
    const admin = await signedIn(t, co.companyId, 'admin');
    const other = await signedIn(t, co.companyId, 'editor');
    const row = (body: string, email: string) => {
      const m = new RegExp(`<th scope="row">${email.replace(/\./g, '\\.')}[\\s\\S]*?</tr>`).exec(
        body,
      );
      assert.ok(m, `a row of ${email}`);
      return m[0];
    };
    // The users page shows the editor's last sign-in, 10:00 UTC.
    const utc = await admin.b.get('/dashboard/users');
    assert.match(
      row(utc.body, other.email),
      /<time datetime="2026-03-02T10:00:00\.000Z">2 Mar 2026, 10:00<\/time>/,
    );
    assert.equal(
      (
        await admin.b.post('/dashboard/settings', {
          _csrf: admin.csrf,
          timezone: 'America/Los_Angeles',
        })
      ).status,
      303,
    );
    const moved = await admin.b.get('/dashboard/users');
    assert.match(
      row(moved.body, other.email),
      /<time datetime="2026-03-02T10:00:00\.000Z">2 Mar 2026, 02:00<\/time>/,
    );
    assert.match(moved.body, /Times are in America\/Los_Angeles/);
    // The editor's own pages are untouched by the admin's choice.
    assert.equal(inForce((await other.b.get('/dashboard/settings')).body).zone, 'UTC');
    assert.equal(await storedZone(t, other.user.userId), null);
  });

  test('an unknown zone is refused in plain words; a change needs the CSRF token', async () => {
    const t = get();
    const co = await seedCompany(t);
    const me = await signedIn(t, co.companyId);
    await me.b.post('/dashboard/settings', { _csrf: me.csrf, timezone: 'Europe/Berlin' });

    const bad = await me.b.post('/dashboard/settings', {
      _csrf: me.csrf,
      timezone: 'Mars/Olympus',
    });
    assert.equal(bad.status, 400);
    assert.match(
      bad.body,
      /<a href="#settings-timezone">Display timezone: “Mars\/Olympus” is not a timezone this service knows; choose one from the list\.<\/a>/,
    );
    assert.match(bad.body, /id="settings-timezone"[^>]*aria-invalid="true"/);
    assert.match(bad.body, /id="settings-timezone-error"/);
    const long = await me.b.post('/dashboard/settings', {
      _csrf: me.csrf,
      timezone: 'x'.repeat(500),
    });
    assert.equal(long.status, 400);
    assert.equal(await storedZone(t, me.user.userId), 'Europe/Berlin');

    const forged = await me.b.post('/dashboard/settings', { _csrf: 'forged', timezone: 'UTC' });
    assert.equal(forged.status, 403);
    assert.equal(await storedZone(t, me.user.userId), 'Europe/Berlin');

    // Signed out: to the sign-in page.
    const anon = await browser(t, '192.0.2.251').get('/dashboard/settings');
    assert.equal(anon.status, 303);
    assert.match(anon.location ?? '', /\/dashboard\/sign-in/);
  });
});
