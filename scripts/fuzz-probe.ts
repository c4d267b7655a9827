// Mutation fuzzer for the media probes (src/media/probe).
//
//   node --import tsx scripts/fuzz-probe.ts [--runs N] [--seconds S] [--seed X] [--no-decode]
//
// Feeds mutated and truncated copies of the committed fixtures (test/fixtures/media)
// to the MP4/MOV and image probes through real files and checks that every input ends
// in a typed outcome, with no parser defect, within the per-input time limit, and that
// the heap stays bounded. It is also differential (issue 9): every mutated video the
// probe calls valid is handed to the packaged ffmpeg, which must decode its first frame;
// a file the probe accepts and ffmpeg cannot decode is a disagreement. Defaults: 10,000
// runs or an hour, whichever comes first; `--no-decode` skips ffmpeg for long
// crash-only runs. The seed is printed so any run can be repeated. Failing inputs and
// disagreements are written to test/fixtures/media/regressions/, which the test suite
// replays.
//
// The mutation model (scripts/fuzz-mutations.ts) is shared with the fast-check
// properties in npm test, so the short CI runs and this long run explore the same space.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { probeImageSource, inspectImage } from '../src/media/probe/image.ts';
import { probeMp4Source } from '../src/media/probe/mp4.ts';
import { FileSource, bufferSource } from '../src/media/probe/source.ts';
import { checkVideoInfo, inspectVideo } from '../src/media/probe/video-rules.ts';
import { decodeFirstFrame } from './fuzz-decode.ts';
import {
  REGRESSIONS,
  applyMutations,
  describeMutations,
  loadSeeds,
  prng,
  randomMutation,
} from './fuzz-mutations.ts';
import type { Seed } from './fuzz-mutations.ts';

/** Per-input limit (reliability target E2). */
export const INPUT_LIMIT_MS = 200;
/** Heap growth limit over a whole run (reliability target E2). */
export const HEAP_LIMIT_BYTES = 50 * 1024 * 1024;

export interface RunResult {
  elapsedMs: number;
  /** Why the input counts as a failure, or null. */
  failure: string | null;
  /** True when `inspectVideo`/`inspectImage` accepted the input. */
  accepted: boolean;
}

/**
 * Probes one file the way the upload endpoints will; never rejects. An input over the
 * time limit is run twice more and judged by its fastest run, so a garbage collection
 * or a busy machine is not reported as a hang while real slowness still is.
 */
export async function runInput(path: string, kind: Seed['kind']): Promise<RunResult> {
  let result = await runOnce(path, kind);
  for (let retry = 0; retry < 2 && result.slow; retry += 1) {
    const again = await runOnce(path, kind);
    if (again.elapsedMs < result.elapsedMs) result = again;
  }
  return { elapsedMs: result.elapsedMs, failure: result.failure, accepted: result.accepted };
}

