// The route-level read cache (read-cache.ts) keeps a body only while its data
// is unchanged, and only on SQLite; what it answers is what the services'
// plain data says at the time of the request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { ReadCache, type BodyPlan } from '../../src/http/read-cache.ts';
import { listAccounts } from '../../src/modules/accounts/index.ts';
import { listPosts } from '../../src/modules/posts/index.ts';
import { listTags } from '../../src/modules/tags/index.ts';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { makeActiveAccounts, readyUpload } from '../helpers/posts.ts';

const Names = {
  type: 'object',
  properties: {
    names: { type: 'array', items: { type: 'string' } },
    at: { type: ['string', 'null'] },
  },
  additionalProperties: false,
} as const;

interface Names {
  names: string[];
}

const stamped: BodyPlan<Names> = {
  skeleton: (data) => ({ body: { names: data.names, at: null }, holes: { at: 'null' }, count: 1 }),
  fill: (_data, now, out) => out.put(now.toISOString()),
};

describeEachDialect('read cache', (get, dialect) => {
  test('a body is read again only after a write', async () => {
    const t = get();
    const cache = new ReadCache(10);
    let reads = 0;
    let during: (() => Promise<void>) | null = null;
    const app = Fastify();
    app.get('/names', { schema: { response: { 200: Names } } }, (_req, reply) => {
      const read = async () => {
        reads++;
        await during?.();
        return { names: ['a', '"at":null'] };
      };
      return cache.send(reply, t.ctx.db, stamped, { key: 'names', read }, t.clock.now());
    });
    const write = (value: string) =>
      t.ctx.db
        .insertInto('server_settings')
        .values({ key: `read-cache-${value}`, value })
        .execute()
        .then(() => undefined);
    try {
      const body = async () => (await app.inject({ method: 'GET', url: '/names' })).body;
      t.clock.set('2026-03-02T10:00:00.000Z');
      const first = await body();
      assert.equal(first, '{"names":["a","\\"at\\":null"],"at":"2026-03-02T10:00:00.000Z"}');
      t.clock.advance(1000);
      assert.match(await body(), /"at":"2026-03-02T10:00:01.000Z"}$/, 'the hole per request');
      // On PostgreSQL the version also follows commits anywhere on the server (other tests'
      // databases too), so the second request may read again; on SQLite it never does.
      const kept = reads;
      if (dialect === 'sqlite') assert.equal(kept, 1, 'read once while nothing changed');
      else assert.ok(kept === 1 || kept === 2, `read ${kept} times`);
      await write('one');
      await body();
      assert.equal(reads, kept + 1, 'a write ends what was kept');
      // A write while the data is read leaves a body no later request accepts.
      await write('two');
      during = () => write('three');
      await body();
      during = null;
      await body();
      assert.equal(reads, kept + 3, 'a write during the read leaves nothing kept');
    } finally {
      await app.close();
    }
  });

  test('a body without holes is the same bytes for every request', async () => {
    const t = get();
    const cache = new ReadCache(10);
    const plan: BodyPlan<Names> = {
      skeleton: (data) => ({ body: { names: data.names, at: null }, holes: {}, count: 0 }),
      fill: () => {},
    };
    const app = Fastify();
    app.get('/names', { schema: { response: { 200: Names } } }, (_req, reply) => {
      const read = async () => ({ names: ['b'] });
      return cache.send(reply, t.ctx.db, plan, { key: 'names', read }, t.clock.now());
    });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await app.inject({ method: 'GET', url: '/names' });
        assert.equal(res.body, '{"names":["b"],"at":null}');
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      }
    } finally {
      await app.close();
    }
  });

  test('the routes answer what the services return as data, at any time', async () => {
    const t = get();
    t.clock.set('2026-03-02T10:00:00.000Z');
    const co = await seedCompany(t);
    const call = client(t, co.key);
    const accounts = await makeActiveAccounts(t, call, 2);
    for (const name of ['One', 'Two', 'Three']) {
      assert.equal((await call('POST', '/v2/content-tags', { name })).status, 201);
    }
    const video = await readyUpload(t, call, 'h264-aac-faststart.mp4');
    await t.media.idle();
    for (const caption of ['first', 'second']) {
      const res = await call('POST', '/v2/posts', {
        media: [video],
        accountIds: accounts,
        caption,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      t.clock.advance(1000);
    }
    for (const advance of [0, 1500, 3 * 60 * 60 * 1000, 30 * 60 * 60 * 1000]) {
      t.clock.advance(advance);
      // Twice each, so the second answer comes from what the first kept.
      for (let i = 0; i < 2; i++) {
        const a = await call('GET', '/v2/accounts?limit=1');
        assert.deepEqual(a.body, await listAccounts(t.ctx, co.companyId, { limit: 1 }));
        assert.equal(typeof a.body.data[0]?.nextWindow, 'string');
        const tags = await call('GET', '/v2/content-tags?limit=2');
        assert.deepEqual(tags.body, await listTags(t.ctx, co.companyId, { limit: 2 }));
        const posts = await call('GET', '/v2/posts?limit=1');
        assert.deepEqual(posts.body, await listPosts(t.ctx, co.companyId, { limit: 1 }));
        assert.match(String(posts.body.data[0]?.media.thumbnailUrl), /expires=/);
      }
    }
  });
});
