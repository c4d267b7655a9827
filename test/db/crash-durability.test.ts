// Crash durability (reliability I5): a service process is killed with SIGKILL while posts are
// being created, and started again on the same data, five times over. Every create it
// acknowledged is still there after the restart, a repeated Idempotency-Key never makes a
// second post, and the embedded database passes its integrity check. The time from restart
// to the first healthy answer is printed, not asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import { describeEachDialect } from '../helpers/dialects.ts';
import { client, seedCompany } from '../helpers/app.ts';
import { makeAccounts, readyUpload } from '../helpers/posts.ts';

const BIN = fileURLToPath(new URL('../../bin/slotline.js', import.meta.url));
const ROUNDS = 5;
const IN_FLIGHT = 16;
const START_TIMEOUT_MS = 30_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startService(env: NodeJS.ProcessEnv, base: string) {
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited: ${stderr}`);
    if (Date.now() - started > START_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`service did not answer within ${START_TIMEOUT_MS} ms: ${stderr}`);
    }
    try {
      const res = await fetch(`${base}/v2/openapi.json`);
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return { child, exited, healthyAfterMs: Date.now() - started };
}

describeEachDialect('crash durability', (get, dialect) => {
  test('SIGKILL during creates loses no acknowledged post and duplicates none', async (ctx) => {
    const t = get();
    const co = await seedCompany(t, { plan: 'scale' });
    const call = client(t, co.key);
    const accountIds = await makeAccounts(call, 3);
    const media = [await readyUpload(t, call, 'h264-noaudio.mp4')];
    await t.media.idle();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: t.config.dataDir,
      DATABASE_URL: t.config.databaseUrl ?? '',
      SLOTLINE_SECRET: t.config.secret ?? '',
      DISPATCH_INTERVAL_MS: '0',
      SIMULATOR: 'off',
      LOG_LEVEL: 'fatal',
    };
    const headers = { authorization: `Bearer ${co.key}`, 'content-type': 'application/json' };
    const create = (key: string) =>
      fetch(`${base}/v2/posts`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': key },
        body: JSON.stringify({ media, accountIds, skipApproval: true, caption: key }),
      });
    const acked = new Map<string, string>(); // idempotency key -> postId
    const healthy: number[] = [];
    let running: Awaited<ReturnType<typeof startService>> | null = null;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        running = await startService(env, base);
        healthy.push(running.healthyAfterMs);
        let n = 0;
        let stop = false;
        const worker = async () => {
          while (!stop) {
            const key = `r${round}-${n++}`;
            try {
              const res = await create(key);
              const body = (await res.json()) as { postId?: string };
              if (res.status === 201 && body.postId) acked.set(key, body.postId);
            } catch {
              return; // The process is gone; whatever was in flight is unacknowledged.
            }
          }
        };
        const workers = Array.from({ length: IN_FLIGHT }, worker);
        await new Promise((r) => setTimeout(r, 300 + round * 150));
        running.child.kill('SIGKILL');
        stop = true;
        await running.exited;
        await Promise.all(workers);
      }
      running = await startService(env, base);
      healthy.push(running.healthyAfterMs);
      assert.ok(acked.size > 0, 'some creates were acknowledged before the kills');
      for (const [key, postId] of acked) {
        const res = await fetch(`${base}/v2/posts/${postId}`, { headers });
        assert.equal(res.status, 200, `acknowledged post ${postId} (${key}) is there`);
      }
      // Repeating a sample of acknowledged keys returns the same post, never a second one.
      for (const [key, postId] of [...acked].slice(0, 50)) {
        const res = await create(key);
        assert.equal(res.status, 200, `replay of ${key}`);
        assert.equal(((await res.json()) as { postId: string }).postId, postId);
      }
      const posts = await t.ctx.db
        .selectFrom('posts')
        .select('caption')
        .where('company_id', '=', co.companyId)
        .execute();
      const captions = posts.map((p) => p.caption);
      assert.equal(new Set(captions).size, captions.length, 'one post per Idempotency-Key');
      ctx.diagnostic(
        `${dialect}: ${acked.size} acknowledged creates over ${ROUNDS} kills; ` +
          `first healthy answer after start: ${healthy.join(', ')} ms`,
      );
    } finally {
      if (running) {
        running.child.kill('SIGKILL');
        await running.exited;
      }
    }
    if (dialect === 'sqlite') {
      const file = new SqliteDatabase(join(t.config.dataDir, 'slotline.db'), { readonly: true });
      try {
        assert.equal(file.pragma('integrity_check', { simple: true }), 'ok');
      } finally {
        file.close();
      }
    }
  });
});
