// Runs the mail test files against a real mail server: starts Debian's Exim on loopback
// (scripts/mta-exim/start.sh, installed with apt when missing), runs the test files that
// read what people are mailed with SLOTLINE_TEST_SMTP_URL and SLOTLINE_TEST_MAILDIR set,
// then stops Exim whatever happened. Exits non-zero if any failed.
// Usage: npm run test:mta   (env passed on: SLOTLINE_FROM_SOURCE, SLOTLINE_EXIM_PORT, ...)
import { spawnSync } from 'node:child_process';

/** The files whose mail goes through the mailbox helper, which reads the MTA's maildir. */
const FILES = ['test/pages/kit/forgot.test.ts', 'test/pages/company/users-mail.test.ts'];
const env = {
  ...process.env,
  SLOTLINE_EXIM_DIR: process.env.SLOTLINE_EXIM_DIR ?? '/tmp/slotline-exim-test',
  SLOTLINE_EXIM_PORT: process.env.SLOTLINE_EXIM_PORT ?? '18025',
};
const START_MS = 5 * 60_000;
const TESTS_MS = 15 * 60_000;

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

let status = 1;
try {
  const start = spawnSync('scripts/mta-exim/start.sh', [], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
    timeout: START_MS,
    killSignal: 'SIGKILL',
    encoding: 'utf8',
  });
  const found = Object.fromEntries(
    (start.stdout ?? '')
      .split('\n')
      .filter((l) => l.startsWith('SLOTLINE_TEST_'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  if (start.status !== 0 || !found.SLOTLINE_TEST_SMTP_URL || !found.SLOTLINE_TEST_MAILDIR) {
    console.error(`scripts/mta-exim/start.sh failed (${start.error?.message ?? start.status})`);
  } else {
    status = run(process.execPath, ['scripts/run-tests.js', ...FILES], TESTS_MS, found);
  }
} finally {
  run('scripts/mta-exim/stop.sh', [], 60_000);
}
process.exit(status);
