// `npm run bench`: every benchmark, each printed beside a baseline measured in
// the same run, and a JSON report under bench/results/. Name suites to run
// only those (`npm run bench -- posts-create render`); `posts` names the four
// posts suites.
import { benchReads } from './reads.ts';
import { benchProbe, benchPut } from './uploads.ts';
import { benchPostsCreate, benchPostsDeep, benchPostsRead, benchRender } from './posts.ts';
import { benchRelease } from './release.ts';
import { benchStartup } from './startup.ts';
import { benchDashboard } from './dashboard.ts';
import { benchS3Upload } from './s3-upload.ts';
import { benchPg } from './pg.ts';
import { benchWebhooks } from './webhooks.ts';
import { benchOperator } from './operator.ts';
import { benchMcp } from './mcp.ts';
import { benchImport } from './import.ts';
import { benchNotify } from './notify.ts';
import { pinSelf, writeReport } from './lib.ts';

pinSelf();
const POSTS = ['posts-read', 'posts-create', 'posts-deep', 'render'];
const args = process.argv.slice(2);
const only = args.flatMap((a) => (a === 'posts' ? POSTS : [a]));
const suites: Record<string, () => Promise<unknown>> = {
  reads: benchReads,
  put: benchPut,
  probe: benchProbe,
  'posts-read': benchPostsRead,
  'posts-create': benchPostsCreate,
  'posts-deep': benchPostsDeep,
  render: benchRender,
  release: benchRelease,
  startup: benchStartup,
  dashboard: benchDashboard,
  s3: benchS3Upload,
  pg: benchPg,
  webhooks: benchWebhooks,
  operator: benchOperator,
  // The MCP server's calls beside REST's, then the CSV import of 1,000 rows.
  mcp: async () => ({ calls: await benchMcp(), import: await benchImport() }),
  // Pushes and mail: the release pass with subscriptions, the outbox's rates, release to push.
  notify: benchNotify,
};
const unknown = only.filter((name) => !(name in suites));
if (unknown.length) throw new Error(`unknown suite ${unknown.join(', ')}`);
const report: Record<string, unknown> = {
  startedAt: new Date().toISOString(),
  node: process.version,
};
for (const [name, fn] of Object.entries(suites)) {
  if (only.length && !only.includes(name)) continue;
  const t0 = performance.now();
  report[name] = await fn();
  console.log(`  (${name}: ${Math.round((performance.now() - t0) / 1000)} s)`);
}
console.log(`\nreport: ${await writeReport('bench', report)}`);
