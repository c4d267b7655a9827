// Keyset pagination (SPEC 8, DECISIONS 7) as properties: any page size walks a
// list once, in order; inserts during a walk never duplicate; any value that is
// not a cursor issued for this exact query is invalid_cursor, never data or a 500.
import { before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, validAccount, type Call, type TestApp } from '../helpers/app.ts';
import { assertApiError } from '../helpers/api-error.ts';

const START = '2026-03-02T10:00:00.000Z';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

type CallFn = ReturnType<typeof client>;
interface Mutation {
  kind: 'replace' | 'delete' | 'insert' | 'truncate' | 'swap' | 'bit';
  at: number;
  char?: string;
  bit?: number;
}
interface Item {
  id: string;
  createdAt: string;
}

const byKey = (a: Item, b: Item) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1;

const tagItem = (x: { tagId: string; createdAt: string }): Item => ({
  id: x.tagId,
  createdAt: x.createdAt,
});
const accountItem = (x: { accountId: string; createdAt: string }): Item => ({
  id: x.accountId,
  createdAt: x.createdAt,
});

function pageUrl(path: string, limit: number, cursor: string | null): string {
  const sep = path.includes('?') ? '&' : '?';
  return `${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
}

/**
 * Follows nextCursor to the end. `limitOf(page)` gives each page's size; `between(page)`
 * runs after each page that has a next one.
 */
async function walk(
  call: CallFn,
  path: string,
  toItem: (x: never) => Item,
  limitOf: (page: number) => number,
  between?: (page: number) => Promise<void>,
): Promise<Item[]> {
  const seen: Item[] = [];
  let cursor: string | null = null;
  for (let page = 0; ; page++) {
    assert.ok(page <= 200, 'the walk does not end');
    const limit = limitOf(page);
    const res: Call = await call('GET', pageUrl(path, limit, cursor));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const data = res.body.data as never[];
    assert.ok(data.length <= limit, `page of ${data.length} over limit ${limit}`);
    cursor = res.body.nextCursor;
    if (cursor !== null) {
      // A next page is only announced after a full page, so no page is empty.
      assert.equal(data.length, limit);
      assert.equal(typeof cursor, 'string');
    }
    seen.push(...data.map(toItem));
    if (cursor === null) return seen;
    await between?.(page);
  }
}

function ids(items: Item[]): string[] {
  return items.map((i) => i.id);
}

async function createTags(t: TestApp, call: CallFn, n: number, tieEvery = 7): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = 0; i < n; i++) {
    // Runs of tags share a millisecond so the id breaks the tie.
    if (i % tieEvery === 0) t.clock.advance(1);
    const res = await call('POST', '/v2/content-tags', { name: `tag-${i}-${out.length}` });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    out.push(tagItem(res.body));
  }
  return out;
}

interface Fixture {
  call: CallFn;
  companyId: string;
  tags: Item[];
  accounts: { all: Item[]; platformA: Item[]; platformB: Item[] };
}

/** Valid cursors of each kind, fetched fresh (they are bound to the clock). */
async function cursorOf(call: CallFn, path: string): Promise<string> {
  const res = await call('GET', pageUrl(path, 1, null));
  assert.equal(typeof res.body.nextCursor, 'string', JSON.stringify(res.body));
  return res.body.nextCursor;
}

function assertInvalidCursor(res: Call): void {
  assertApiError(res, 400, 'invalid_cursor', { includes: 'cursor' });
  assert.equal(res.body.data, undefined);
}

describeEachDialect('pagination', (get) => {
  const fixtures: Fixture[] = [];

  before(async () => {
    const t = get();
    t.clock.set(START);
    for (const [nTags, nAccounts] of [
      [60, 45],
      [1, 1],
      [0, 0],
      [13, 7],
    ] as const) {
      const co = await seedCompany(t);
      const call = client(t, co.key);
      const tags = await createTags(t, call, nTags);
      const all: Item[] = [];
      const platformA: Item[] = [];
      const platformB: Item[] = [];
      for (let i = 0; i < nAccounts; i++) {
        if (i % 5 === 0) t.clock.advance(1);
        const platform = i % 3 === 0 ? 'platformB' : 'platformA';
        const res = await call('POST', '/v2/accounts', validAccount({ platform }));
        assert.equal(res.status, 201);
        const item = accountItem(res.body);
        all.push(item);
        (platform === 'platformA' ? platformA : platformB).push(item);
      }
      fixtures.push({
        call,
        companyId: co.companyId,
        tags: tags.sort(byKey),
        accounts: {
          all: all.sort(byKey),
          platformA: platformA.sort(byKey),
          platformB: platformB.sort(byKey),
        },
      });
    }
  });
  beforeEach(() => get().clock.set(START));

  test('any limit 1-100 walks every tag exactly once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: fixtures.length - 1 }),
        fc.integer({ min: 1, max: 100 }),
        async (which, limit) => {
          const f = fixtures[which]!;
          const seen = await walk(f.call, '/v2/content-tags', tagItem, () => limit);
          assert.deepEqual(ids(seen), ids(f.tags));
        },
      ),
      { numRuns: 200 },
    );
  });

  test('any limit 1-100, with or without a platform filter, walks every account once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: fixtures.length - 1 }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom('all', 'platformA', 'platformB'),
        async (which, limit, platform) => {
          const f = fixtures[which]!;
          const path = platform === 'all' ? '/v2/accounts' : `/v2/accounts?platform=${platform}`;
          const seen = await walk(f.call, path, accountItem, () => limit);
          assert.deepEqual(ids(seen), ids(f.accounts[platform]));
        },
      ),
      { numRuns: 200 },
    );
  });

  test('the page size may change from page to page', async () => {
    const f = fixtures[0]!;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 12 }),
        async (limits) => {
          const seen = await walk(
            f.call,
            '/v2/content-tags',
            tagItem,
            (p) => limits[p % limits.length]!,
          );
          assert.deepEqual(ids(seen), ids(f.tags));
        },
      ),
      { numRuns: 15 },
    );
  });

  test('tags created between page fetches never duplicate and never hide earlier tags', async () => {
    const t = get();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(
          fc.record({
            create: fc.integer({ min: 0, max: 3 }),
            // Zero keeps the millisecond (ids decide), negative is a clock step back.
            clockStep: fc.integer({ min: -5, max: 5 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (initial, limit, steps) => {
          t.clock.set(START);
          const co = await seedCompany(t);
          const call = client(t, co.key);
          const before = await createTags(t, call, initial, 3);
          const added: Item[] = [];
          const seen = await walk(
            call,
            '/v2/content-tags',
            tagItem,
            () => limit,
            async (page) => {
              // Inserts stop after a few pages, or a walk with small pages never ends.
              const step = steps[page];
              if (!step) return;
              t.clock.advance(step.clockStep);
              for (let i = 0; i < step.create; i++) {
                const res = await call('POST', '/v2/content-tags', {
                  name: `late-${page}-${i}`,
                });
                assert.equal(res.status, 201);
                added.push(tagItem(res.body));
              }
            },
          );
          const seenIds = ids(seen);
          assert.equal(new Set(seenIds).size, seenIds.length, 'a tag was returned twice');
          const known = new Set(ids([...before, ...added]));
          for (const id of seenIds) assert.ok(known.has(id), `unknown tag ${id}`);
          const returned = new Set(seenIds);
          for (const id of ids(before)) assert.ok(returned.has(id), `tag ${id} was skipped`);
          assert.deepEqual(seen, [...seen].sort(byKey), 'pages are out of order');
        },
      ),
      { numRuns: 20 },
    );
  });

  test('garbage and truncated cursors are invalid_cursor', async () => {
    const f = fixtures[0]!;
    const valid = await cursorOf(f.call, '/v2/content-tags');
    const [payload, sig] = valid.split('.') as [string, string];
    const unsigned = Buffer.from(
      JSON.stringify({ k: ['2026-03-02T10:00:00.000Z', 'tag_0'], e: 9e15 }),
    ).toString('base64url');
    const garbage = [
      'garbage',
      '.',
      'a.',
      '.a',
      '..',
      payload,
      `${payload}.`,
      `.${sig}`,
      `${payload}.${sig}.${sig}`,
      `${payload}.${sig}=`,
      `${payload}==.${sig}`,
      `${unsigned}.${sig}`,
      `${unsigned}.${'A'.repeat(43)}`,
      `${sig}.${payload}`,
      valid.slice(0, -1),
      valid.slice(0, -2),
      valid.slice(0, Math.floor(valid.length / 2)),
      valid.slice(1),
      valid.toUpperCase(),
      `${valid} `,
      ` ${valid}`,
      `${valid}\n`,
      '\u0000',
      'null',
      '{}',
      '[]',
      '1',
      '-1',
      'x'.repeat(2048),
      `${'A'.repeat(2000)}.${sig}`,
      '😀.😀',
    ];
    for (const cursor of garbage) {
      assertInvalidCursor(await f.call('GET', pageUrl('/v2/content-tags', 10, cursor)));
      assertInvalidCursor(await f.call('GET', pageUrl('/v2/accounts', 10, cursor)));
    }
    // Outside the query parameter's own bounds it is a plain validation error.
    for (const cursor of ['', 'x'.repeat(2049)]) {
      assertApiError(
        await f.call('GET', pageUrl('/v2/content-tags', 10, cursor)),
        400,
        'invalid_request',
        { includes: 'cursor' },
      );
    }
    const twice = await f.call(
      'GET',
      `/v2/content-tags?cursor=${encodeURIComponent(valid)}&cursor=${encodeURIComponent(valid)}`,
    );
    assertApiError(twice, 400, 'invalid_request', { includes: 'cursor' });
  });

  test('any mutation of a valid cursor is invalid_cursor, never data or a 500', async () => {
    const f = fixtures[0]!;
    const valid = {
      tags: await cursorOf(f.call, '/v2/content-tags'),
      accounts: await cursorOf(f.call, '/v2/accounts'),
    };
    const anyChar = fc.oneof(
      fc.constantFrom(...BASE64URL.split('')),
      fc.constantFrom('.', '=', '+', '/', '%', '&', '#', ' ', '~', '\u00e9'),
    );
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), char: anyChar }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: anyChar }),
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }),
      fc.record({
        kind: fc.constant('bit' as const),
        at: fc.nat(),
        bit: fc.integer({ min: 0, max: 5 }),
      }),
    );
    const apply = (text: string, m: Mutation): string => {
      if (text.length === 0) return text;
      const at = m.at % text.length;
      switch (m.kind) {
        case 'replace':
          return text.slice(0, at) + m.char + text.slice(at + 1);
        case 'delete':
          return text.slice(0, at) + text.slice(at + 1);
        case 'insert':
          return text.slice(0, at) + m.char + text.slice(at);
        case 'truncate':
          return text.slice(0, Math.max(1, at));
        case 'swap':
          return at + 1 < text.length
            ? text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2)
            : text;
        case 'bit': {
          // Flip one bit of a base64url character's 6-bit value.
          const index = BASE64URL.indexOf(text[at]!);
          if (index < 0) return text;
          return text.slice(0, at) + BASE64URL[index ^ (1 << (m.bit ?? 0))] + text.slice(at + 1);
        }
      }
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('tags', 'accounts'),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (list, mutations) => {
          const original = valid[list];
          const mutated = mutations.reduce((text, m) => apply(text, m), original);
          // The empty string is outside the parameter's bounds: invalid_request, tested above.
          fc.pre(mutated !== original && mutated.length > 0);
          const path = list === 'tags' ? '/v2/content-tags' : '/v2/accounts';
          assertInvalidCursor(await f.call('GET', pageUrl(path, 5, mutated)));
        },
      ),
      // Reliability target C3: 10,000 random mutations of valid cursors.
      { numRuns: 10_000 },
    );
  });

  test('the last character of the signature cannot be respelled', async () => {
    const f = fixtures[0]!;
    const valid = await cursorOf(f.call, '/v2/content-tags');
    const last = BASE64URL.indexOf(valid[valid.length - 1]!);
    for (const bit of [0, 1, 2, 3, 4, 5]) {
      const twin = valid.slice(0, -1) + BASE64URL[last ^ (1 << bit)];
      assertInvalidCursor(await f.call('GET', pageUrl('/v2/content-tags', 5, twin)));
    }
  });

  test('a cursor is bound to its list, company and filters', async () => {
    const [big, , , small] = fixtures as [Fixture, Fixture, Fixture, Fixture];
    const tagsCursor = await cursorOf(big.call, '/v2/content-tags');
    const accountsCursor = await cursorOf(big.call, '/v2/accounts');
    const aCursor = await cursorOf(big.call, '/v2/accounts?platform=platformA');
    const bCursor = await cursorOf(big.call, '/v2/accounts?platform=platformB');
    // Sanity: each works where it came from.
    for (const [path, cursor] of [
      ['/v2/content-tags', tagsCursor],
      ['/v2/accounts', accountsCursor],
      ['/v2/accounts?platform=platformA', aCursor],
      ['/v2/accounts?platform=platformB', bCursor],
    ] as const) {
      assert.equal((await big.call('GET', pageUrl(path, 5, cursor))).status, 200);
    }
    const misuse: [CallFn, string, string][] = [
      [big.call, '/v2/content-tags', accountsCursor],
      [big.call, '/v2/content-tags', aCursor],
      [big.call, '/v2/accounts', tagsCursor],
      [big.call, '/v2/accounts?platform=platformB', aCursor],
      [big.call, '/v2/accounts?platform=platformA', bCursor],
      [big.call, '/v2/accounts', aCursor],
      [big.call, '/v2/accounts?platform=platformA', accountsCursor],
      [small.call, '/v2/content-tags', tagsCursor],
      [small.call, '/v2/accounts', accountsCursor],
      [small.call, '/v2/accounts?platform=platformA', aCursor],
    ];
    for (const [call, path, cursor] of misuse) {
      assertInvalidCursor(await call('GET', pageUrl(path, 5, cursor)));
    }
    // The other company's own cursors do not open our list either.
    const theirs = await cursorOf(small.call, '/v2/content-tags');
    assertInvalidCursor(await big.call('GET', pageUrl('/v2/content-tags', 5, theirs)));
  });

  test('a cursor expires after a day', async () => {
    const t = get();
    const f = fixtures[0]!;
    const tags = await cursorOf(f.call, '/v2/content-tags');
    const accounts = await cursorOf(f.call, '/v2/accounts?platform=platformB');
    t.clock.advance(23 * 3600 * 1000);
    assert.equal((await f.call('GET', pageUrl('/v2/content-tags', 5, tags))).status, 200);
    t.clock.advance(2 * 3600 * 1000);
    for (const [path, cursor] of [
      ['/v2/content-tags', tags],
      ['/v2/accounts?platform=platformB', accounts],
    ] as const) {
      const res = await f.call('GET', pageUrl(path, 5, cursor));
      assertInvalidCursor(res);
      assert.match(res.body.error.message, /expired/);
    }
  });
});
