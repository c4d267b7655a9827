// Uploads: (a) PUT of a 200 MB file through the signed upload URL against a bare
// Node server piping the same request to a file, with the service's peak RSS
// growth; (b) validating a 200 MB, ~3 minute MP4 in process against ffprobe.
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { openContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { createCompany } from '../src/modules/companies/companies.service.ts';
import { createKey } from '../src/modules/keys/keys.service.ts';
import { inspectVideo } from '../src/media/probe/index.ts';
import { startChild, stopChild } from './lib.ts';

const CACHE = 'bench/.cache';
const SIZE = 209_715_200;

async function randomFile(path: string, size: number): Promise<void> {
  if (existsSync(path) && (await stat(path)).size === size) return;
  await mkdir(CACHE, { recursive: true });
  const f = await open(path, 'w');
  try {
    for (let written = 0; written < size;) {
      const chunk = randomBytes(Math.min(8 << 20, size - written));
      await f.write(chunk);
      written += chunk.length;
    }
  } finally {
    await f.close();
  }
}

function put(
  url: string,
  file: string,
  headers: Record<string, string>,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
      );
    });
    req.on('error', reject);
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(req);
  });
}

async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

export async function benchPut(): Promise<unknown> {
  const file = join(CACHE, 'put-200mb.bin');
  await randomFile(file, SIZE);
  const dir = await mkdtemp(join(tmpdir(), 'slotline-bench-put-'));
  const port = 18180;
  const env = {
    DATA_DIR: dir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  const opened = await openContext(loadConfig(env));
  const company = await createCompany(opened.ctx.db, opened.ctx.clock, opened.ctx.config.plans, {
    name: 'Bench',
    plan: 'scale',
  });
  const key = await createKey(opened.ctx.db, opened.ctx.clock, {
    companyId: company.companyId,
    scopes: ['posts:write'],
  });
  await opened.close();
  const service = await startChild(
    'bin/slotline.js',
    ['serve'],
    { ...process.env, ...env },
    `http://127.0.0.1:${port}/v2/openapi.json`,
  );
  const bare = await startChild(
    'bench/bare-put-server.ts',
    [join(dir, 'bare.bin')],
    { ...process.env, PORT: String(port + 1) },
    `http://127.0.0.1:${port + 1}/`,
  );
  try {
    const runs: { service: number; bare: number }[] = [];
    const rssBefore = await peakRssMb(service.pid as number);
    for (let i = 0; i < 3; i++) {
      const created = await fetch(`http://127.0.0.1:${port}/v2/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          kind: 'video',
          filename: 'big.mp4',
          contentType: 'video/mp4',
          sizeBytes: SIZE,
        }),
      }).then((r) => r.json() as Promise<{ uploadUrl: string }>);
      const s = await put(created.uploadUrl, file, {
        'content-type': 'video/mp4',
        'content-length': String(SIZE),
      });
      if (s.status !== 200) throw new Error(`service PUT answered ${s.status}`);
      const b = await put(`http://127.0.0.1:${port + 1}/`, file, {
        'content-type': 'video/mp4',
        'content-length': String(SIZE),
      });
      runs.push({ service: s.ms, bare: b.ms });
    }
    const rssGrowth = (await peakRssMb(service.pid as number)) - rssBefore;
    const best = (k: 'service' | 'bare') => Math.min(...runs.map((r) => r[k]));
    const mbps = (ms: number) => Math.round((SIZE / 1048576 / (ms / 1000)) * 10) / 10;
    const ratio = Math.round((best('bare') / best('service')) * 1000) / 1000;
    const result = {
      benchmark: 'PUT 200 MB through the signed upload URL (best of 3)',
      serviceMBps: mbps(best('service')),
      bareMBps: mbps(best('bare')),
      ratio,
      rssGrowthMb: Math.round(rssGrowth * 10) / 10,
      target: 'ratio >= 0.7, RSS growth <= 64 MB',
      pass: ratio >= 0.7 && rssGrowth <= 64,
    };
    console.log(`\n${result.benchmark}`);
    console.log(`  service ${result.serviceMBps} MB/s   bare Node pipe ${result.bareMBps} MB/s`);
    console.log(
      `  ratio ${ratio}, service peak RSS growth ${result.rssGrowthMb} MB (target ${result.target}) ${result.pass ? 'PASS' : 'FAIL'}`,
    );
    return result;
  } finally {
    await stopChild(bare);
    await stopChild(service);
    await rm(dir, { recursive: true, force: true });
  }
}

