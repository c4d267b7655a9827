import { after, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../../helpers/app.ts';
import {
  assertApiError,
  assertInvalidBody,
  planWith,
  secondsToMidnight,
  writePlansFile,
} from '../../helpers/api-error.ts';
import { updateCompany } from '../../../src/modules/companies/index.ts';
import { setAccountStatus } from '../../helpers/posts.ts';

const START = '2026-03-02T10:00:00.000Z';

type Body = Record<string, unknown>;

async function companyCall(t: TestApp, plan?: string) {
  const co = await seedCompany(t, plan ? { plan } : {});
  return { co, call: client(t, co.key) };
}

/** An http URL of exactly `length` characters. */
function urlOfLength(length: number): string {
  const base = 'https://example.com/';
  return base + 'a'.repeat(length - base.length);
}

describeEachDialect('accounts', (get) => {
  beforeEach(() => get().clock.set(START));

  test('create, get and list an account', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const created = await call('POST', '/v2/accounts', validAccount({ username: 'Chef.Anna' }));
    assert.equal(created.status, 201);
    assert.equal(created.body.username, 'Chef.Anna');
    assert.equal(created.body.status, 'pending_setup');
    assert.equal(created.body.dailyCap, 4);
    assert.equal(created.body.timezone, 'UTC');
    assert.equal(created.body.statusSince, START);
    // Nothing is released to an account being set up, so no window is promised yet.
    assert.equal(created.body.nextWindow, null);
    const got = await call('GET', `/v2/accounts/${created.body.accountId}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, created.body);
    await setAccountStatus(t, [created.body.accountId]);
    const active = await call('GET', `/v2/accounts/${created.body.accountId}`);
    assert.equal(active.body.status, 'active');
    // Global rules: the next standard slot after 10:00 UTC is 11:00 UTC.
    assert.equal(active.body.nextWindow, '2026-03-02T11:00:00.000Z');
    const list = await call('GET', '/v2/accounts');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((a: { accountId: string }) => a.accountId),
      [created.body.accountId],
    );
    assert.equal(list.body.nextCursor, null);
  });

  test('duplicate username on the same platform is account_exists, case-insensitively', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    assert.equal(
      (await call('POST', '/v2/accounts', validAccount({ username: 'dup' }))).status,
      201,
    );
    const again = await call('POST', '/v2/accounts', validAccount({ username: 'DUP' }));
    assertApiError(again, 409, 'account_exists', { includes: 'DUP' });
    const other = await call(
      'POST',
      '/v2/accounts',
      validAccount({ username: 'dup', platform: 'platformB' }),
    );
    assert.equal(other.status, 201);
  });

  test('the created account echoes every input field', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const input = validAccount({
      platform: 'platformB',
      username: 'a.b_C9',
      displayName: 'Ánna 🍜',
      bio: 'Bio',
      profilePictureUrl: 'http://cdn.example.com/a.jpg',
      bioUrl: 'https://example.com/links',
      warmup: { searchTerms: ['ramen', 'noodles'] },
    });
    const res = await call('POST', '/v2/accounts', input);
    assert.equal(res.status, 201);
    assert.equal(res.body.platform, 'platformB');
    assert.equal(res.body.username, 'a.b_C9');
    assert.equal(res.body.displayName, 'Ánna 🍜');
    assert.equal(res.body.bio, 'Bio');
    assert.equal(res.body.profilePictureUrl, 'http://cdn.example.com/a.jpg');
    assert.equal(res.body.bioUrl, 'https://example.com/links');
    assert.deepEqual(res.body.warmup, { searchTerms: ['ramen', 'noodles'] });
    assert.equal(res.body.followers, 0);
    assert.equal(res.body.postsToday, 0);
    assert.equal(res.body.queueDepth, 0);
    assert.equal(res.body.lastPostAt, null);
    assert.equal(res.body.createdAt, START);
    assert.match(res.body.accountId, /^acc_/);
    const noBioUrl = await call('POST', '/v2/accounts', validAccount());
    assert.equal(noBioUrl.body.bioUrl, null);
  });

  test('displayName: 1 and 80 characters are accepted, 0 and 81 rejected', async () => {
    const t = get();
    const { call } = await companyCall(t);
    for (const displayName of ['x', 'd'.repeat(80), '🍜'.repeat(80)]) {
      const res = await call('POST', '/v2/accounts', validAccount({ displayName }));
      assert.equal(res.status, 201, `${displayName.length}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.displayName, displayName);
    }
    for (const displayName of ['', 'd'.repeat(81), '🍜'.repeat(81)]) {
      assertInvalidBody(
        await call('POST', '/v2/accounts', validAccount({ displayName })),
        '/displayName',
      );
    }
  });

  test('bio: 1 and 220 characters are accepted, 0 and 221 rejected', async () => {
    const t = get();
    const { call } = await companyCall(t);
    for (const bio of ['b', 'b'.repeat(220)]) {
      const res = await call('POST', '/v2/accounts', validAccount({ bio }));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.bio, bio);
    }
    for (const bio of ['', 'b'.repeat(221)]) {
      assertInvalidBody(await call('POST', '/v2/accounts', validAccount({ bio })), '/bio');
    }
  });

  test('URL fields: 2048 characters are accepted, 2049 rejected', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const ok = await call(
      'POST',
      '/v2/accounts',
      validAccount({ profilePictureUrl: urlOfLength(2048), bioUrl: urlOfLength(2048) }),
    );
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.profilePictureUrl.length, 2048);
    assert.equal(ok.body.bioUrl.length, 2048);
    assertInvalidBody(
      await call('POST', '/v2/accounts', validAccount({ profilePictureUrl: urlOfLength(2049) })),
      '/profilePictureUrl',
    );
    assertInvalidBody(
      await call('POST', '/v2/accounts', validAccount({ bioUrl: urlOfLength(2049) })),
      '/bioUrl',
    );
  });

  test('URL fields must be http(s) URLs', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const bad = [
      'ftp://example.com/p.png',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:image/png;base64,AAAA',
      'example.com/p.png',
      'not a url',
      '',
      // Host-less forms RFC 3986 allows but no client can fetch.
      'https://',
      'https://?x=1',
      'https:///path',
      'https://:443/p.png',
      'http://#frag',
    ];
    for (const url of bad) {
      assertInvalidBody(
        await call('POST', '/v2/accounts', validAccount({ profilePictureUrl: url })),
        '/profilePictureUrl',
      );
      assertInvalidBody(
        await call('POST', '/v2/accounts', validAccount({ bioUrl: url })),
        '/bioUrl',
      );
    }
  });

  test('warmup.searchTerms: 1 and 5 items are accepted, 0 and 6 rejected', async () => {
    const t = get();
    const { call } = await companyCall(t);
    for (const n of [1, 5]) {
      const searchTerms = Array.from({ length: n }, (_, i) => `term${i}`);
      const res = await call('POST', '/v2/accounts', validAccount({ warmup: { searchTerms } }));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(res.body.warmup.searchTerms, searchTerms);
    }
    for (const n of [0, 6]) {
      const searchTerms = Array.from({ length: n }, (_, i) => `term${i}`);
      const res = await call('POST', '/v2/accounts', validAccount({ warmup: { searchTerms } }));
      assertInvalidBody(res, '/warmup/searchTerms');
      assert.match(res.body.error.message, n === 0 ? /at least 1 item/ : /at most 5 items/);
    }
    assertInvalidBody(
      await call('POST', '/v2/accounts', validAccount({ warmup: { searchTerms: ['ok', ''] } })),
      '/warmup/searchTerms/1',
    );
  });

  test('username: 1-30 letters, digits, "." and "_"', async () => {
    const t = get();
    const { call } = await companyCall(t);
    for (const username of ['a', 'u'.repeat(30), 'Chef.Anna_09', '_', '.x.', 'ABC']) {
      const res = await call('POST', '/v2/accounts', validAccount({ username }));
      assert.equal(res.status, 201, `${username}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.username, username);
    }
    const bad = [
      '',
      'u'.repeat(31),
      '@anna',
      'an na',
      'anna-b',
      'ánna',
      'anna!',
      'anna/..',
      ' anna',
      'anna\n',
      '名前',
    ];
    for (const username of bad) {
      assertInvalidBody(
        await call('POST', '/v2/accounts', validAccount({ username })),
        '/username',
      );
    }
  });

  test('every required field is named when missing', async () => {
    const t = get();
    const { call } = await companyCall(t);
    for (const field of [
      'platform',
      'username',
      'displayName',
      'bio',
      'profilePictureUrl',
      'warmup',
    ]) {
      const body: Body = validAccount();
      delete body[field];
      const res = await call('POST', '/v2/accounts', body);
      assertInvalidBody(res, `/${field}`);
      assert.match(res.body.error.message, /is required/);
      assert.match(res.body.error.hint, new RegExp(`/${field}`));
    }
    assertInvalidBody(
      await call('POST', '/v2/accounts', validAccount({ warmup: {} })),
      '/warmup/searchTerms',
    );
  });

  test('unknown keys are rejected, never stripped, at the top level and inside warmup', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const top = await call('POST', '/v2/accounts', validAccount({ niche: 'food' }));
    assertInvalidBody(top, '/niche');
    assert.match(top.body.error.message, /not an allowed field/);
    const nested = await call(
      'POST',
      '/v2/accounts',
      validAccount({ warmup: { searchTerms: ['x'], searchTermz: ['y'] } }),
    );
    assertInvalidBody(nested, '/warmup/searchTermz');
    // Nothing was created by the rejected calls.
    const list = await call('GET', '/v2/accounts');
    assert.deepEqual(list.body.data, []);
  });

  test('wrong types are rejected naming the field', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const cases: [Body, string][] = [
      [{ platform: 'platformC' }, '/platform'],
      [{ platform: 'PLATFORMA' }, '/platform'],
      [{ platform: 1 }, '/platform'],
      [{ username: 42 }, '/username'],
      [{ displayName: 5 }, '/displayName'],
      [{ displayName: null }, '/displayName'],
      [{ bio: ['bio'] }, '/bio'],
      [{ profilePictureUrl: { href: 'https://x.test' } }, '/profilePictureUrl'],
      [{ bioUrl: null }, '/bioUrl'],
      [{ warmup: ['cooking'] }, '/warmup'],
      [{ warmup: null }, '/warmup'],
      [{ warmup: { searchTerms: 'cooking' } }, '/warmup/searchTerms'],
      [{ warmup: { searchTerms: [1] } }, '/warmup/searchTerms/0'],
    ];
    for (const [overrides, pointer] of cases) {
      assertInvalidBody(await call('POST', '/v2/accounts', validAccount(overrides)), pointer);
    }
    assertInvalidBody(await call('POST', '/v2/accounts', [validAccount()]), '/');
    assertApiError(await call('POST', '/v2/accounts', '{"platform":'), 400, 'invalid_request');
  });

  test('list filters by platform', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const ids: Record<string, string[]> = { platformA: [], platformB: [] };
    for (const platform of ['platformA', 'platformB', 'platformB', 'platformA', 'platformB']) {
      t.clock.advance(1000);
      const res = await call('POST', '/v2/accounts', validAccount({ platform }));
      assert.equal(res.status, 201);
      ids[platform]?.push(res.body.accountId);
    }
    for (const platform of ['platformA', 'platformB']) {
      const res = await call('GET', `/v2/accounts?platform=${platform}`);
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.data.map((a: { accountId: string }) => a.accountId),
        ids[platform],
      );
      assert.ok(res.body.data.every((a: { platform: string }) => a.platform === platform));
    }
    const all = await call('GET', '/v2/accounts');
    assert.equal(all.body.data.length, 5);
    assertApiError(await call('GET', '/v2/accounts?platform=platformC'), 400, 'invalid_request', {
      includes: 'platform',
    });
    assertApiError(await call('GET', '/v2/accounts?colour=red'), 400, 'invalid_request', {
      includes: 'colour',
    });
  });

  test('pagination with limit walks every account exactly once, in creation order', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      t.clock.advance(10);
      const res = await call('POST', '/v2/accounts', validAccount());
      created.push(res.body.accountId);
    }
    for (const limit of [1, 2, 3, 6, 7, 8, 100]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const url: string = `/v2/accounts?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await call('GET', url);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.ok(res.body.data.length <= limit);
        seen.push(...res.body.data.map((a: { accountId: string }) => a.accountId));
        cursor = res.body.nextCursor;
        pages++;
        if (cursor !== null) assert.equal(res.body.data.length, limit);
      } while (cursor !== null);
      assert.deepEqual(seen, created, `limit ${limit}`);
      assert.equal(pages, Math.max(1, Math.ceil(created.length / limit)), `limit ${limit}`);
    }
    for (const limit of ['0', '101', '-1', '2.5', 'ten', '']) {
      assertApiError(await call('GET', `/v2/accounts?limit=${limit}`), 400, 'invalid_request', {
        includes: 'limit',
      });
    }
  });

  test('unknown and other-company accounts are account_not_found', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const other = await companyCall(t);
    const theirs = await other.call('POST', '/v2/accounts', validAccount());
    assert.equal(theirs.status, 201);
    for (const id of ['acc_doesnotexist', theirs.body.accountId]) {
      assertApiError(await call('GET', `/v2/accounts/${id}`), 404, 'account_not_found', {
        includes: id,
      });
    }
    // The other company's list does not leak into ours.
    assert.deepEqual((await call('GET', '/v2/accounts')).body.data, []);
    assertApiError(await call('GET', `/v2/accounts/${'x'.repeat(201)}`), 400, 'invalid_request', {
      includes: 'accountId',
    });
  });

  test('new accounts take the company default timezone; nextWindow is computed in it', async () => {
    const t = get();
    const { co, call } = await companyCall(t);
    const cases: [string, string][] = [
      // 10:00Z is 05:00 in New York (EST): the next window is 08:00 EST.
      ['America/New_York', '2026-03-02T13:00:00.000Z'],
      // 19:00 in Tokyo: past 17:00, so 08:00 the next local day.
      ['Asia/Tokyo', '2026-03-02T23:00:00.000Z'],
      // 15:30 in Kolkata (+05:30): the 17:00 window.
      ['Asia/Kolkata', '2026-03-02T11:30:00.000Z'],
    ];
    const ids: string[] = [];
    for (const [tz, nextWindow] of cases) {
      await updateCompany(t.ctx.db, t.ctx.clock, t.config.plans, co.companyId, {
        defaultTimezone: tz,
      });
      const res = await call('POST', '/v2/accounts', validAccount());
      assert.equal(res.status, 201);
      assert.equal(res.body.timezone, tz);
      assert.equal(res.body.nextWindow, null, 'no window while pending_setup');
      await setAccountStatus(t, [res.body.accountId]);
      const active = await call('GET', `/v2/accounts/${res.body.accountId}`);
      assert.equal(active.body.nextWindow, nextWindow, tz);
      ids.push(res.body.accountId);
    }
    // Existing accounts keep the timezone of their worker when the default changes.
    await updateCompany(t.ctx.db, t.ctx.clock, t.config.plans, co.companyId, {
      defaultTimezone: null,
    });
    const utc = await call('POST', '/v2/accounts', validAccount());
    assert.equal(utc.body.timezone, 'UTC');
    const first = await call('GET', `/v2/accounts/${ids[0]}`);
    assert.equal(first.body.timezone, 'America/New_York');
    assert.equal(first.body.nextWindow, '2026-03-02T13:00:00.000Z');
    // nextWindow moves with the clock: at 13:00:01Z (08:00:01 EST) the next is 11:00 EST.
    t.clock.set('2026-03-02T13:00:01.000Z');
    const later = await call('GET', `/v2/accounts/${ids[0]}`);
    assert.equal(later.body.nextWindow, '2026-03-02T16:00:00.000Z');
    // A window starting exactly now is the next window.
    t.clock.set('2026-03-02T16:00:00.000Z');
    assert.equal(
      (await call('GET', `/v2/accounts/${ids[0]}`)).body.nextWindow,
      '2026-03-02T16:00:00.000Z',
    );
  });

  test("another company's default timezone does not apply to our accounts", async () => {
    const t = get();
    const mine = await companyCall(t);
    const theirs = await companyCall(t);
    await updateCompany(t.ctx.db, t.ctx.clock, t.config.plans, mine.co.companyId, {
      defaultTimezone: 'Asia/Tokyo',
    });
    const res = await theirs.call('POST', '/v2/accounts', validAccount());
    assert.equal(res.body.timezone, 'UTC');
    await setAccountStatus(t, [res.body.accountId]);
    const active = await theirs.call('GET', `/v2/accounts/${res.body.accountId}`);
    assert.equal(active.body.nextWindow, '2026-03-02T11:00:00.000Z');
  });

  test('scopes: accounts:read lists, accounts:write creates', async () => {
    const t = get();
    const co = await seedCompany(t);
    const reader = client(t, await co.keyWith(['accounts:read']));
    const writer = client(t, await co.keyWith(['accounts:write']));
    assertApiError(
      await reader('POST', '/v2/accounts', validAccount()),
      403,
      'insufficient_scope',
      { includes: 'accounts:write' },
    );
    assertApiError(await writer('GET', '/v2/accounts'), 403, 'insufficient_scope', {
      includes: 'accounts:read',
    });
    assert.equal((await writer('POST', '/v2/accounts', validAccount())).status, 201);
    assert.equal((await reader('GET', '/v2/accounts')).body.data.length, 1);
  });
});

