// `slotline-client import` of 1,000 rows with 10 media files against the same 1,000 posts
// created by plain POST /v2/posts calls, both in this run on one service
// (`bin/slotline.js serve`, SQLite, CPU 0; the command and the load on CPU 1).
//
// - import: the compiled command (sdk/dist) reads the CSV, resolves accounts and tags by
//   name, uploads the 10 files once (signed uploads), then creates 1,000 posts with a key
//   each, 4 at a time; timed from start to exit. The dry run of the same file (uploads
//   and POST /v2/posts/validate per row) is timed the same way.
// - baseline: 1,000 POST /v2/posts with the same bodies and media already uploaded, 4 at
//   a time from this process: what the service takes for the posts alone.
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createTag } from '../src/modules/tags/tags.service.ts';
import { seedBenchCompany } from './posts.ts';
import { startChild, stopChild } from './lib.ts';

const PORT = 18390;
const ROWS = 1000;
const MEDIA = 10;
const AT_ONCE = 4;
const FIXTURES = 'test/fixtures/media';

interface Timed {
  name: string;
  seconds: number;
  rowsPerSecond: number;
}

function timed(name: string, ms: number): Timed {
  const seconds = Math.round(ms) / 1000;
  return { name, seconds, rowsPerSecond: Math.round((ROWS / ms) * 1000 * 10) / 10 };
}

/** Runs the compiled command; resolves with its stderr's last line (the summary). */
function runClient(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['sdk/dist/cli/main.js', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr
      .setEncoding('utf8')
      .on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const last = stderr.trim().split('\n').pop() ?? '';
      if (code === 0) resolve(last);
      else reject(new Error(`slotline-client ${args[0]} exited ${code}: ${stderr}`));
    });
  });
}

export async function benchImport(): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'slotline-bench-import-'));
  const env = { DATA_DIR: dir, PORT: String(PORT), LOG_LEVEL: 'warn' };
  const opened = await openContext(loadConfig(env));
  const { ctx } = opened;
  let secret: string;
  let accountIds: string[];
  try {
    const seeded = await seedBenchCompany(ctx, 4);
    secret = seeded.key.secret;
    accountIds = seeded.accountIds;
    await createTag(ctx, seeded.company.companyId, { name: 'Launch', color: 'blue' });
  } finally {
    await opened.close();
  }
  // Ten media files: five videos and five images, each a file of its own.
  const files: string[] = [];
  for (let i = 0; i < MEDIA; i++) {
    const name = i % 2 ? `photo-${i}.jpg` : `clip-${i}.mp4`;
    await copyFile(join(FIXTURES, i % 2 ? 'image.jpg' : 'h264-aac-faststart.mp4'), join(dir, name));
    files.push(name);
  }
  const header = 'media,accounts,caption,hashtags,tags,priority';
  const rows = Array.from({ length: ROWS }, (_, i) =>
    [
      files[i % MEDIA],
      // bench_0 and bench_2 are platformA, bench_1 and bench_3 platformB (seedBenchCompany).
      `@bench_${i % 2}|@bench_${2 + (i % 2)}`,
      `"Row ${i}: morning routine, part ${i}"`,
      'morning|routine',
      'Launch',
      String(i % 3),
    ].join(','),
  );
  const csv = join(dir, 'posts.csv');
  await writeFile(csv, `${header}\n${rows.join('\n')}\n`);
  const dry = join(dir, 'check.csv');
  await writeFile(dry, `${header}\n${rows.join('\n')}\n`);

  const base = `http://127.0.0.1:${PORT}`;
  const service = await startChild(
    'bin/slotline.js',
    ['serve'],
    { ...process.env, ...env },
    `${base}/v2/openapi.json`,
  );
  const clientEnv = { SLOTLINE_URL: base, SLOTLINE_KEY: secret };
  try {
    let t0 = performance.now();
    const drySummary = await runClient(
      ['import', dry, '--dry-run', '--report', join(dir, 'dry.csv')],
      clientEnv,
    );
    const dryRun = timed(
      'slotline-client import --dry-run (uploads, validate per row)',
      performance.now() - t0,
    );
    t0 = performance.now();
    const importSummary = await runClient(
      ['import', csv, '--report', join(dir, 'report.csv')],
      clientEnv,
    );
    const imported = timed(
      'slotline-client import (uploads, create per row)',
      performance.now() - t0,
    );

    // The baseline: the same posts through POST /v2/posts, media uploaded beforehand.
    const auth = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    const uploadIds: string[] = [];
    for (const name of files) uploadIds.push(await uploadSigned(base, auth, join(dir, name)));
    const bodies = Array.from({ length: ROWS }, (_, i) =>
      JSON.stringify({
        media: [uploadIds[i % MEDIA]],
        accountIds: [accountIds[i % 2], accountIds[2 + (i % 2)]],
        caption: `Row ${i}: morning routine, part ${i}`,
        hashtags: ['morning', 'routine'],
        priority: i % 3,
      }),
    );
    let next = 0;
    t0 = performance.now();
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        for (let i = next++; i < ROWS; i = next++) {
          const res = await fetch(`${base}/v2/posts`, {
            method: 'POST',
            headers: { ...auth, 'idempotency-key': `base-${i}` },
            body: bodies[i],
          });
          await res.arrayBuffer();
          if (res.status !== 201) throw new Error(`POST /v2/posts answered ${res.status}`);
        }
      }),
    );
    const baseline = timed(
      `POST /v2/posts x ${ROWS}, ${AT_ONCE} at a time`,
      performance.now() - t0,
    );
    const ratio = Math.round((imported.rowsPerSecond / baseline.rowsPerSecond) * 1000) / 1000;
    const row = (r: Timed) =>
      `${r.name.padEnd(62)} ${String(r.seconds).padStart(6)} s   ${String(r.rowsPerSecond).padStart(7)} rows/s`;
    console.log(
      `\nimport: ${ROWS} rows, ${MEDIA} media files (5 videos, 5 images), 2 accounts a row`,
    );
    console.log(`  ${row(imported)}   (${importSummary})`);
    console.log(`  ${row(dryRun)}   (${drySummary})`);
    console.log(`  ${row(baseline)}`);
    console.log(`  import ${ratio} of the bare creates' rows/s`);
    return { imported, dryRun, baseline, ratio, importSummary, drySummary };
  } finally {
    await stopChild(service);
    await rm(dir, { recursive: true, force: true });
  }
}

/** A signed upload of one file (create, PUT the bytes, complete): its id once ready. */
async function uploadSigned(
  base: string,
  auth: Record<string, string>,
  path: string,
): Promise<string> {
  const bytes = await readFile(path);
  const video = path.endsWith('.mp4');
  const created = await fetch(`${base}/v2/uploads`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      kind: video ? 'video' : 'image',
      filename: path.split('/').pop(),
      contentType: video ? 'video/mp4' : 'image/jpeg',
      sizeBytes: bytes.length,
    }),
  });
  const { uploadId, uploadUrl } = (await created.json()) as { uploadId: string; uploadUrl: string };
  const put = await fetch(uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': video ? 'video/mp4' : 'image/jpeg' },
    body: bytes,
  });
  await put.arrayBuffer();
  const done = await fetch(`${base}/v2/uploads/${uploadId}/complete`, {
    method: 'POST',
    headers: { authorization: auth.authorization! },
  });
  const upload = (await done.json()) as { status: string };
  if (upload.status !== 'ready') throw new Error(`upload of ${path} is ${upload.status}`);
  return uploadId;
}
