import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../../helpers/app.ts';
import { assertApiError, assertInvalidBody } from '../../helpers/api-error.ts';

const START = '2026-03-02T10:00:00.000Z';
const COLORS = ['slate', 'blue', 'cyan', 'green', 'amber', 'orange', 'rose', 'violet'];

async function companyCall(t: TestApp) {
  const co = await seedCompany(t);
  return { co, call: client(t, co.key) };
}

describeEachDialect('content tags', (get) => {
  beforeEach(() => get().clock.set(START));

  test('create: default color slate, contentGroupId tag:<tagId>, clock timestamps', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const res = await call('POST', '/v2/content-tags', { name: 'Summer drop' });
    assert.equal(res.status, 201);
    assert.match(res.body.tagId, /^tag_[0-9a-z]+$/);
    assert.deepEqual(res.body, {
      tagId: res.body.tagId,
      contentGroupId: `tag:${res.body.tagId}`,
      name: 'Summer drop',
      color: 'slate',
      archived: false,
      createdAt: START,
      updatedAt: START,
    });
    const list = await call('GET', '/v2/content-tags');
    assert.deepEqual(list.body, { data: [res.body], nextCursor: null });
  });

  test('every color of the enum is accepted; anything else is rejected', async () => {
    const t = get();
    const { call } = await companyCall(t);
    for (const color of COLORS) {
      const res = await call('POST', '/v2/content-tags', { name: `tag ${color}`, color });
      assert.equal(res.status, 201);
      assert.equal(res.body.color, color);
    }
    for (const color of ['red', 'Slate', '', null, 3]) {
      const res = await call('POST', '/v2/content-tags', { name: 'bad color', color });
      assertInvalidBody(res, '/color');
    }
    const created = await call('POST', '/v2/content-tags', { name: 'recolor me' });
    for (const color of ['SLATE', 'purple']) {
      assertInvalidBody(
        await call('PATCH', `/v2/content-tags/${created.body.tagId}`, { color }),
        '/color',
      );
    }
    const recolored = await call('PATCH', `/v2/content-tags/${created.body.tagId}`, {
      color: 'violet',
    });
    assert.equal(recolored.status, 200);
    assert.equal(recolored.body.color, 'violet');
  });

  test('name: 1 and 50 characters are accepted; empty, blank and 51 are rejected', async () => {
    const t = get();
    const { call } = await companyCall(t);
    for (const name of ['x', 'n'.repeat(50), '🍜'.repeat(50), ' padded ']) {
      const res = await call('POST', '/v2/content-tags', { name });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.name, name);
    }
    for (const name of ['', 'n'.repeat(51), '🍜'.repeat(51), ' ', '   ', '\t\n']) {
      assertInvalidBody(await call('POST', '/v2/content-tags', { name }), '/name');
    }
    for (const name of [null, 5, ['a'], { name: 'a' }]) {
      assertInvalidBody(await call('POST', '/v2/content-tags', { name }), '/name');
    }
    const missing = await call('POST', '/v2/content-tags', { color: 'blue' });
    assertInvalidBody(missing, '/name');
    assert.match(missing.body.error.message, /is required/);
    const tag = await call('POST', '/v2/content-tags', { name: 'rename me' });
    for (const name of ['', '  ', 'n'.repeat(51)]) {
      assertInvalidBody(
        await call('PATCH', `/v2/content-tags/${tag.body.tagId}`, { name }),
        '/name',
      );
    }
    const renamed = await call('PATCH', `/v2/content-tags/${tag.body.tagId}`, {
      name: 'r'.repeat(50),
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'r'.repeat(50));
  });

  test('names are unique per company, case-insensitively, on create and rename', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const summer = await call('POST', '/v2/content-tags', { name: 'Summer' });
    const winter = await call('POST', '/v2/content-tags', { name: 'Winter' });
    for (const name of ['Summer', 'SUMMER', 'summer', 'sUmMeR']) {
      assertApiError(await call('POST', '/v2/content-tags', { name }), 409, 'tag_name_taken', {
        includes: name,
      });
    }
    assertApiError(
      await call('PATCH', `/v2/content-tags/${winter.body.tagId}`, { name: 'summer' }),
      409,
      'tag_name_taken',
      { includes: 'summer' },
    );
    // The failed rename left the tag as it was.
    const list = await call('GET', '/v2/content-tags');
    assert.deepEqual(
      list.body.data.map((x: { name: string }) => x.name),
      ['Summer', 'Winter'],
    );
    // Composed and decomposed forms of the same text are the same name.
    await call('POST', '/v2/content-tags', { name: 'Café' });
    assertApiError(
      await call('POST', '/v2/content-tags', { name: 'CAFE\u0301' }),
      409,
      'tag_name_taken',
    );
    // An archived tag still holds its name.
    await call('PATCH', `/v2/content-tags/${summer.body.tagId}`, { archived: true });
    assertApiError(
      await call('POST', '/v2/content-tags', { name: 'summer' }),
      409,
      'tag_name_taken',
    );
    // Another company may use the same name.
    const other = await companyCall(t);
    assert.equal((await other.call('POST', '/v2/content-tags', { name: 'Summer' })).status, 201);
  });

  test('renaming a tag to its own name in another case is allowed', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const tag = await call('POST', '/v2/content-tags', { name: 'summer' });
    t.clock.advance(60_000);
    const res = await call('PATCH', `/v2/content-tags/${tag.body.tagId}`, { name: 'SUMMER' });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'SUMMER');
    assert.equal(res.body.updatedAt, '2026-03-02T10:01:00.000Z');
    const same = await call('PATCH', `/v2/content-tags/${tag.body.tagId}`, { name: 'SUMMER' });
    assert.equal(same.status, 200);
    assert.equal(same.body.name, 'SUMMER');
    // The old spelling is free only for this tag: a new tag still cannot take it.
    assertApiError(
      await call('POST', '/v2/content-tags', { name: 'summer' }),
      409,
      'tag_name_taken',
    );
  });

  test('archive and restore; updatedAt follows the clock, createdAt stays', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const tag = await call('POST', '/v2/content-tags', { name: 'Campaign', color: 'rose' });
    const id = tag.body.tagId;
    t.clock.set('2026-03-02T11:30:00.000Z');
    const archived = await call('PATCH', `/v2/content-tags/${id}`, { archived: true });
    assert.equal(archived.status, 200);
    assert.deepEqual(archived.body, {
      ...tag.body,
      archived: true,
      updatedAt: '2026-03-02T11:30:00.000Z',
    });
    t.clock.set('2026-03-03T08:00:00.000Z');
    const restored = await call('PATCH', `/v2/content-tags/${id}`, { archived: false });
    assert.equal(restored.body.archived, false);
    assert.equal(restored.body.createdAt, START);
    assert.equal(restored.body.updatedAt, '2026-03-03T08:00:00.000Z');
    assert.equal(restored.body.color, 'rose');
    // An empty patch changes nothing, not even updatedAt.
    t.clock.set('2026-03-04T08:00:00.000Z');
    const empty = await call('PATCH', `/v2/content-tags/${id}`, {});
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, restored.body);
    const listed = await call('GET', '/v2/content-tags');
    assert.deepEqual(listed.body.data, [restored.body]);
    for (const archivedValue of ['true', 1, null]) {
      assertInvalidBody(
        await call('PATCH', `/v2/content-tags/${id}`, { archived: archivedValue }),
        '/archived',
      );
    }
  });

  test('PATCH and DELETE of an unknown or other-company tag are tag_not_found', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const other = await companyCall(t);
    const theirs = await other.call('POST', '/v2/content-tags', { name: 'Theirs' });
    for (const id of ['tag_doesnotexist', theirs.body.tagId]) {
      assertApiError(
        await call('PATCH', `/v2/content-tags/${id}`, { name: 'Mine' }),
        404,
        'tag_not_found',
        { includes: id },
      );
      assertApiError(await call('DELETE', `/v2/content-tags/${id}`), 404, 'tag_not_found', {
        includes: id,
      });
    }
    // Their tag is untouched.
    const list = await other.call('GET', '/v2/content-tags');
    assert.deepEqual(list.body.data, [theirs.body]);
    assertApiError(
      await call('PATCH', `/v2/content-tags/${'t'.repeat(201)}`, { name: 'x' }),
      400,
      'invalid_request',
      { includes: 'tagId' },
    );
  });

  test('DELETE returns {tagId, updatedPosts: 0}, then 404; the name becomes free', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const keep = await call('POST', '/v2/content-tags', { name: 'Keep' });
    const gone = await call('POST', '/v2/content-tags', { name: 'Gone' });
    const del = await call('DELETE', `/v2/content-tags/${gone.body.tagId}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { tagId: gone.body.tagId, updatedPosts: 0 });
    assertApiError(
      await call('DELETE', `/v2/content-tags/${gone.body.tagId}`),
      404,
      'tag_not_found',
    );
    assertApiError(
      await call('PATCH', `/v2/content-tags/${gone.body.tagId}`, { archived: true }),
      404,
      'tag_not_found',
    );
    const list = await call('GET', '/v2/content-tags');
    assert.deepEqual(list.body.data, [keep.body]);
    const again = await call('POST', '/v2/content-tags', { name: 'GONE' });
    assert.equal(again.status, 201);
    assert.notEqual(again.body.tagId, gone.body.tagId);
  });

  test('list shows active and archived tags; limit pages through them once each', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const created: { tagId: string; archived: boolean }[] = [];
    for (let i = 0; i < 9; i++) {
      t.clock.advance(1000);
      const res = await call('POST', '/v2/content-tags', { name: `tag ${i}` });
      created.push(res.body);
    }
    for (const i of [1, 4, 8]) {
      const tag = created[i]!;
      const res = await call('PATCH', `/v2/content-tags/${tag.tagId}`, { archived: true });
      created[i] = res.body;
    }
    const all = await call('GET', '/v2/content-tags');
    assert.deepEqual(all.body.data, created);
    assert.deepEqual(
      all.body.data.map((x: { archived: boolean }) => x.archived),
      [false, true, false, false, true, false, false, false, true],
    );
    for (const limit of [1, 2, 4, 9, 10]) {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      do {
        const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const res = await call('GET', `/v2/content-tags?limit=${limit}${q}`);
        assert.equal(res.status, 200);
        assert.ok(res.body.data.length <= limit);
        seen.push(...res.body.data);
        cursor = res.body.nextCursor;
      } while (cursor !== null);
      assert.deepEqual(seen, created, `limit ${limit}`);
    }
    for (const limit of ['0', '101', 'x']) {
      assertApiError(await call('GET', `/v2/content-tags?limit=${limit}`), 400, 'invalid_request', {
        includes: 'limit',
      });
    }
    assertApiError(await call('GET', '/v2/content-tags?archived=true'), 400, 'invalid_request', {
      includes: 'archived',
    });
  });

  test('unknown keys are rejected on create and update', async () => {
    const t = get();
    const { call } = await companyCall(t);
    const create = await call('POST', '/v2/content-tags', { name: 'x', archived: true });
    assertInvalidBody(create, '/archived');
    assert.match(create.body.error.message, /not an allowed field/);
    assertInvalidBody(
      await call('POST', '/v2/content-tags', { name: 'x', contentGroupId: 'tag:1' }),
      '/contentGroupId',
    );
    const tag = await call('POST', '/v2/content-tags', { name: 'real' });
    for (const key of ['tagId', 'createdAt', 'colour']) {
      assertInvalidBody(
        await call('PATCH', `/v2/content-tags/${tag.body.tagId}`, { [key]: 'x' }),
        `/${key}`,
      );
    }
    assertInvalidBody(await call('POST', '/v2/content-tags', ['real']), '/');
    assert.equal((await call('GET', '/v2/content-tags')).body.data.length, 1);
  });

  test('scopes: posts:read lists, posts:write manages, neither implies the other', async () => {
    const t = get();
    const co = await seedCompany(t);
    const reader = client(t, await co.keyWith(['posts:read']));
    const writer = client(t, await co.keyWith(['posts:write']));
    assertApiError(
      await reader('POST', '/v2/content-tags', { name: 'x' }),
      403,
      'insufficient_scope',
      { includes: 'posts:write' },
    );
    assertApiError(await writer('GET', '/v2/content-tags'), 403, 'insufficient_scope', {
      includes: 'posts:read',
    });
    const tag = await writer('POST', '/v2/content-tags', { name: 'x' });
    assert.equal(tag.status, 201);
    assertApiError(
      await reader('DELETE', `/v2/content-tags/${tag.body.tagId}`),
      403,
      'insufficient_scope',
    );
    assert.deepEqual((await reader('GET', '/v2/content-tags')).body.data, [tag.body]);
  });
});
