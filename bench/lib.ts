// Shared pieces of the benchmarks: child servers pinned to one core, autocannon
// runs, and a report printed beside its same-run baseline.
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /**
   * CPU time the server process spent per request (user + system, all threads),
   * when its pid is known: steadier than requests/s on a shared machine, since
   * time the server waits for a core is not counted.
   */
  cpuMsPerRequest?: number;
}

/** User + system CPU seconds of a process so far, from /proc (Linux), or NaN. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * Starts an entry in a child process, pinned to CPU 0 when taskset exists: TypeScript through
 * tsx, JavaScript (bin/slotline.js, which runs the compiled dist/) as production runs it.
 */
export async function startChild(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  readyUrl: string,
): Promise<ChildProcess> {
  // BENCH_CPU_PROF=<dir> profiles the children (written when they exit on SIGTERM).
  const profile = env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_CPU_PROF}`] : [];
  const child = fork(entry, args, {
    env,
    execArgv: [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), ...profile],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  if (child.pid) {
    spawnSync('taskset', ['-a', '-p', '-c', '0', String(child.pid)], { stdio: 'ignore' });
  }
  let output = '';
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${entry} exited with ${child.exitCode}:\n${output}`);
    }
    try {
      await fetch(readyUrl);
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} did not start in 30 s`);
}

export async function stopChild(child: ChildProcess): Promise<void> {
  // Ended already (by itself or a signal): no 'exit' event would come.
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.removeAllListeners('exit');
  await new Promise<void>((resolve) => {
    // A profiled child writes its profile on the way out, which takes a while.
    const t = setTimeout(() => child.kill('SIGKILL'), process.env.BENCH_CPU_PROF ? 60_000 : 5000);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface LoadOptions {
  connections?: number;
  duration?: number;
  method?: 'GET' | 'POST';
  body?: string;
  /** Per-request changes (unique bodies, keys or paths); see autocannon's `requests`. */
  requests?: autocannon.Request[];
  /** The server's pid, to report its CPU time per request. */
  pid?: number;
}

export async function load(
  name: string,
  url: string,
  headers: Record<string, string>,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const cpuBefore = options.pid ? cpuSeconds(options.pid) : NaN;
  const result = await autocannon({
    url,
    headers,
    method: options.method ?? 'GET',
    body: options.body,
    requests: options.requests,
    connections: options.connections ?? 16,
    duration: options.duration ?? 6,
  });
  return {
    name,
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ...(options.pid
      ? {
          cpuMsPerRequest:
            Math.round(
              ((cpuSeconds(options.pid) - cpuBefore) * 1e6) / Math.max(1, result.requests.total),
            ) / 1000,
        }
      : {}),
  };
}

/** Warms a target for a moment so JIT and caches settle before measuring. */
export async function warm(
  url: string,
  headers: Record<string, string>,
  options: LoadOptions = {},
): Promise<void> {
  await autocannon({
    url,
    headers,
    method: options.method ?? 'GET',
    body: options.body,
    requests: options.requests,
    connections: options.connections ?? 8,
    duration: options.duration ?? 2,
  });
}

export interface Comparison {
  benchmark: string;
  subject: LoadResult;
  baseline: LoadResult;
  ratio: number;
  target: string;
  pass: boolean;
}

export function compare(
  benchmark: string,
  subject: LoadResult,
  baseline: LoadResult,
  minRatio: number,
): Comparison {
  const ratio = subject.requestsPerSec / baseline.requestsPerSec;
  return {
    benchmark,
    subject,
    baseline,
    ratio: Math.round(ratio * 1000) / 1000,
    target: `>= ${minRatio} of baseline requests/s`,
    pass: ratio >= minRatio && subject.non2xx === 0 && subject.errors === 0,
  };
}

export function printComparison(c: Comparison): void {
  const row = (r: LoadResult) =>
    `${r.name.padEnd(34)} ${String(r.requestsPerSec).padStart(8)} req/s   p99 ${String(r.p99Ms).padStart(4)} ms   non-2xx ${r.non2xx}` +
    (r.cpuMsPerRequest === undefined ? '' : `   CPU ${r.cpuMsPerRequest} ms/req`);
  console.log(`\n${c.benchmark}`);
  console.log(`  ${row(c.subject)}`);
  console.log(`  ${row(c.baseline)}`);
  console.log(`  ratio ${c.ratio} (target ${c.target}) ${c.pass ? 'PASS' : 'FAIL'}`);
}

export async function writeReport(name: string, data: unknown): Promise<string> {
  await mkdir('bench/results', { recursive: true });
  const file = `bench/results/${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  await writeFile(file, JSON.stringify(data, null, 2));
  return file;
}

/** The run with the median requests/s. */
export function median(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
  return sorted[Math.floor(sorted.length / 2)] as LoadResult;
}

/** Pins this process (the load generator) to CPU 1, away from the servers on CPU 0. */
export function pinSelf(): void {
  spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
}
