// Pure rules: schedule windows, plan tables, configuration, ids, cursors, signed URLs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkWindows,
  effectiveSchedule,
  STANDARD_SLOTS,
} from '../../src/schedule/schedule-rules.ts';
import { DEFAULT_PLANS, parsePlanTable } from '../../src/plans.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { newId } from '../../src/lib/ids.ts';
import { CursorCodec, cursorScope } from '../../src/lib/cursor.ts';
import { UrlSigner } from '../../src/lib/signing.ts';
import { secondsToUtcMidnight } from '../../src/lib/clock.ts';
import { ApiError } from '../../src/errors.ts';

test('checkWindows: SPEC 4.5 rule 1 with its boundaries', () => {
  assert.equal(checkWindows(STANDARD_SLOTS), null);
  assert.equal(checkWindows(['08:00']), null);
  assert.equal(checkWindows(['17:00']), null);
  assert.equal(checkWindows(['08:00', '11:00']), null);
  assert.equal(checkWindows(['08:30', '11:30', '14:30']), null);
  assert.equal(checkWindows([])?.pointer, '/windows');
  assert.equal(checkWindows(['08:00', '11:00', '14:00', '17:00', '17:00'])?.pointer, '/windows');
  assert.equal(checkWindows(['07:59'])?.pointer, '/windows/0');
  assert.equal(checkWindows(['17:01'])?.pointer, '/windows/0');
  assert.equal(checkWindows(['08:00', '10:59'])?.pointer, '/windows/1');
  assert.equal(checkWindows(['11:00', '08:00'])?.pointer, '/windows/1');
  assert.equal(checkWindows(['08:00', '08:00'])?.pointer, '/windows/1');
  for (const bad of ['8:00', '24:00', '08:60', '0800', '08:00 ', '']) {
    assert.equal(checkWindows([bad])?.pointer, '/windows/0', bad);
  }
});

test('effectiveSchedule: account over company over global', () => {
  assert.deepEqual(effectiveSchedule(null, null), {
    windows: [...STANDARD_SLOTS],
    source: 'global',
  });
  assert.deepEqual(effectiveSchedule(null, ['09:00']), { windows: ['09:00'], source: 'company' });
  assert.deepEqual(effectiveSchedule(['10:00'], ['09:00']), {
    windows: ['10:00'],
    source: 'account',
  });
});

test('the default plan does not get in the way (DECISIONS 7 minimums)', () => {
  const p = DEFAULT_PLANS.starter!;
  assert.ok(p.accountLimit >= 100);
  assert.ok(p.postsPerDay >= 1000);
  assert.ok(p.uploadsPerDay >= 2000);
  assert.ok(p.accountCreationsPerDay >= 50);
  assert.ok(p.apiRequestsPerDay >= 100_000);
});

test('parsePlanTable names the bad field', () => {
  assert.throws(() => parsePlanTable('{'), /not valid JSON/);
  assert.throws(() => parsePlanTable('[]'), /must be an object/);
  assert.throws(() => parsePlanTable('{"x":{"accountLimit":-1}}'), /accountLimit/);
  const ok = parsePlanTable(
    JSON.stringify({ tiny: { ...DEFAULT_PLANS.starter, accountLimit: 1 } }),
  );
  assert.equal(ok.tiny?.accountLimit, 1);
});

test('loadConfig: defaults and refusals', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.databaseUrl, null);
  assert.equal(c.defaultPlan, 'starter');
  assert.equal(c.pgPoolMax, 20);
  assert.equal(loadConfig({ PG_POOL_MAX: '64' }).pgPoolMax, 64);
  assert.throws(() => loadConfig({ PG_POOL_MAX: '0' }), ConfigError);
  assert.ok(Object.isFrozen(c));
  assert.throws(() => loadConfig({ PORT: '70000' }), ConfigError);
  assert.throws(() => loadConfig({ DEFAULT_TIMEZONE: 'Mars/Olympus' }), ConfigError);
  assert.throws(() => loadConfig({ DEFAULT_PLAN: 'gold' }), ConfigError);
  assert.throws(() => loadConfig({ SLOTLINE_SECRET: 'short' }), ConfigError);
  assert.throws(() => loadConfig({ PUBLIC_URL: 'ftp://x' }), ConfigError);
});

