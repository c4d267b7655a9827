// Start-up of the `slotline` command and the service against starting a bare Node process
// (`node -e 0`), the floor every command pays, measured in the same run and interleaved
// round by round so that load from elsewhere on the machine hits all of them alike.
// CPU time (user + system of the child, from bash's `times`) is reported beside wall time
// because it is the steadier figure on a shared machine.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PORT = 18090;
/** The targets for `slotline --help` on this machine. */
const HELP_WALL_S = 0.3;
const HELP_CPU_S = 0.6;

interface Sample {
  wallS: number;
  cpuS: number;
}

export interface StartupFigure {
  name: string;
  wallS: number;
  cpuS: number;
  /** Median wall time over the baseline's median wall time. */
  wallRatio: number;
}

/** Runs a command to completion; its wall time and its CPU time (user + system). */
function timeCommand(argv: string[], env: NodeJS.ProcessEnv): Sample {
  const t0 = performance.now();
  // bash's `times` prints its children's accumulated user and system time on its 2nd line.
  const r = spawnSync(
    'bash',
    ['-c', '"$@" >/dev/null; code=$?; times >&2; exit $code', 'bash', ...argv],
    {
      env,
      encoding: 'utf8',
    },
  );
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited with ${r.status}:\n${r.stderr}`);
  const line = r.stderr.trim().split('\n').at(-1) ?? '';
  const [user, sys] = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map(
    (m) => Number(m[1]) * 60 + Number(m[2]),
  );
  return { wallS, cpuS: (user ?? NaN) + (sys ?? NaN) };
}

/** Spawns `slotline serve` and times it until it logs that it is ready; then stops it. */
async function timeServe(env: NodeJS.ProcessEnv): Promise<Sample> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/slotline.js', 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const sample = await new Promise<Sample>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('slotline is ready')) {
        resolve({ wallS: (performance.now() - t0) / 1000, cpuS: cpuSeconds(child.pid ?? 0) });
      }
    });
  });
  child.removeAllListeners('exit');
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  return sample;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export async function benchStartup(): Promise<StartupFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-bench-startup-'));
  const env = {
    ...process.env,
    DATA_DIR: dir,
    PORT: String(PORT),
    LOG_LEVEL: 'info',
    NODE_OPTIONS: '',
  };
  const node = process.execPath;
  const cases: Record<string, () => Promise<Sample> | Sample> = {
    'node -e 0 (baseline)': () => timeCommand([node, '-e', '0'], env),
    'slotline --help': () => timeCommand([node, 'bin/slotline.js', '--help'], env),
    'slotline key list --json': () =>
      timeCommand([node, 'bin/slotline.js', 'key', 'list', '--json'], env),
    'slotline serve, spawn to ready': () => timeServe(env),
  };
  const samples: Record<string, Sample[]> = {};
  try {
    timeCommand([node, 'bin/slotline.js', 'migrate'], env);
    // One unmeasured round warms the file cache.
    for (const run of Object.values(cases)) await run();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of Object.entries(cases)) {
        (samples[name] ??= []).push(await run());
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const base = median((samples['node -e 0 (baseline)'] ?? []).map((s) => s.wallS));
  const figures = Object.entries(samples).map(([name, list]) => {
    const wallS = median(list.map((s) => s.wallS));
    const cpuS = median(list.map((s) => s.cpuS));
    return { name, wallS, cpuS, wallRatio: Math.round((wallS / base) * 10) / 10 };
  });
  console.log(`\nstart-up (median of ${ROUNDS} rounds; wall, CPU user+sys, wall / baseline)`);
  for (const f of figures) {
    console.log(
      `  ${f.name.padEnd(34)} ${f.wallS.toFixed(3)} s wall  ${f.cpuS.toFixed(3)} s CPU  x${f.wallRatio}`,
    );
  }
  const help = figures.find((f) => f.name === 'slotline --help');
  if (help) {
    const pass = help.wallS < HELP_WALL_S && help.cpuS < HELP_CPU_S;
    console.log(
      `  --help target: < ${HELP_WALL_S} s wall and < ${HELP_CPU_S} s CPU ${pass ? 'PASS' : 'FAIL'}`,
    );
  }
  return figures;
}
