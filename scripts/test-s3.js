// Runs the S3 test files against a real S3 server: starts a local Swift with s3api
// (scripts/s3-swift/start.sh), runs the smoke check and the matching test files with
// SLOTLINE_TEST_S3_URL set, then stops Swift whatever happened. Exits non-zero if any failed.
// Usage: npm run test:s3   (env passed on: SLOTLINE_FROM_SOURCE, SLOTLINE_SWIFT_PORT, ...)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Test files whose name matches run against the real server; the others do not need it. */
const S3_TEST_FILE_NAME = /s3|blob-store/;
// Its own state dir and port, so stopping at the end never takes down a Swift started by hand.
const env = {
  ...process.env,
  SLOTLINE_SWIFT_DIR: process.env.SLOTLINE_SWIFT_DIR ?? '/tmp/slotline-swift-test',
  SLOTLINE_SWIFT_PORT: process.env.SLOTLINE_SWIFT_PORT ?? '18180',
};
// Bounds: start includes an apt install on a fresh machine; the suite's own per-file limit
// (scripts/run-tests.js) is 420 s, two files at a time.
const START_MS = 5 * 60_000;
const SMOKE_MS = 2 * 60_000;
const TESTS_MS = 20 * 60_000;

function collect(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return collect(path);
    return name.endsWith('.test.ts') && S3_TEST_FILE_NAME.test(name) ? [path] : [];
  });
}

function run(command, args, timeout, extraEnv = {}) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, ...extraEnv },
    timeout,
    killSignal: 'SIGKILL',
  });
  if (result.error) console.error(`${command}: ${result.error.message}`);
  return result.status ?? 1;
}

const files = collect('test').sort();
let status = 1;
try {
  const start = spawnSync('scripts/s3-swift/start.sh', [], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
    timeout: START_MS,
    killSignal: 'SIGKILL',
    encoding: 'utf8',
  });
  const line = (start.stdout ?? '').split('\n').find((l) => l.startsWith('SLOTLINE_TEST_S3_URL='));
  if (start.status !== 0 || !line) {
    console.error(`scripts/s3-swift/start.sh failed (${start.error?.message ?? start.status})`);
  } else {
    const s3 = { SLOTLINE_TEST_S3_URL: line.slice('SLOTLINE_TEST_S3_URL='.length) };
    const smoke = run(
      process.execPath,
      ['--import', 'tsx', 'scripts/s3-swift/smoke.ts'],
      SMOKE_MS,
      s3,
    );
    // The test files run even after a failed smoke check: their failures say more.
    let tests = 0;
    if (files.length === 0) console.error(`no test file matches ${S3_TEST_FILE_NAME}`);
    else tests = run(process.execPath, ['scripts/run-tests.js', ...files], TESTS_MS, s3);
    status = smoke || tests;
  }
} finally {
  run('scripts/s3-swift/stop.sh', [], 60_000);
}
process.exit(status);
