// The embedded database serves one long-running process: a second `slotline serve` (or a
// dispatcher loop) on the same DATA_DIR is refused with a clear message, short commands
// keep working beside the service, and a killed service leaves no stale lock behind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/browser.ts';

const run = promisify(execFile);
const BIN = 'bin/slotline.js';
const WAIT_MS = 30_000;

function start(env: NodeJS.ProcessEnv, ...args: string[]): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function untilReady(url: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/v2/openapi.json`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the service at ${url} did not become ready`);
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the process did not exit in time'));
    }, WAIT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('embedded database: one long-running process', { timeout: 120_000 }, () => {
  let dir = '';
  const children: ChildProcess[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'slotline-lock-'));
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  test('a second service or loop is refused; a killed service leaves no lock', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: join(dir, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SIMULATOR: 'off',
    };
    delete env.DATABASE_URL;
    const first = start(env, 'serve');
    children.push(first);
    await untilReady(`http://127.0.0.1:${port}`);

    const second = await exited(start({ ...env, PORT: String(await freePort()) }, 'serve'));
    assert.equal(second.code, 1);
    assert.match(second.stderr, /already running on the embedded database/);
    assert.match(second.stderr, /DATABASE_URL/);
    assert.doesNotMatch(second.stderr, /\n\s+at /, 'no stack trace');

    const loop = await exited(start(env, 'dispatch'));
    assert.equal(loop.code, 1);
    assert.match(loop.stderr, /already running/);

    // Short commands share the database with the running service.
    const { stdout } = await run(process.execPath, [BIN, 'migrate', '--json'], { env });
    assert.deepEqual(JSON.parse(stdout), { applied: [] });

    first.kill('SIGKILL');
    await exited(first).catch(() => undefined);
    const third = start(env, 'serve');
    children.push(third);
    await untilReady(`http://127.0.0.1:${port}`);
  });
});
