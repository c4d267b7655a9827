// `npm run bench`: every benchmark, each printed beside a baseline measured in
// the same run, and a JSON report under bench/results/.
import { benchReads } from './reads.ts';
import { benchProbe, benchPut } from './uploads.ts';
import { pinSelf, writeReport } from './lib.ts';

pinSelf();
const only = process.argv.slice(2);
const suites: Record<string, () => Promise<unknown>> = {
  reads: benchReads,
  put: benchPut,
  probe: benchProbe,
};
const report: Record<string, unknown> = {
  startedAt: new Date().toISOString(),
  node: process.version,
};
for (const [name, fn] of Object.entries(suites)) {
  if (only.length && !only.includes(name)) continue;
  report[name] = await fn();
}
console.log(`\nreport: ${await writeReport('bench', report)}`);
