// The daily API request cap holds exactly with several processes on one
// database: two meters share a counter, and never let more than the cap through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { seedCompany } from '../../helpers/app.ts';
import { RequestMeter } from '../../../src/modules/usage/request-meter.jobs.ts';
import { readCounters } from '../../../src/modules/usage/usage.repository.ts';
import { ApiError } from '../../../src/errors.ts';

describeEachDialect('request meter', (get) => {
  test('two meters on one database let exactly the cap through, concurrently', async () => {
    const t = get();
    const { companyId } = await seedCompany(t);
    const cap = 137;
    const meters = [new RequestMeter(t.ctx.db, 20, 0), new RequestMeter(t.ctx.db, 7, 0)];
    const now = t.clock.now();
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        Promise.resolve((meters[i % 2] as RequestMeter).take(companyId, cap, now)).then(
          () => 'ok',
          (err: unknown) => {
            assert.ok(err instanceof ApiError);
            assert.equal(err.code, 'rate_limited');
            return 'limited';
          },
        ),
      ),
    );
    assert.equal(outcomes.filter((o) => o === 'ok').length, cap);
    for (const m of meters) await m.flush();
    const day = now.toISOString().slice(0, 10);
    const counters = await readCounters(t.ctx.db, companyId, [
      { metric: 'api_requests', period: day },
    ]);
    assert.equal(counters.get(`api_requests@${day}`), cap);
  });

  test('unused leased requests go back, so the counter matches requests made', async () => {
    const t = get();
    const { companyId } = await seedCompany(t);
    const meter = new RequestMeter(t.ctx.db, 50, 0);
    const now = t.clock.now();
    for (let i = 0; i < 3; i++) await meter.take(companyId, 1000, now);
    await meter.settle(companyId);
    const day = now.toISOString().slice(0, 10);
    const counters = await readCounters(t.ctx.db, companyId, [
      { metric: 'api_requests', period: day },
    ]);
    assert.equal(counters.get(`api_requests@${day}`), 3);
  });
});
