// When each API key was last used: noted on every authenticated request, written in a batch,
// only ever moving forward; a refused request notes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDialect } from '../../helpers/dialects.ts';
import { client, seedCompany } from '../../helpers/app.ts';
import { listKeys } from '../../../src/modules/keys/keys.service.ts';

describeEachDialect('key last used', (get) => {
  test('a request moves the key’s last use forward once flushed; refusals note nothing', async () => {
    const t = get();
    const co = await seedCompany(t);
    const other = await co.keyWith(['usage:read']);
    const lastUsed = async () =>
      new Map((await listKeys(t.ctx.db, co.companyId)).map((k) => [k.prefix, k.lastUsedAt]));
    const prefixOf = (secret: string) => secret.split('_')[1] as string;

    assert.deepEqual([...(await lastUsed()).values()], [null, null]);
    const first = t.clock.now().toISOString();
    assert.equal((await client(t, co.key)('GET', '/v2/usage')).status, 200);
    // Refused for its scope: the key was not used for anything.
    assert.equal((await client(t, other)('GET', '/v2/content-tags')).status, 403);
    assert.equal((await lastUsed()).get(prefixOf(co.key)), null, 'not written before a flush');
    await t.ctx.keyUse.flush();
    let seen = await lastUsed();
    assert.equal(seen.get(prefixOf(co.key)), first);
    assert.equal(seen.get(prefixOf(other)), null);

    t.clock.advance(60_000);
    assert.equal((await client(t, other)('GET', '/v2/usage')).status, 200);
    await t.ctx.keyUse.flush();
    seen = await lastUsed();
    assert.equal(seen.get(prefixOf(other)), t.clock.now().toISOString());
    assert.equal(seen.get(prefixOf(co.key)), first);
  });
});
