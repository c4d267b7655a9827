// Idempotency across replicas (reliability B2): two service instances on one PostgreSQL
// database receive the same create with the same Idempotency-Key at once, ten times each,
// fifty times over. Every time exactly one request creates the post; the others return it
// (200) or say the key is in use (409); never a second post.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { buildApp } from '../../src/app.ts';
import { openContext } from '../../src/bootstrap.ts';

const REPEATS = 50;
const PER_REPLICA = 10;

describeEachDialect('idempotency across replicas', (get, dialect) => {
  test(
    'the same key on two replicas at once makes one post, fifty times over',
    { skip: dialect === 'sqlite' && 'the embedded database serves one process' },
    async () => {
      const t = get();
      const co = await seedCompany(t, { plan: 'scale' });
      const call = client(t, co.key);
      const accountIds = await makeAccounts(call, 2);
      const media = [await readyUpload(t, call, 'h264-noaudio.mp4')];
      await t.ctx.thumbnails.idle();
      const other = await openContext(t.config, { clock: t.clock, skipMigrations: true });
      const otherApp = await buildApp(other.ctx);
      await otherApp.ready();
      const replica = { ...t, app: otherApp, ctx: other.ctx };
      const calls = [call, client(replica, co.key)];
      try {
        for (let i = 0; i < REPEATS; i++) {
          const key = { 'idempotency-key': `replicas-${i}` };
          const body = { media, accountIds, caption: `repeat ${i}` };
          const results = await Promise.all(
            calls.flatMap((c) =>
              Array.from({ length: PER_REPLICA }, () => c('POST', '/v2/posts', body, key)),
            ),
          );
          const created = results.filter((r) => r.status === 201);
          assert.equal(created.length, 1, `repeat ${i}: ${results.map((r) => r.status).join()}`);
          const postId = created[0]!.body.postId as string;
          for (const r of results) {
            assert.ok([200, 201, 409].includes(r.status), `repeat ${i}: status ${r.status}`);
            if (r.status === 200) assert.equal(r.body.postId, postId, `repeat ${i}: same post`);
            if (r.status === 409) assert.equal(r.body.error.code, 'idempotency_key_in_use');
          }
        }
        const posts = await t.ctx.db
          .selectFrom('posts')
          .select('id')
          .where('company_id', '=', co.companyId)
          .execute();
        assert.equal(posts.length, REPEATS, 'one post per key');
      } finally {
        await otherApp.close();
        await other.close();
      }
    },
  );
});