async function runOnce(path: string, kind: Seed['kind']): Promise<RunResult & { slow: boolean }> {
  const started = performance.now();
  let failure: string | null = null;
  let accepted = false;
  try {
    const source = await FileSource.open(path);
    try {
      const probe =
        kind === 'video' ? await probeMp4Source(source) : await probeImageSource(source);
      if (!probe.ok && probe.unexpected) failure = `parser defect: ${probe.reason}`;
    } finally {
      await source.close();
    }
    const outcome =
      kind === 'video'
        ? await inspectVideo(path, { filename: 'fuzz.mp4', contentType: 'video/mp4' })
        : await inspectImage(path, { filename: 'fuzz.png', contentType: 'image/png' });
    accepted = outcome.ok;
    if (
      !outcome.ok &&
      !['file_too_large', 'unsupported_media_type', 'invalid_media_specs'].includes(outcome.code)
    ) {
      failure ??= `untyped outcome ${JSON.stringify(outcome)}`;
    }
  } catch (error) {
    failure = `threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  }
  const elapsedMs = performance.now() - started;
  const slow = !failure && elapsedMs > INPUT_LIMIT_MS;
  if (slow) failure = `took ${elapsedMs.toFixed(1)} ms`;
  return { elapsedMs, failure, slow, accepted };
}

/**
 * The differential verdict on one video: null when the probe refuses it or ffmpeg
 * decodes its first frame, otherwise why they disagree.
 */
export async function disagreement(path: string, accepted: boolean): Promise<string | null> {
  if (!accepted) return null;
  const decode = await decodeFirstFrame(path);
  return decode.decoded
    ? null
    : `the probe accepts it but ffmpeg decodes no frame (${decode.detail})`;
}

/** A `gc()` function without starting node with --expose-gc. */
export function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** The video seeds the probe accepts as they are: the starting points of decode checks. */
async function decodableSeeds(seeds: Seed[]): Promise<Seed[]> {
  const out: Seed[] = [];
  for (const seed of seeds) {
    if (seed.kind !== 'video') continue;
    const probe = await probeMp4Source(bufferSource(seed.bytes));
    if (probe.ok && !checkVideoInfo(probe.info)) out.push(seed);
  }
  return out;
}

function saveRegression(kind: Seed['kind'], bytes: Buffer): string {
  const name = `${kind}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.bin`;
  mkdirSync(REGRESSIONS, { recursive: true });
  writeFileSync(join(REGRESSIONS, name), bytes);
  return name;
}

interface Tally {
  done: number;
  failures: number;
  videos: number;
  accepted: number;
  decoded: number;
  disagreements: number;
  slowest: number;
  slowestInput: string;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    const value = i >= 0 ? Number(args[i + 1]) : fallback;
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} needs a number`);
    return value;
  };
  const runs = option('runs', 10_000);
  const seconds = option('seconds', 3600);
  const seed = option('seed', Date.now() % 0x100000000);
  const decode = !args.includes('--no-decode');
  console.log(
    `fuzz-probe: seed ${seed}, up to ${runs} runs or ${seconds} s, ` +
      `${decode ? 'differential against the packaged ffmpeg' : 'no decoding'}`,
  );

  const seeds = loadSeeds();
  const decodable = await decodableSeeds(seeds);
  const next = prng(seed);
  const dir = mkdtempSync(join(tmpdir(), 'slotline-fuzz-'));
  const file = join(dir, 'input');
  const gc = exposeGc();
  gc();
  const heapStart = process.memoryUsage().heapUsed;
  const deadline = performance.now() + seconds * 1000;
  const t: Tally = {
    done: 0,
    failures: 0,
    videos: 0,
    accepted: 0,
    decoded: 0,
    disagreements: 0,
    slowest: 0,
    slowestInput: '',
  };
  try {
    for (; t.done < runs && performance.now() < deadline; t.done += 1) {
      // Differential runs mostly start from videos the probe accepts, with few mutations,
      // so that many inputs reach ffmpeg; the rest keep the crash search broad.
      const focused = decode && next() < 0.75;
      const pool = focused ? decodable : seeds;
      const item = pool[Math.floor(next() * pool.length)] as Seed;
      const count = 1 + Math.floor(next() * (focused ? 3 : 6));
      const mutations = Array.from({ length: count }, () => randomMutation(next));
      const bytes = applyMutations(item, mutations);
      writeFileSync(file, bytes);
      const result = await runInput(file, item.kind);
      if (result.elapsedMs > t.slowest) {
        t.slowest = result.elapsedMs;
        t.slowestInput = `run ${t.done}, ${item.name}, ${describeMutations(mutations)}`;
      }
      let failure = result.failure;
      if (item.kind === 'video') {
        t.videos += 1;
        if (result.accepted) t.accepted += 1;
        if (decode && !failure) {
          const verdict = await disagreement(file, result.accepted);
          if (verdict) t.disagreements += 1;
          else if (result.accepted) t.decoded += 1;
          failure = verdict;
        }
      }
      if (failure) {
        t.failures += 1;
        const name = saveRegression(item.kind, bytes);
        console.log(
          `FAIL ${name} (from ${item.name}, ${describeMutations(mutations)}): ${failure}`,
        );
      }
      if (t.done > 0 && t.done % 1000 === 0)
        console.log(
          `  ${t.done} runs, ${t.accepted} videos accepted, ${t.disagreements} disagreements`,
        );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  gc();
  const growth = process.memoryUsage().heapUsed - heapStart;
  console.log(
    `fuzz-probe: ${t.done} runs, ${t.failures} failures, slowest ${t.slowest.toFixed(1)} ms, ` +
      `heap growth ${(growth / 1048576).toFixed(1)} MiB (seed ${seed})`,
  );
  if (decode) {
    console.log(
      `fuzz-probe: ${t.videos} mutated videos, ${t.accepted} called valid by the probe, ` +
        `${t.decoded} of those decoded by ffmpeg, ${t.disagreements} disagreements`,
    );
  }
  console.log(`fuzz-probe: slowest input: ${t.slowestInput}`);
  if (growth > HEAP_LIMIT_BYTES) {
    console.log(`FAIL heap grew more than ${HEAP_LIMIT_BYTES / 1048576} MiB`);
    t.failures += 1;
  }
  process.exitCode = t.failures > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
