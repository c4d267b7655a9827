import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../../helpers/app.ts';
import { assertApiError, assertInvalidBody } from '../../helpers/api-error.ts';
import { setAccountStatus } from '../../helpers/posts.ts';
import { updateCompany } from '../../../src/modules/companies/index.ts';

const START = '2026-03-02T10:00:00.000Z';
const STANDARD = ['08:00', '11:00', '14:00', '17:00'];

async function companyWithAccount(t: TestApp) {
  const co = await seedCompany(t);
  const call = client(t, co.key);
  const account = await call('POST', '/v2/accounts', validAccount());
  assert.equal(account.status, 201);
  // Active, so its nextWindow is promised (DECISIONS 7).
  await setAccountStatus(t, [account.body.accountId]);
  return { co, call, accountId: account.body.accountId as string };
}

/** Valid windows at the edges of SPEC 4.5 rule 1. */
const VALID: string[][] = [
  ['08:00'],
  ['17:00'],
  ['08:00', '11:00'],
  ['14:00', '17:00'],
  ['08:00', '17:00'],
  ['09:30', '12:30', '15:30'],
  ['08:00', '11:00', '14:00', '17:00'],
  ['11:00', '14:00', '17:00'],
  ['08:01', '11:01', '14:01'],
  ['08:00', '11:30', '14:59'],
];

/** Invalid windows and the JSON pointer the error must name. */
const INVALID: [unknown, string][] = [
  [[], '/schedule/windows'],
  [['08:00', '11:00', '14:00', '17:00', '17:00'], '/schedule/windows'],
  [['08:00', '09:00', '10:00', '11:00', '12:00'], '/schedule/windows'],
  [['07:59'], '/schedule/windows/0'],
  [['00:00'], '/schedule/windows/0'],
  [['17:01'], '/schedule/windows/0'],
  [['23:59'], '/schedule/windows/0'],
  [['08:00', '17:01'], '/schedule/windows/1'],
  [['07:59', '11:00'], '/schedule/windows/0'],
  [['11:00', '08:00'], '/schedule/windows/1'],
  [['08:00', '14:00', '11:00'], '/schedule/windows/2'],
  [['08:00', '08:00'], '/schedule/windows/1'],
  [['08:00', '11:00', '11:00'], '/schedule/windows/2'],
  [['08:00', '10:59'], '/schedule/windows/1'],
  [['08:00', '11:00', '13:59'], '/schedule/windows/2'],
  [['08:00', '11:00', '14:00', '16:59'], '/schedule/windows/3'],
  [['8:00'], '/schedule/windows/0'],
  [['08:00', '24:00'], '/schedule/windows/1'],
  [['08:60'], '/schedule/windows/0'],
  [['0800'], '/schedule/windows/0'],
  [['08:00:00'], '/schedule/windows/0'],
  [[' 08:00'], '/schedule/windows/0'],
  [['08:00 '], '/schedule/windows/0'],
  [['08h00'], '/schedule/windows/0'],
  [['١٠:٠٠'], '/schedule/windows/0'],
  [[''], '/schedule/windows/0'],
  [['08:00', 800], '/schedule/windows/1'],
  [['08:00', null], '/schedule/windows/1'],
  ['08:00', '/schedule/windows'],
  [{ 0: '08:00' }, '/schedule/windows'],
];