const plansFile = writePlansFile({
  two_slots: planWith({ accountLimit: 2 }),
  three_a_day: planWith({ accountCreationsPerDay: 3 }),
});
after(() => rmSync(dirname(plansFile), { recursive: true, force: true }));

describeEachDialect(
  'accounts under plan limits',
  (get) => {
    beforeEach(() => get().clock.set(START));

    test('account_limit_reached (403) once every account slot is used', async () => {
      const t = get();
      const { call } = await companyCall(t, 'two_slots');
      for (let i = 0; i < 2; i++) {
        assert.equal((await call('POST', '/v2/accounts', validAccount())).status, 201);
      }
      const third = await call('POST', '/v2/accounts', validAccount());
      assertApiError(third, 403, 'account_limit_reached', { includes: '2' });
      assert.equal(third.headers['retry-after'], undefined);
      assert.equal((await call('GET', '/v2/accounts')).body.data.length, 2);
      // A new day does not free a slot.
      t.clock.advance(24 * 3600 * 1000);
      assertApiError(
        await call('POST', '/v2/accounts', validAccount()),
        403,
        'account_limit_reached',
      );
    });

    test('the daily account-creation cap is rate_limited (429) until the next UTC midnight', async () => {
      const t = get();
      const { call } = await companyCall(t, 'three_a_day');
      const other = await companyCall(t, 'three_a_day');
      // Rejected creations do not use up the cap.
      assertInvalidBody(await call('POST', '/v2/accounts', validAccount({ bio: '' })), '/bio');
      const first = await call('POST', '/v2/accounts', validAccount({ username: 'first' }));
      assert.equal(first.status, 201);
      assertApiError(
        await call('POST', '/v2/accounts', validAccount({ username: 'FIRST' })),
        409,
        'account_exists',
      );
      for (let i = 0; i < 2; i++) {
        assert.equal((await call('POST', '/v2/accounts', validAccount())).status, 201);
      }
      const capped = await call('POST', '/v2/accounts', validAccount());
      assertApiError(capped, 429, 'rate_limited', { includes: 'account creations' });
      assert.equal(capped.headers['retry-after'], String(secondsToMidnight(START)));
      assert.equal(capped.headers['retry-after'], '50400');
      // The cap is per company.
      assert.equal((await other.call('POST', '/v2/accounts', validAccount())).status, 201);
      // Half a second before midnight, Retry-After rounds up to one second.
      t.clock.set('2026-03-02T23:59:59.500Z');
      const late = await call('POST', '/v2/accounts', validAccount());
      assertApiError(late, 429, 'rate_limited');
      assert.equal(late.headers['retry-after'], '1');
      t.clock.set('2026-03-03T00:00:00.000Z');
      assert.equal((await call('POST', '/v2/accounts', validAccount())).status, 201);
      assert.equal((await call('GET', '/v2/accounts')).body.data.length, 4);
    });
  },
  { env: { PLANS_FILE: plansFile } },
);
