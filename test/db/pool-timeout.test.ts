// With the PostgreSQL server unreachable (here: a socket that accepts and never answers), a
// query fails after the connection timeout instead of waiting forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect.ts';

test('a query fails within the connection timeout when the server never answers', async () => {
  const sockets: Socket[] = [];
  const silent = createServer((s) => sockets.push(s));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as { port: number }).port;
  const handle = connect({
    databaseUrl: `postgres://postgres@127.0.0.1:${port}/none`,
    dataDir: '/nonexistent',
    connectTimeoutMs: 300,
  });
  try {
    const started = Date.now();
    await assert.rejects(sql`select 1`.execute(handle.db), /timeout/i);
    assert.ok(Date.now() - started < 5_000, `failed after ${Date.now() - started} ms`);
  } finally {
    for (const s of sockets) s.destroy();
    await handle.close();
    await new Promise((resolve) => silent.close(resolve));
  }
});