test('ids are prefixed, URL-safe and sort by creation time', () => {
  const a = newId('acc', 1_000);
  const b = newId('acc', 2_000);
  assert.match(a, /^acc_[0-9a-z]{26}$/);
  assert.ok(a.slice(4, 14) < b.slice(4, 14));
});

test('cursors: round trip, bound to scope, tamper-evident, expiring', () => {
  const codec = new CursorCodec('s'.repeat(32));
  const now = new Date('2026-03-02T10:00:00Z');
  const scope = cursorScope('cmp_1', 'accounts', { platform: 'platformA', none: undefined });
  const c = codec.encode(scope, ['2026-03-02T09:00:00.000Z', 'acc_1'], now);
  assert.deepEqual(codec.decode(scope, c, now, 2), ['2026-03-02T09:00:00.000Z', 'acc_1']);
  const bad = (fn: () => unknown) =>
    assert.throws(fn, (e: unknown) => e instanceof ApiError && e.code === 'invalid_cursor');
  bad(() => codec.decode(cursorScope('cmp_2', 'accounts', { platform: 'platformA' }), c, now, 2));
  bad(() => codec.decode(cursorScope('cmp_1', 'accounts', {}), c, now, 2));
  bad(() => codec.decode(scope, c, now, 3));
  bad(() => codec.decode(scope, `${c}x`, now, 2));
  bad(() => codec.decode(scope, c.slice(0, -1), now, 2));
  bad(() => codec.decode(scope, 'garbage', now, 2));
  bad(() => codec.decode(scope, c, new Date(now.getTime() + 25 * 3600_000), 2));
});

test('cursor scopes: two different filter sets never share a scope', () => {
  // Values are drawn mostly from separator characters of every plausible encoding.
  const piece = fc.string({
    unit: fc.constantFrom('\n', '=', '&', '"', '\\', ',', '[', ']', ':', '\u0000', 'a', 'b'),
    maxLength: 6,
  });
  const filters = fc.dictionary(fc.constantFrom('a', 'b', 'status', 'a\nb', 'x=y'), piece, {
    maxKeys: 4,
  });
  const normal = (f: Record<string, string>) =>
    Object.keys(f)
      .sort()
      .map((k) => [k, f[k]]);
  fc.assert(
    fc.property(piece, piece, filters, piece, piece, filters, (c1, l1, f1, c2, l2, f2) => {
      const same =
        c1 === c2 && l1 === l2 && JSON.stringify(normal(f1)) === JSON.stringify(normal(f2));
      assert.equal(cursorScope(c1, l1, f1) === cursorScope(c2, l2, f2), same);
    }),
    { numRuns: 5000 },
  );
  // The collision that joining pairs with a newline allowed.
  assert.notEqual(
    cursorScope('cmp_1', 'posts', { contentGroupId: 'tag:T\nstatus=queued' }),
    cursorScope('cmp_1', 'posts', { contentGroupId: 'tag:T', status: 'queued' }),
  );
});

test('signed URLs: valid until expiry, bound to path and expiry', () => {
  const signer = new UrlSigner('k'.repeat(32), 'http://h');
  const now = new Date('2026-03-02T10:00:00Z');
  const url = new URL(signer.sign('/v2/media/images/img_1', new Date(now.getTime() + 60_000)));
  const exp = Number(url.searchParams.get('expires'));
  const sig = url.searchParams.get('signature') as string;
  assert.equal(signer.check('/v2/media/images/img_1', exp, sig, now), 'ok');
  assert.equal(signer.check('/v2/media/images/img_2', exp, sig, now), 'invalid');
  assert.equal(signer.check('/v2/media/images/img_1', exp + 1, sig, now), 'invalid');
  assert.equal(
    signer.check('/v2/media/images/img_1', exp, sig, new Date(now.getTime() + 61_000)),
    'expired',
  );
});

test('secondsToUtcMidnight', () => {
  assert.equal(secondsToUtcMidnight(new Date('2026-03-02T23:59:59.000Z')), 1);
  assert.equal(secondsToUtcMidnight(new Date('2026-03-02T00:00:00.000Z')), 86400);
  assert.equal(secondsToUtcMidnight(new Date('2026-03-02T12:00:00.500Z')), 43200);
});
