// Idempotency across replicas (reliability B2): two service instances on one PostgreSQL
// database receive the same create with the same Idempotency-Key at once, ten times each,
// fifty times over. Every time exactly one request creates the post; the others return it
// (200) or say the key is in use (409); never a second post. And many keys at once, each
// sent to both replicas in another order: one 201 and one 200 replay for every key, never
// a deadlock answered as a 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany, type TestApp } from '../helpers/app.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';
import { buildApp } from '../../src/app.ts';
import { openContext } from '../../src/bootstrap.ts';

const REPEATS = 50;
const PER_REPLICA = 10;
const ROUNDS = 12;
const KEYS_PER_ROUND = 32;

/** A shuffled copy (Fisher-Yates), so each replica sees the keys in an order of its own. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * A company with two accounts and a ready video, and a second app (a replica: its own
 * context, connection pool and commit groups) on the same database beside the test's.
 */
async function twoReplicas(t: TestApp) {
  const co = await seedCompany(t, { plan: 'scale' });
  const call = client(t, co.key);
  const accountIds = await makeAccounts(call, 2);
  const media = [await readyUpload(t, call, 'h264-noaudio.mp4')];
  await t.media.idle();
  const other = await openContext(t.config, { clock: t.clock, skipMigrations: true });
  const otherApp = await buildApp(other.ctx);
  await otherApp.ready();
  const calls = [call, client({ ...t, app: otherApp, ctx: other.ctx }, co.key)];
  const close = async () => {
    await otherApp.close();
    await other.close();
  };
  return { co, calls, accountIds, media, close };
}

describeEachDialect('idempotency across replicas', (get, dialect) => {
  test(
    'the same key on two replicas at once makes one post, fifty times over',
    { skip: dialect === 'sqlite' && 'the embedded database serves one process' },
    async () => {
      const t = get();
      const { co, calls, accountIds, media, close } = await twoReplicas(t);
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
        await close();
      }
    },
  );

  test(
    'many keys at once, each to both replicas: one 201 and one 200 for every key',
    { skip: dialect === 'sqlite' && 'the embedded database serves one process' },
    async () => {
      const t = get();
      const { co, calls, accountIds, media, close } = await twoReplicas(t);
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const keys = Array.from({ length: KEYS_PER_ROUND }, (_, i) => `burst-${round}-${i}`);
          const sent = calls.flatMap((c) =>
            shuffled(keys).map(async (key) => ({
              key,
              res: await c(
                'POST',
                '/v2/posts',
                { media, accountIds, caption: key },
                { 'idempotency-key': key },
              ),
            })),
          );
          const byKey = new Map<string, number[]>();
          for (const { key, res } of await Promise.all(sent)) {
            assert.ok(
              res.status === 200 || res.status === 201,
              `round ${round} ${key}: ${res.status} ${JSON.stringify(res.body)}`,
            );
            byKey.set(key, [...(byKey.get(key) ?? []), res.status]);
          }
          for (const [key, statuses] of byKey) {
            assert.deepEqual(statuses.sort(), [200, 201], `round ${round} ${key}`);
          }
        }
        const posts = await t.ctx.db
          .selectFrom('posts')
          .select('id')
          .where('company_id', '=', co.companyId)
          .execute();
        assert.equal(posts.length, ROUNDS * KEYS_PER_ROUND, 'one post per key');
      } finally {
        await close();
      }
    },
  );
});
