import { after, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, validAccount, type TestApp } from '../../helpers/app.ts';
import {
  assertApiError,
  planWith,
  secondsToMidnight,
  writePlansFile,
} from '../../helpers/api-error.ts';
import { DEFAULT_PLANS } from '../../../src/plans.ts';
import { createKey, listKeys, revokeKey } from '../../../src/modules/keys/index.ts';
import { RequestMeter } from '../../../src/modules/usage/request-meter.jobs.ts';
import { readCounters } from '../../../src/modules/usage/usage.repository.ts';

const START = '2026-03-02T10:00:00.000Z';
const STARTER = DEFAULT_PLANS.starter!;

async function usageOf(t: TestApp, key: string) {
  const res = await client(t, key)('GET', '/v2/usage');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** Calls that fail before a key is accepted: none of them may count. */
async function rejectedCalls(t: TestApp, companyId: string) {
  const wrongScope = (await createKey(t.ctx.db, t.ctx.clock, { companyId, scopes: ['usage:read'] }))
    .secret;
  const revoked = await createKey(t.ctx.db, t.ctx.clock, { companyId, scopes: ['posts:read'] });
  await revokeKey(t.ctx.db, t.ctx.clock, revoked.keyId);
  const noKey = await client(t, null)('GET', '/v2/accounts');
  assertApiError(noKey, 401, 'unauthorized');
  assert.equal(noKey.headers['www-authenticate'], 'Bearer');
  assertApiError(await client(t, 'sl_bogus')('GET', '/v2/accounts'), 401, 'unauthorized');
  const forged = `${wrongScope.slice(0, -4)}zzzz`;
  assertApiError(await client(t, forged)('GET', '/v2/accounts'), 401, 'unauthorized');
  assertApiError(await client(t, revoked.secret)('GET', '/v2/content-tags'), 401, 'unauthorized');
  assertApiError(await client(t, wrongScope)('GET', '/v2/accounts'), 403, 'insufficient_scope', {
    includes: 'accounts:read',
  });
  assertApiError(
    await client(t, wrongScope)('POST', '/v2/content-tags', { name: 'x' }),
    403,
    'insufficient_scope',
  );
  const malformed = await client(t, null)('GET', '/v2/accounts', undefined, {
    authorization: `Basic ${wrongScope}`,
  });
  assertApiError(malformed, 401, 'unauthorized');
  return wrongScope;
}

describeEachDialect('usage', (get) => {
  beforeEach(() => get().clock.set(START));

  test('a fresh company: plan starter with its limits and nothing used', async () => {
    const t = get();
    const co = await seedCompany(t);
    const res = await client(t, co.key)('GET', '/v2/usage');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      plan: 'starter',
      billingType: STARTER.billingType,
      videoQuota: STARTER.videoQuota,
      videoCount: 0,
      postCredits: { limit: STARTER.postCredits, used: 0 },
      postsPerDay: STARTER.postsPerDay,
      apiRequestsToday: 0,
      postsCreatedToday: 0,
    });
    assert.equal(res.body.billingType, 'subscription');
    assert.equal(res.body.videoQuota, 10_000);
    // The usage read itself is not counted, so it carries no rate-limit headers.
    assert.equal(res.headers['x-ratelimit-limit'], undefined);
    assert.equal((await usageOf(t, co.key)).apiRequestsToday, 0);
  });

  test('another plan shows its own limits', async () => {
    const t = get();
    const co = await seedCompany(t, { plan: 'scale' });
    const scale = DEFAULT_PLANS.scale!;
    const body = await usageOf(t, co.key);
    assert.equal(body.plan, 'scale');
    assert.equal(body.billingType, scale.billingType);
    assert.equal(body.videoQuota, scale.videoQuota);
    assert.deepEqual(body.postCredits, { limit: scale.postCredits, used: 0 });
    assert.equal(body.postsPerDay, scale.postsPerDay);
  });

  test('apiRequestsToday counts authenticated requests, not usage reads', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const expectedReset = String(secondsToMidnight(START));
    const first = await call('GET', '/v2/accounts');
    assert.equal(first.headers['x-ratelimit-limit'], String(STARTER.apiRequestsPerDay));
    assert.equal(first.headers['x-ratelimit-remaining'], String(STARTER.apiRequestsPerDay - 1));
    assert.equal(first.headers['x-ratelimit-reset'], expectedReset);
    await call('POST', '/v2/content-tags', { name: 'one' });
    await call('GET', '/v2/usage');
    // Authenticated calls that then fail validation or find nothing still count.
    assertApiError(await call('POST', '/v2/content-tags', { name: '' }), 400, 'invalid_request');
    assertApiError(await call('GET', '/v2/accounts/acc_missing'), 404, 'account_not_found');
    const fifth = await call('GET', '/v2/schedule');
    assert.equal(fifth.headers['x-ratelimit-remaining'], String(STARTER.apiRequestsPerDay - 5));
    assert.equal((await usageOf(t, co.key)).apiRequestsToday, 5);
    // Keys of the same company share the count.
    const other = await co.keyWith(['accounts:read', 'usage:read']);
    await client(t, other)('GET', '/v2/accounts');
    assert.equal((await usageOf(t, other)).apiRequestsToday, 6);
    // Another company starts from zero.
    assert.equal((await usageOf(t, (await seedCompany(t)).key)).apiRequestsToday, 0);
    // A new UTC day starts from zero.
    t.clock.set('2026-03-03T00:00:00.000Z');
    assert.equal((await usageOf(t, co.key)).apiRequestsToday, 0);
    const next = await call('GET', '/v2/accounts');
    assert.equal(next.headers['x-ratelimit-reset'], String(24 * 3600));
    assert.equal((await usageOf(t, co.key)).apiRequestsToday, 1);
  });

  test('requests rejected for a missing, bad or revoked key or a wrong scope are not counted', async () => {
    const t = get();
    const co = await seedCompany(t);
    await rejectedCalls(t, co.companyId);
    assert.equal((await usageOf(t, co.key)).apiRequestsToday, 0);
    assert.ok((await listKeys(t.ctx.db, co.companyId)).some((k) => k.revokedAt !== null));
  });

  test('a request right after the meter gives its lease back is counted once', async () => {
    const t = get();
    // The meter's timer gives unused leased units back every second; a request
    // arriving while that refund is in flight must neither count them again nor
    // be refused under the cap. Driven directly, as HTTP timing cannot hit the gap.
    for (const cap of [1000, 3]) {
      const { companyId } = await seedCompany(t);
      const meter = new RequestMeter(t.ctx.db, 50, 0);
      const now = t.clock.now();
      for (let i = 1; i <= Math.min(cap, 6); i++) {
        const reading = await meter.take(companyId, cap, now);
        assert.equal(reading.count, i, `cap ${cap}, request ${i}`);
        void meter.flush();
      }
      if (cap === 3) {
        await assert.rejects(async () => meter.take(companyId, cap, now), {
          code: 'rate_limited',
        });
      }
      await meter.flush();
      const counters = await readCounters(t.ctx.db, companyId, [
        { metric: 'api_requests', period: now.toISOString().slice(0, 10) },
      ]);
      assert.equal([...counters.values()][0], Math.min(cap, 6));
    }
  });

  test('usage:read is required', async () => {
    const t = get();
    const co = await seedCompany(t);
    const key = await co.keyWith(['accounts:read']);
    assertApiError(await client(t, key)('GET', '/v2/usage'), 403, 'insufficient_scope', {
      includes: 'usage:read',
    });
  });
});