/** A ~200 MB, 180 s H.264 + AAC MP4 made with the packaged ffmpeg, cached between runs. */
async function bigVideo(): Promise<string> {
  const file = join(CACHE, 'probe-200mb-180s.mp4');
  if (existsSync(file)) return file;
  await mkdir(CACHE, { recursive: true });
  console.log('  (making a 200 MB, 180 s test video once; this takes a minute)');
  const r = spawnSync(
    ffmpeg.path,
    [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x360:rate=30',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
      '-t',
      '180',
      '-vf',
      'noise=alls=60:allf=t',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      '8500k',
      '-maxrate',
      '8500k',
      '-bufsize',
      '4M',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-movflags',
      '+faststart',
      `${file}.partial.mp4`,
    ],
    { stdio: 'inherit', timeout: 600_000 },
  );
  if (r.status !== 0) throw new Error('ffmpeg could not make the test video');
  await import('node:fs/promises').then((fs) => fs.rename(`${file}.partial.mp4`, file));
  return file;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

export async function benchProbe(): Promise<unknown> {
  const file = await bigVideo();
  const size = (await stat(file)).size;
  const declared = { filename: 'big.mp4', contentType: 'video/mp4', sizeBytes: size };
  const ours: number[] = [];
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const r = await inspectVideo(file, declared);
    ours.push(performance.now() - t0);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    if (!r.ok) throw new Error(`the bench video failed validation: ${r.error}`);
  }
  // Baseline: ffprobe where installed; otherwise the packaged ffmpeg reading only the
  // container header (`-i` alone probes the input and exits without decoding).
  const ffprobe = spawnSync('which', ['ffprobe']).stdout.toString().trim();
  const baseline = ffprobe
    ? {
        label: 'ffprobe',
        cmd: ffprobe,
        args: ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file],
      }
    : {
        label: 'packaged ffmpeg -i (header probe)',
        cmd: ffmpeg.path,
        args: ['-hide_banner', '-nostdin', '-i', file],
      };
  const theirs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    spawnSync(baseline.cmd, baseline.args, { stdio: 'ignore' });
    theirs.push(performance.now() - t0);
  }
  const oursMs = Math.round(median(ours) * 100) / 100;
  const theirsMs = theirs.length ? Math.round(median(theirs) * 10) / 10 : null;
  const ratio = theirsMs ? Math.round((theirsMs / oursMs) * 10) / 10 : null;
  const result = {
    benchmark: `validate a ${Math.round(size / 1048576)} MB, 180 s MP4 (median)`,
    inProcessMs: oursMs,
    baseline: baseline.label,
    baselineMs: theirsMs,
    speedup: ratio,
    rssGrowthMb: Math.round(((rssPeak - rssBefore) / 1048576) * 10) / 10,
    target: `at least 5x faster than ${baseline.label}`,
    pass: ratio === null ? null : ratio >= 5,
  };
  console.log(`\n${result.benchmark}`);
  console.log(`  in process ${oursMs} ms   ${baseline.label} ${theirsMs} ms`);
  console.log(
    `  ${ratio}x faster (target ${result.target}), RSS growth ${result.rssGrowthMb} MB ${result.pass === false ? 'FAIL' : result.pass ? 'PASS' : ''}`,
  );
  return result;
}