describeEachDialect('schedules', (get) => {
  beforeEach(() => get().clock.set(START));

  test('GET /v2/schedule without a default: global rules', async () => {
    const t = get();
    const co = await seedCompany(t);
    const res = await client(t, co.key)('GET', '/v2/schedule');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      companyId: co.companyId,
      schedule: null,
      source: 'global',
      scheduledPostsPerDay: 4,
      maxPostsPerDay: 4,
      timezoneMode: 'worker_local',
    });
  });

  test('PATCH /v2/schedule accepts windows at the edges of rule 1', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    for (const windows of VALID) {
      const res = await call('PATCH', '/v2/schedule', { schedule: { windows } });
      const expected = {
        companyId: co.companyId,
        schedule: { windows },
        source: 'company',
        scheduledPostsPerDay: windows.length,
        maxPostsPerDay: 4,
        timezoneMode: 'worker_local',
      };
      assert.equal(res.status, 200, `${windows}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body, expected);
      assert.deepEqual((await call('GET', '/v2/schedule')).body, expected);
    }
  });

  test('every rule-1 violation is invalid_request naming the entry, on both endpoints', async () => {
    const t = get();
    const { call, accountId } = await companyWithAccount(t);
    await call('PATCH', '/v2/schedule', { schedule: { windows: ['09:00'] } });
    await call('PATCH', `/v2/accounts/${accountId}/schedule`, {
      schedule: { windows: ['10:00'] },
    });
    for (const url of ['/v2/schedule', `/v2/accounts/${accountId}/schedule`]) {
      for (const [windows, pointer] of INVALID) {
        assertInvalidBody(await call('PATCH', url, { schedule: { windows } }), pointer);
      }
    }
    // Nothing was changed by the rejected calls.
    assert.deepEqual((await call('GET', '/v2/schedule')).body.schedule, { windows: ['09:00'] });
    const own = await call('GET', `/v2/accounts/${accountId}/schedule`);
    assert.deepEqual(own.body.schedule, { windows: ['10:00'] });
  });

  test('the message says which rule an entry breaks', async () => {
    const t = get();
    const call = client(t, (await seedCompany(t)).key);
    const message = async (windows: string[]) =>
      (await call('PATCH', '/v2/schedule', { schedule: { windows } })).body.error.message;
    assert.match(await message(['07:59']), /08:00 and 17:00/);
    assert.match(await message(['08:00', '10:59']), /3 hours/);
    assert.match(await message(['11:00', '08:00']), /ascending/);
    assert.match(await message(['08:00', '08:00']), /ascending|repeat|duplicate/);
    assert.match(await message(['8:00']), /HH:mm/);
    assert.match(await message([]), /at least 1/);
    assert.match(await message(['08:00', '11:00', '14:00', '17:00', '17:00']), /at most 4/);
  });

  test('schedule: null clears the company default back to the global rules', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    await call('PATCH', '/v2/schedule', { schedule: { windows: ['12:00'] } });
    const cleared = await call('PATCH', '/v2/schedule', { schedule: null });
    const expected = {
      companyId: co.companyId,
      schedule: null,
      source: 'global',
      scheduledPostsPerDay: 4,
      maxPostsPerDay: 4,
      timezoneMode: 'worker_local',
    };
    assert.equal(cleared.status, 200);
    assert.deepEqual(cleared.body, expected);
    assert.deepEqual((await call('GET', '/v2/schedule')).body, expected);
    // Clearing twice is fine.
    assert.deepEqual((await call('PATCH', '/v2/schedule', { schedule: null })).body, expected);
  });

  test('a missing schedule key, extra keys and wrong shapes are rejected', async () => {
    const t = get();
    const { call, accountId } = await companyWithAccount(t);
    for (const url of ['/v2/schedule', `/v2/accounts/${accountId}/schedule`]) {
      const missing = await call('PATCH', url, {});
      assertInvalidBody(missing, '/schedule');
      assert.match(missing.body.error.message, /is required/);
      assertInvalidBody(
        await call('PATCH', url, { schedule: { windows: ['08:00'] }, windows: ['08:00'] }),
        '/windows',
      );
      assertInvalidBody(await call('PATCH', url, { schedule: null, paused: true }), '/paused');
      assertInvalidBody(
        await call('PATCH', url, { schedule: { windows: ['08:00'], timezone: 'UTC' } }),
        '/schedule/timezone',
      );
      assertInvalidBody(await call('PATCH', url, { schedule: {} }), '/schedule/windows');
      assertInvalidBody(await call('PATCH', url, { schedule: ['08:00'] }), '/schedule');
      assertInvalidBody(await call('PATCH', url, { schedule: '08:00' }), '/schedule');
      assertApiError(await call('PATCH', url, 'not json'), 400, 'invalid_request');
    }
  });

  test('the account schedule response has every field of SPEC 2.9', async () => {
    const t = get();
    const { call, accountId } = await companyWithAccount(t);
    const res = await call('GET', `/v2/accounts/${accountId}/schedule`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      accountId,
      schedule: null,
      companySchedule: null,
      effectiveSchedule: { windows: STANDARD },
      source: 'global',
      scheduledPostsPerDay: 4,
      maxPostsPerDay: 4,
      timezoneMode: 'worker_local',
      timezone: 'UTC',
    });
    const set = await call('PATCH', `/v2/accounts/${accountId}/schedule`, {
      schedule: { windows: ['09:00', '15:00'] },
    });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body, {
      accountId,
      schedule: { windows: ['09:00', '15:00'] },
      companySchedule: null,
      effectiveSchedule: { windows: ['09:00', '15:00'] },
      source: 'account',
      scheduledPostsPerDay: 2,
      maxPostsPerDay: 4,
      timezoneMode: 'worker_local',
      timezone: 'UTC',
    });
    assert.deepEqual((await call('GET', `/v2/accounts/${accountId}/schedule`)).body, set.body);
  });

  test('an account override wins over the company default, even when the default changes later', async () => {
    const t = get();
    const { co, call, accountId } = await companyWithAccount(t);
    const second = (await call('POST', '/v2/accounts', validAccount())).body.accountId;
    await call('PATCH', `/v2/accounts/${accountId}/schedule`, {
      schedule: { windows: ['09:00', '12:00'] },
    });
    for (const windows of [['08:00', '11:00', '14:00'], ['10:00'], STANDARD]) {
      const company = await call('PATCH', '/v2/schedule', { schedule: { windows } });
      assert.equal(company.body.source, 'company');
      const own = await call('GET', `/v2/accounts/${accountId}/schedule`);
      assert.deepEqual(own.body.schedule, { windows: ['09:00', '12:00'] });
      assert.deepEqual(own.body.companySchedule, { windows });
      assert.deepEqual(own.body.effectiveSchedule, { windows: ['09:00', '12:00'] });
      assert.equal(own.body.source, 'account');
      assert.equal(own.body.scheduledPostsPerDay, 2);
      // The account without an override follows the default.
      const inherited = await call('GET', `/v2/accounts/${second}/schedule`);
      assert.deepEqual(inherited.body.schedule, null);
      assert.deepEqual(inherited.body.effectiveSchedule, { windows });
      assert.equal(inherited.body.source, 'company');
      assert.equal(inherited.body.scheduledPostsPerDay, windows.length);
    }
    // Clearing the company default keeps the override too.
    await call('PATCH', '/v2/schedule', { schedule: null });
    const own = await call('GET', `/v2/accounts/${accountId}/schedule`);
    assert.equal(own.body.source, 'account');
    assert.equal(own.body.companySchedule, null);
    assert.deepEqual((await call('GET', '/v2/schedule')).body.companyId, co.companyId);
  });

  test('clearing the override falls back to the company default, then the global rules', async () => {
    const t = get();
    const { call, accountId } = await companyWithAccount(t);
    await call('PATCH', '/v2/schedule', { schedule: { windows: ['10:00', '16:00'] } });
    await call('PATCH', `/v2/accounts/${accountId}/schedule`, {
      schedule: { windows: ['08:00'] },
    });
    const cleared = await call('PATCH', `/v2/accounts/${accountId}/schedule`, {
      schedule: null,
    });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.schedule, null);
    assert.deepEqual(cleared.body.companySchedule, { windows: ['10:00', '16:00'] });
    assert.deepEqual(cleared.body.effectiveSchedule, { windows: ['10:00', '16:00'] });
    assert.equal(cleared.body.source, 'company');
    assert.equal(cleared.body.scheduledPostsPerDay, 2);
    await call('PATCH', '/v2/schedule', { schedule: null });
    const global = await call('GET', `/v2/accounts/${accountId}/schedule`);
    assert.equal(global.body.schedule, null);
    assert.equal(global.body.companySchedule, null);
    assert.deepEqual(global.body.effectiveSchedule, { windows: STANDARD });
    assert.equal(global.body.source, 'global');
    assert.equal(global.body.scheduledPostsPerDay, 4);
  });

  test("another company's account is account_not_found, and is left unchanged", async () => {
    const t = get();
    const mine = await companyWithAccount(t);
    const theirs = await companyWithAccount(t);
    await theirs.call('PATCH', `/v2/accounts/${theirs.accountId}/schedule`, {
      schedule: { windows: ['12:00'] },
    });
    for (const id of [theirs.accountId, 'acc_doesnotexist']) {
      const url = `/v2/accounts/${id}/schedule`;
      assertApiError(await mine.call('GET', url), 404, 'account_not_found', { includes: id });
      assertApiError(
        await mine.call('PATCH', url, { schedule: { windows: ['08:00'] } }),
        404,
        'account_not_found',
        { includes: id },
      );
      assertApiError(await mine.call('PATCH', url, { schedule: null }), 404, 'account_not_found');
    }
    const still = await theirs.call('GET', `/v2/accounts/${theirs.accountId}/schedule`);
    assert.deepEqual(still.body.schedule, { windows: ['12:00'] });
    // Our company default does not reach their accounts either.
    await mine.call('PATCH', '/v2/schedule', { schedule: { windows: ['08:00'] } });
    assert.equal((await theirs.call('GET', '/v2/schedule')).body.schedule, null);
  });

  test('nextWindow on the account follows its effective schedule', async () => {
    const t = get();
    const { co, call, accountId } = await companyWithAccount(t);
    const next = async (id = accountId) => {
      const res = await call('GET', `/v2/accounts/${id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.nextWindow as string;
    };
    // Global rules at 10:00 UTC.
    assert.equal(await next(), '2026-03-02T11:00:00.000Z');
    await call('PATCH', '/v2/schedule', { schedule: { windows: ['08:00', '16:00'] } });
    assert.equal(await next(), '2026-03-02T16:00:00.000Z');
    await call('PATCH', '/v2/schedule', { schedule: { windows: ['08:00'] } });
    assert.equal(await next(), '2026-03-03T08:00:00.000Z');
    await call('PATCH', `/v2/accounts/${accountId}/schedule`, {
      schedule: { windows: ['12:30'] },
    });
    assert.equal(await next(), '2026-03-02T12:30:00.000Z');
    const list = await call('GET', '/v2/accounts');
    assert.equal(list.body.data[0].nextWindow, '2026-03-02T12:30:00.000Z');
    // A window that starts right now is the next window.
    t.clock.set('2026-03-02T12:30:00.000Z');
    assert.equal(await next(), '2026-03-02T12:30:00.000Z');
    t.clock.set('2026-03-02T12:30:00.001Z');
    assert.equal(await next(), '2026-03-03T12:30:00.000Z');
    await call('PATCH', `/v2/accounts/${accountId}/schedule`, { schedule: null });
    assert.equal(await next(), '2026-03-03T08:00:00.000Z');
    // Windows are read in the account's timezone (EST, UTC-5, on this date).
    t.clock.set(START);
    await updateCompany(t.ctx.db, t.ctx.clock, t.config.plans, co.companyId, {
      defaultTimezone: 'America/New_York',
    });
    const ny = (await call('POST', '/v2/accounts', validAccount())).body.accountId;
    await setAccountStatus(t, [ny]);
    assert.equal(await next(ny), '2026-03-02T13:00:00.000Z');
    const own = await call('PATCH', `/v2/accounts/${ny}/schedule`, {
      schedule: { windows: ['09:00'] },
    });
    assert.equal(own.body.timezone, 'America/New_York');
    assert.equal(await next(ny), '2026-03-02T14:00:00.000Z');
  });

  test('scopes: accounts:read reads schedules, accounts:write changes them', async () => {
    const t = get();
    const { co, accountId } = await companyWithAccount(t);
    const reader = client(t, await co.keyWith(['accounts:read']));
    const writer = client(t, await co.keyWith(['accounts:write']));
    const body = { schedule: { windows: ['08:00'] } };
    for (const url of ['/v2/schedule', `/v2/accounts/${accountId}/schedule`]) {
      assert.equal((await reader('GET', url)).status, 200);
      assertApiError(await reader('PATCH', url, body), 403, 'insufficient_scope', {
        includes: 'accounts:write',
      });
      assert.equal((await writer('PATCH', url, body)).status, 200);
      assertApiError(await writer('GET', url), 403, 'insufficient_scope', {
        includes: 'accounts:read',
      });
    }
  });
});
