// Runs every test file under test/ with Node's test runner (TypeScript through tsx).
// Usage: node scripts/run-tests.js [filter-substring...]
// Suites that spawn `bin/slotline.js` run the compiled dist/ (and sdk/dist/), so this builds them first: a
// stale build is never what gets tested. With SLOTLINE_FROM_SOURCE=1 (passed on to the
// children) they run src/ through tsx instead, and nothing is built.
// A file may take as long as the longest timeout its tests declare (the CLI suites spawn
// a process per command and declare up to 400 s), so the file limit is above that.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') continue;
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = collect('test')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
if (process.env.SLOTLINE_FROM_SOURCE !== '1') {
  const tsc = join('node_modules', 'typescript', 'bin', 'tsc');
  // The service's dist imports the SDK's import format (`@slotline/sdk/import`) from
  // sdk/dist, and is type-checked against its declarations there, so the SDK is built
  // first, as `npm run build` does.
  for (const project of ['sdk/tsconfig.json', 'tsconfig.build.json']) {
    const build = spawnSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit' });
    if (build.status !== 0) {
      console.error('the build (npm run build) failed; no tests were run');
      process.exit(build.status ?? 1);
    }
  }
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=420000', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
