// Read bodies built from serialized templates (json-template.ts) carry the same
// bytes as the response serializer writes, whatever the stored text holds, and
// never outlive the data or the time they depend on.
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { fill, holeJson, makeTemplate } from '../../src/http/json-template.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, validAccount } from '../helpers/app.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';

// Text that looks like the keys and placeholders the templates split at.
const TRICKY = 'a","nextCursor":null,"postsToday":0,"nextWindow":null,"thumbnailUrl":null,"b\\"';

describe('json templates', () => {
  test('holes are found by key only, never inside strings', () => {
    const doc = {
      data: [
        { name: TRICKY, postsToday: 0, nextWindow: null, note: '"postsToday":0' },
        { name: '\u2028\ud800"', postsToday: 0, nextWindow: null, note: TRICKY },
      ],
      nextCursor: null,
    };
    const template = makeTemplate(
      JSON.stringify(doc),
      { postsToday: '0', nextWindow: 'null', nextCursor: 'null' },
      5,
    );
    const values = [3, '2026-03-02T11:00:00.000Z', 0, null, 'c.d'];
    const expected = {
      data: [
        { ...doc.data[0], postsToday: 3, nextWindow: '2026-03-02T11:00:00.000Z' },
        { ...doc.data[1], postsToday: 0, nextWindow: null },
      ],
      nextCursor: 'c.d',
    };
    assert.equal(fill(template, values).toString(), JSON.stringify(expected));
  });

  test('a body whose holes differ from the expected count is refused', () => {
    assert.throws(
      () => makeTemplate('{"nextCursor":null}', { nextCursor: 'null' }, 2),
      /expected 2/,
    );
    assert.throws(
      () => makeTemplate('{"nextCursor":"x"}', { nextCursor: 'null' }, 1),
      /placeholder/,
    );
  });

  test('hole values are written as JSON.stringify writes them', () => {
    for (const v of [
      '',
      'plain',
      '"quoted"\\',
      '\u0000\u001f',
      '\ud83d\ude00',
      '\udc00',
      'x'.repeat(6000),
    ]) {
      assert.equal(holeJson(v), JSON.stringify(v));
    }
    assert.equal(holeJson(12), '12');
    assert.equal(holeJson(Infinity), 'null');
    assert.equal(holeJson(null), 'null');
  });
});

describeEachDialect('read bodies', (get, dialect) => {
  beforeEach(() => get().clock.set('2026-03-02T10:00:00.000Z'));

  test('an account listed has the bytes of the account read alone, at any time', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const created = await call(
      'POST',
      '/v2/accounts',
      validAccount({ displayName: TRICKY.slice(0, 80), bio: TRICKY }),
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (const advance of [0, 60_000, 3 * 60 * 60 * 1000, 30 * 60 * 60 * 1000]) {
      t.clock.advance(advance);
      const one = await call('GET', `/v2/accounts/${created.body.accountId}`);
      const list = await call('GET', '/v2/accounts');
      assert.equal(list.raw.body, `{"data":[${one.raw.body}],"nextCursor":null}`);
      assert.equal(list.headers['content-type'], one.headers['content-type']);
    }
  });

  test('a listed post has the bytes of the post read alone; cursors are written per request', async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const accounts = await makeAccounts(call, 2);
    const video = await readyUpload(t, call, 'h264-aac-faststart.mp4');
    await t.media.idle();
    const ids: string[] = [];
    for (const caption of [TRICKY, 'second']) {
      const res = await call('POST', '/v2/posts', {
        media: [video],
        accountIds: accounts,
        caption,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids.push(res.body.postId);
      t.clock.advance(1000);
    }
    for (const advance of [0, 1500, 2 * 60 * 60 * 1000]) {
      t.clock.advance(advance);
      const [first, second] = await Promise.all(ids.map((id) => call('GET', `/v2/posts/${id}`)));
      assert.ok(first && second, 'both posts read');
      assert.equal(first.body.caption, TRICKY);
      assert.match(first.body.media.thumbnailUrl, /expires=/);
      const page = await call('GET', '/v2/posts?limit=1');
      const { nextCursor } = page.body;
      assert.equal(typeof nextCursor, 'string');
      assert.equal(
        page.raw.body,
        `{"data":[${second.raw.body}],"nextCursor":${JSON.stringify(nextCursor)}}`,
      );
      const rest = await call('GET', `/v2/posts?limit=1&cursor=${nextCursor}`);
      assert.equal(rest.raw.body, `{"data":[${first.raw.body}],"nextCursor":null}`);
    }
  });

  if (dialect !== 'sqlite') return;

  test("another process's commits show at once: tags, accounts, posts and revoked keys", async () => {
    const t = get();
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const tag = await call('POST', '/v2/content-tags', { name: 'Before' });
    const [account] = await makeAccounts(call, 1);
    const post = await call('POST', '/v2/posts', {
      media: [await readyUpload(t, call, 'h264-aac-faststart.mp4')],
      accountIds: [account],
      caption: 'before',
    });
    assert.equal(post.status, 201, JSON.stringify(post.body));
    // Twice each, so the second read is served from what the first kept.
    for (let i = 0; i < 2; i++) {
      assert.equal((await call('GET', '/v2/content-tags')).body.data[0].name, 'Before');
      assert.equal((await call('GET', '/v2/accounts')).body.data[0].followers, 0);
      assert.equal((await call('GET', `/v2/posts/${post.body.postId}`)).body.caption, 'before');
      assert.equal((await call('GET', '/v2/posts')).body.data[0].caption, 'before');
    }
    const other = new SqliteDatabase(join(t.config.dataDir, 'slotline.db'));
    try {
      other.prepare('update content_tags set name = ? where id = ?').run('After', tag.body.tagId);
      assert.equal((await call('GET', '/v2/content-tags')).body.data[0].name, 'After');
      other.prepare('update accounts set followers = 7 where id = ?').run(account);
      assert.equal((await call('GET', '/v2/accounts')).body.data[0].followers, 7);
      other.prepare("update posts set caption = 'after' where id = ?").run(post.body.postId);
      assert.equal((await call('GET', `/v2/posts/${post.body.postId}`)).body.caption, 'after');
      assert.equal((await call('GET', '/v2/posts')).body.data[0].caption, 'after');
      other
        .prepare('update api_keys set revoked_at = ? where company_id = ?')
        .run('2026-03-02T10:00:00.000Z', co.companyId);
      assert.equal((await call('GET', '/v2/content-tags')).status, 401);
    } finally {
      other.close();
    }
  });
});
