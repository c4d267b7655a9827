// Real service processes (`slotline serve`) on one PostgreSQL database, for the replica
// tests: each on a loopback port of its own, started together, stopped with SIGTERM (then
// SIGKILL past a bound) when the suite ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './browser.ts';

const BIN = 'bin/slotline.js';
const READY_MS = 60_000;
const STOP_MS = 15_000;

export interface Replica {
  url: string;
  child: ChildProcess;
  /** The tail of what the process wrote (its log), for a failing assertion's message. */
  stderr(): string;
}

export interface Replicas {
  replicas: Replica[];
  stop(): Promise<void>;
}

async function untilReady(replica: Replica): Promise<void> {
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline) {
    if (replica.child.exitCode !== null) {
      throw new Error(`replica ${replica.url} exited at start: ${replica.stderr()}`);
    }
    try {
      if ((await fetch(`${replica.url}/v2/openapi.json`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`replica ${replica.url} was not ready within ${READY_MS} ms`);
}

function stopOne(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `n` service processes with `env` (DATABASE_URL, storage, ...) and what `own` adds for
 * each, and waits for each.
 */
export async function startReplicas(
  n: number,
  env: NodeJS.ProcessEnv,
  own: (index: number) => NodeJS.ProcessEnv = () => ({}),
): Promise<Replicas> {
  const replicas: Replica[] = [];
  for (let i = 0; i < n; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        ...env,
        ...own(i),
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The service logs to stdout (pino) and reports start-up failures on stderr: keep the tail.
    let stderr = '';
    const keep = (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-16_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    replicas.push({ url, child, stderr: () => stderr });
  }
  const stop = async () => {
    await Promise.all(replicas.map((r) => stopOne(r.child)));
  };
  try {
    await Promise.all(replicas.map(untilReady));
  } catch (err) {
    await stop();
    throw err;
  }
  return { replicas, stop };
}

export interface HttpAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/** An API client of one replica with a bearer key. */
export function api(base: string, key: string) {
  return async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      body: type.includes('json') ? JSON.parse(text) : text,
      headers: res.headers,
    };
  };
}

/** With SLOTLINE_REPLICA_LOGS=1, prints each replica's log tail, to see why a case failed. */
export function printLogs(running: Replicas): void {
  if (process.env.SLOTLINE_REPLICA_LOGS !== '1') return;
  for (const r of running.replicas) console.error(`--- ${r.url}\n${r.stderr()}`);
}