const plansFile = writePlansFile({ three_calls: planWith({ apiRequestsPerDay: 3 }) });
after(() => rmSync(dirname(plansFile), { recursive: true, force: true }));

describeEachDialect(
  'usage with a daily API request cap',
  (get) => {
    beforeEach(() => get().clock.set(START));

    test('the 4th counted request is rate_limited until the next UTC midnight', async () => {
      const t = get();
      const co = await seedCompany(t, { plan: 'three_calls' });
      const call = client(t, co.key);
      const reset = String(secondsToMidnight(START));
      assert.equal(reset, '50400');
      for (const remaining of [2, 1, 0]) {
        const res = await call('GET', '/v2/accounts');
        assert.equal(res.status, 200);
        assert.equal(res.headers['x-ratelimit-limit'], '3');
        assert.equal(res.headers['x-ratelimit-remaining'], String(remaining));
        assert.equal(res.headers['x-ratelimit-reset'], reset);
      }
      const capped = await call('GET', '/v2/accounts');
      assertApiError(capped, 429, 'rate_limited', { includes: 'API requests' });
      assert.equal(capped.headers['retry-after'], reset);
      assert.equal(capped.headers['x-ratelimit-limit'], '3');
      assert.equal(capped.headers['x-ratelimit-remaining'], '0');
      assert.equal(capped.headers['x-ratelimit-reset'], reset);
      // Every counted route is held back, writes included, before the body is looked at.
      assertApiError(await call('POST', '/v2/accounts', validAccount()), 429, 'rate_limited');
      assertApiError(await call('POST', '/v2/content-tags', { name: '' }), 429, 'rate_limited');
      // Usage stays readable and shows the cap reached.
      const usage = await usageOf(t, co.key);
      assert.equal(usage.plan, 'three_calls');
      assert.equal(usage.apiRequestsToday, 3);
      // Retry-After counts down with the clock.
      t.clock.set('2026-03-02T23:00:00.000Z');
      const later = await call('GET', '/v2/schedule');
      assertApiError(later, 429, 'rate_limited');
      assert.equal(later.headers['retry-after'], '3600');
      t.clock.set('2026-03-02T23:59:59.999Z');
      assert.equal((await call('GET', '/v2/schedule')).headers['retry-after'], '1');
      // Past midnight the cap is fresh.
      t.clock.set('2026-03-03T00:00:00.000Z');
      const again = await call('GET', '/v2/accounts');
      assert.equal(again.status, 200);
      assert.equal(again.headers['x-ratelimit-remaining'], '2');
      assert.equal(again.headers['x-ratelimit-reset'], String(24 * 3600));
      assert.equal((await usageOf(t, co.key)).apiRequestsToday, 1);
    });

    test('the cap is per company', async () => {
      const t = get();
      const capped = await seedCompany(t, { plan: 'three_calls' });
      const other = await seedCompany(t, { plan: 'three_calls' });
      const starter = await seedCompany(t);
      for (let i = 0; i < 3; i++) await client(t, capped.key)('GET', '/v2/accounts');
      assertApiError(await client(t, capped.key)('GET', '/v2/accounts'), 429, 'rate_limited');
      // Another key of the same company is held back too.
      const second = await capped.keyWith(['accounts:read']);
      assertApiError(await client(t, second)('GET', '/v2/accounts'), 429, 'rate_limited');
      for (const co of [other, starter]) {
        const res = await client(t, co.key)('GET', '/v2/accounts');
        assert.equal(res.status, 200);
      }
      assert.equal((await usageOf(t, other.key)).apiRequestsToday, 1);
    });

    test('rejected keys and scopes never use up the cap', async () => {
      const t = get();
      const co = await seedCompany(t, { plan: 'three_calls' });
      await rejectedCalls(t, co.companyId);
      await rejectedCalls(t, co.companyId);
      assert.equal((await usageOf(t, co.key)).apiRequestsToday, 0);
      const call = client(t, co.key);
      for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/v2/accounts')).status, 200);
      assertApiError(await call('GET', '/v2/accounts'), 429, 'rate_limited');
      // At the cap a bad key is still unauthorized, not rate_limited.
      assertApiError(await client(t, 'sl_bogus')('GET', '/v2/accounts'), 401, 'unauthorized');
      const wrongScope = await co.keyWith(['usage:read']);
      assertApiError(await client(t, wrongScope)('GET', '/v2/accounts'), 403, 'insufficient_scope');
      assert.equal((await usageOf(t, co.key)).apiRequestsToday, 3);
    });
  },
  { env: { PLANS_FILE: plansFile } },
);
