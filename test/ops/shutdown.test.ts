// Graceful shutdown of a real `slotline serve` process: SIGTERM in the middle of a slow
// signed upload and a burst of API requests. Readiness answers 503 during the drain,
// every request under way gets its normal answer, the upload's bytes are all stored (and
// `complete` finds the upload whole after a restart), and the process exits 0 in time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request, Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describeEachDialect } from '../helpers/dialects.ts';
import { seedCompany } from '../helpers/app.ts';
import { freePort } from '../helpers/browser.ts';
import { fixture } from '../helpers/uploads.ts';

const BIN = fileURLToPath(new URL('../../bin/slotline.js', import.meta.url));
const START_TIMEOUT_MS = 60_000;
const SHUTDOWN_DELAY_MS = 1_500;
const SHUTDOWN_TIMEOUT_MS = 20_000;
const BURST = 50;

interface Served {
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

async function serve(env: NodeJS.ProcessEnv): Promise<Served> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
    (resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS + 60_000);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, at: Date.now() });
      });
    },
  );
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const r = await send(base, 'GET', '/readyz').catch(() => null);
    if (r?.status === 200) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`serve did not become ready:\n${out}`);
    }
    await sleep(200);
  }
  return { child, base, output: () => out, exited };
}

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One request on a fresh connection unless an agent is given; bounded by a timeout. */
function send(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; agent?: Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method, headers: options.headers, agent: options.agent ?? false, timeout: 30_000 },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A PUT whose body arrives in `parts` pieces, `gapMs` apart. */
function slowPut(url: string, bytes: Buffer, contentType: string, parts: number, gapMs: number) {
  let sent = 0;
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'PUT',
        agent: false,
        timeout: 60_000,
        headers: { 'content-type': contentType, 'content-length': String(bytes.length) },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('slow PUT timed out')));
    req.on('error', reject);
    const size = Math.ceil(bytes.length / parts);
    const next = () => {
      const chunk = bytes.subarray(sent, sent + size);
      sent += chunk.length;
      if (sent >= bytes.length) req.end(chunk);
      else {
        req.write(chunk);
        setTimeout(next, gapMs);
      }
    };
    next();
  });
  return { answer, sentBytes: () => sent };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describeEachDialect('graceful shutdown', (get) => {
  test('SIGTERM drains: readiness fails, requests and the upload finish, exit 0', async (ctx) => {
    const t = get();
    const { key } = await seedCompany(t);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SLOTLINE_FROM_SOURCE: '1',
      DATA_DIR: t.config.dataDir,
      DATABASE_URL: t.config.databaseUrl ?? '',
      LOG_LEVEL: 'info',
      SIMULATOR: 'off',
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    };
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const bytes = await fixture('image.jpg');

    const first = await serve(env);
    let upload: { uploadId: string };
    try {
      const created = await send(first.base, 'POST', '/v2/uploads', {
        headers: auth,
        body: JSON.stringify({
          kind: 'image',
          filename: 'image.jpg',
          contentType: 'image/jpeg',
          sizeBytes: bytes.length,
        }),
      });
      assert.equal(created.status, 201, created.body);
      upload = JSON.parse(created.body);
      const uploadUrl = JSON.parse(created.body).uploadUrl as string;

      // The upload takes about 4.4 s: it outlives the delay and the listener's close.
      const put = slowPut(uploadUrl, bytes, 'image/jpeg', 12, 400);
      await sleep(300);

      // The burst: each request on a connection of its own, all connected before SIGTERM.
      const agent = new Agent({ keepAlive: true });
      const answeredAt: number[] = [];
      const burst = Array.from({ length: BURST }, (_, i) =>
        send(first.base, 'GET', i % 2 ? '/v2/accounts' : '/v2/usage', {
          headers: auth,
          agent,
        }).then((a) => {
          answeredAt.push(Date.now());
          return a;
        }),
      );
      await Promise.race(burst);
      const signalledAt = Date.now();
      assert.ok(first.child.kill('SIGTERM'));

      // Readiness fails during the drain; then the listener refuses new connections.
      const probes: (number | 'refused')[] = [];
      const probeDeadline = Date.now() + SHUTDOWN_TIMEOUT_MS;
      while (Date.now() < probeDeadline) {
        const r = await send(first.base, 'GET', '/readyz').catch(() => null);
        probes.push(r ? r.status : 'refused');
        if (!r) break;
        await sleep(100);
      }
      assert.ok(probes.includes(503), `readiness answered ${probes.join(',')}`);
      // A probe may reach the process before its signal handler has run; once it
      // answered 503, it never passes again.
      const draining = probes.slice(probes.indexOf(503));
      assert.ok(!draining.includes(200), `readiness never passes once draining: ${probes}`);
      assert.equal(probes.at(-1), 'refused', 'the listener closes after the delay');

      const answers = await Promise.allSettled(burst);
      const failed = answers.filter((a) => a.status === 'rejected');
      assert.deepEqual(failed, [], 'no request of the burst was lost or reset');
      for (const a of answers) {
        assert.equal((a as PromiseFulfilledResult<Answer>).value.status, 200);
      }
      agent.destroy();

      const putAnswer = await put.answer;
      assert.equal(put.sentBytes(), bytes.length);
      assert.equal(putAnswer.status, 200, putAnswer.body);
      assert.equal(JSON.parse(putAnswer.body).receivedBytes, bytes.length);
      assert.equal(putAnswer.headers.connection, 'close', 'draining answers close the connection');

      const exit = await first.exited;
      ctx.diagnostic(
        `burst answered after SIGTERM: ${answeredAt.filter((a) => a >= signalledAt).length}/${BURST}; ` +
          `readiness probes: ${probes.join(',')}; exit ${exit.at - signalledAt} ms after SIGTERM`,
      );
      assert.deepEqual([exit.code, exit.signal], [0, null], first.output());
      const took = exit.at - signalledAt;
      assert.ok(took < SHUTDOWN_TIMEOUT_MS, `exited ${took} ms after SIGTERM`);
      assert.match(first.output(), /shut down cleanly/);
    } finally {
      first.child.kill('SIGKILL');
    }

    // After a restart, `complete` finds every byte: the upload becomes ready.
    const second = await serve(env);
    try {
      const complete = await send(second.base, 'POST', `/v2/uploads/${upload.uploadId}/complete`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(complete.status, 200, complete.body);
      assert.equal(JSON.parse(complete.body).status, 'ready');
      second.child.kill('SIGTERM');
      assert.equal((await second.exited).code, 0);
    } finally {
      second.child.kill('SIGKILL');
    }
  });
});
