// Verified keys are kept between requests; a revocation or a plan change made
// anywhere (this process, another one, a hand-written statement) must still
// reach every process. On PostgreSQL the other processes learn of it by a
// notification, so they refuse the key within moments of the commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { buildApp } from '../../src/app.ts';
import { openContext } from '../../src/bootstrap.ts';
import { createKey, revokeKey } from '../../src/modules/keys/index.ts';

/** Polls `check` until it holds, for up to two seconds. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + 2000;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describeEachDialect('verified keys across processes', (get, dialect) => {
  test('a key revoked in this process is refused at once', async () => {
    const t = get();
    const co = await seedCompany(t);
    const key = await createKey(t.ctx.db, t.ctx.clock, {
      companyId: co.companyId,
      scopes: ['posts:read'],
    });
    const call = client(t, key.secret);
    for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/v2/content-tags')).status, 200);
    await revokeKey(t.ctx.db, t.ctx.clock, key.keyId);
    assert.equal((await call('GET', '/v2/content-tags')).status, 401);
  });

  test(
    'a key revoked by another process or by hand is refused by this one',
    { skip: dialect === 'sqlite' && 'the embedded database serves one process', timeout: 30_000 },
    async () => {
      const t = get();
      const co = await seedCompany(t);
      const other = await openContext(t.config, { clock: t.clock, skipMigrations: true });
      const otherApp = await buildApp(other.ctx);
      await otherApp.ready();
      try {
        const replica = { ...t, app: otherApp, ctx: other.ctx };
        for (const by of ['replica', 'hand'] as const) {
          const key = await createKey(t.ctx.db, t.ctx.clock, {
            companyId: co.companyId,
            scopes: ['posts:read'],
          });
          const call = client(t, key.secret);
          for (let i = 0; i < 3; i++) {
            assert.equal((await call('GET', '/v2/content-tags')).status, 200);
          }
          if (by === 'replica') await revokeKey(other.ctx.db, t.ctx.clock, key.keyId);
          else {
            await sql`update api_keys set revoked_at = 'x' where id = ${key.keyId}`.execute(
              other.ctx.db,
            );
          }
          assert.ok(
            await eventually(async () => (await call('GET', '/v2/content-tags')).status === 401),
            `revoked by ${by}`,
          );
          // Still refused: nothing brings the verified key back.
          assert.equal((await call('GET', '/v2/content-tags')).status, 401);
          assert.equal((await client(replica, key.secret)('GET', '/v2/content-tags')).status, 401);
        }
      } finally {
        await otherApp.close();
        await other.close();
      }
    },
  );
});
