// Mutation fuzzer for the media probes (src/media/probe).
//
//   node --import tsx scripts/fuzz-probe.ts [--runs N] [--seconds S] [--seed X]
//
// Feeds mutated and truncated copies of the committed fixtures (test/fixtures/media)
// to the MP4/MOV and image probes through real files and checks that every input ends
// in a typed outcome, with no parser defect, within the per-input time limit, and that
// the heap stays bounded. Defaults: 100,000 runs or 10 minutes, whichever comes first;
// the seed is printed so any run can be repeated. Failing inputs are written to
// test/fixtures/media/regressions/, which the test suite replays.
//
// The mutation model is also used by the fast-check property in
// test/media/probe-fuzz.test.ts, so the short CI run and this long run explore the same
// space.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { probeImageSource, inspectImage } from '../src/media/probe/image.ts';
import { probeMp4Source } from '../src/media/probe/mp4.ts';
import { FileSource } from '../src/media/probe/source.ts';
import { inspectVideo } from '../src/media/probe/video-rules.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
export const FIXTURES = join(ROOT, 'test/fixtures/media');
export const REGRESSIONS = join(FIXTURES, 'regressions');
/** Per-input limit (reliability target E2). */
export const INPUT_LIMIT_MS = 200;
/** Heap growth limit over a whole run (reliability target E2). */
export const HEAP_LIMIT_BYTES = 50 * 1024 * 1024;

export interface Seed {
  name: string;
  kind: 'video' | 'image';
  bytes: Buffer;
  /** Box headers (ISO-BMFF seeds) for size, count and nesting mutations. */
  boxes: BoxAt[];
}

const VIDEO_EXT = /\.(mp4|mov)$/;
const IMAGE_EXT = /\.(png|jpg|webp|heic)$/;
const SEED_MAX_BYTES = 40_000;

/** Valid and near-valid fixtures small enough to mutate quickly. */
export function loadSeeds(): Seed[] {
  const seeds: Seed[] = [];
  for (const name of readdirSync(FIXTURES).sort()) {
    const kind = VIDEO_EXT.test(name) ? 'video' : IMAGE_EXT.test(name) ? 'image' : null;
    if (!kind || name.startsWith('text')) continue;
    const bytes = readFileSync(join(FIXTURES, name));
    if (bytes.length > SEED_MAX_BYTES) continue;
    seeds.push({ name, kind, bytes, boxes: boxOffsets(bytes) });
  }
  return seeds;
}

const CONTAINERS = new Set([
  'moov',
  'trak',
  'mdia',
  'minf',
  'stbl',
  'edts',
  'mvex',
  'dinf',
  'moof',
  'traf',
  'iprp',
  'ipco',
  'sinf',
  'schi',
]);

export interface BoxAt {
  at: number;
  /** Header offsets of the enclosing boxes, outermost first. */
  ancestors: number[];
}

/** Box headers found by a tolerant walk of the known containers. */
export function boxOffsets(bytes: Buffer): BoxAt[] {
  const out: BoxAt[] = [];
  const walk = (start: number, end: number, ancestors: number[]): void => {
    let pos = start;
    while (pos + 8 <= end && ancestors.length < 8 && out.length < 4096) {
      const size = bytes.readUInt32BE(pos);
      const type = bytes.toString('latin1', pos + 4, pos + 8);
      if (size < 8 || pos + size > end) return;
      out.push({ at: pos, ancestors });
      const inner = [...ancestors, pos];
      if (CONTAINERS.has(type)) walk(pos + 8, pos + size, inner);
      else if (type === 'meta') walk(pos + 12, pos + size, inner);
      else if (type === 'stsd') walk(pos + 16, pos + size, inner);
      pos += size;
    }
  };
  if (bytes.toString('latin1', 4, 8) === 'ftyp' || bytes.toString('latin1', 4, 8) === 'moov') {
    walk(0, bytes.length, []);
  }
  return out;
}

/** Mutations as plain data, so fast-check can generate and shrink them. */
export type Mutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'byte'; at: number; value: number }
  | { op: 'size'; box: number; value: number }
  | { op: 'largesize'; box: number; value: bigint }
  | { op: 'count'; box: number; field: number; value: number }
  | { op: 'truncate'; at: number }
  | { op: 'duplicate'; at: number; length: number; to: number }
  | { op: 'remove'; at: number; length: number }
  | { op: 'nest'; box: number; depth: number };

/** Interesting 32-bit values for size and count fields. */
export const EDGE_U32 = [
  0, 1, 2, 7, 8, 9, 16, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x10000,
];
export const EDGE_U64 = [
  0n,
  1n,
  8n,
  15n,
  16n,
  17n,
  1n << 32n,
  1n << 53n,
  (1n << 63n) + 5n,
  (1n << 64n) - 1n,
];

export function applyMutations(seed: Seed, mutations: readonly Mutation[]): Buffer {
  let bytes: Buffer = Buffer.from(seed.bytes);
  for (const m of mutations) bytes = applyOne(bytes, seed.boxes, m);
  return bytes;
}

function applyOne(input: Buffer, boxes: BoxAt[], m: Mutation): Buffer {
  const bytes = input;
  const len = bytes.length;
  if (len === 0) return bytes;
  const at = (n: number) => n % len;
  const entry = (n: number): BoxAt | undefined => boxes[n % Math.max(1, boxes.length)];
  const box = (n: number) => {
    const offset = boxes.length > 0 ? (entry(n)?.at ?? 0) : at(n);
    return offset + 8 <= len ? offset : -1;
  };
  switch (m.op) {
    case 'flip':
      bytes[at(m.at)] = (bytes[at(m.at)] ?? 0) ^ (1 << (m.bit & 7));
      return bytes;
    case 'byte':
      bytes[at(m.at)] = m.value & 0xff;
      return bytes;
    case 'size': {
      const o = box(m.box);
      if (o >= 0) bytes.writeUInt32BE(m.value >>> 0, o);
      return bytes;
    }
    case 'largesize': {
      const o = box(m.box);
      if (o < 0 || o + 16 > len) return bytes;
      bytes.writeUInt32BE(1, o);
      bytes.writeBigUInt64BE(BigInt.asUintN(64, m.value), o + 8);
      return bytes;
    }
    case 'count': {
      // Full boxes keep their first count or size field 4-12 bytes into the payload.
      const o = box(m.box);
      const field = o + 12 + (m.field % 3) * 4;
      if (o >= 0 && field + 4 <= len) bytes.writeUInt32BE(m.value >>> 0, field);
      return bytes;
    }
    case 'truncate':
      return bytes.subarray(0, at(m.at));
    case 'duplicate': {
      const start = at(m.at);
      const piece = bytes.subarray(start, Math.min(len, start + (m.length % 4096)));
      const to = at(m.to);
      return Buffer.concat([bytes.subarray(0, to), piece, bytes.subarray(to)]);
    }
    case 'remove': {
      const start = at(m.at);
      return Buffer.concat([
        bytes.subarray(0, start),
        bytes.subarray(Math.min(len, start + (m.length % 4096))),
      ]);
    }
    case 'nest': {
      // Wraps a box in `depth` containers of its own type: deep nesting with sizes that fit.
      const o = box(m.box);
      if (o < 0) return bytes;
      const size = bytes.readUInt32BE(o);
      if (size < 8 || o + size > len) return bytes;
      const type = bytes.subarray(o + 4, o + 8);
      let inner = Buffer.from(bytes.subarray(o, o + size));
      for (let i = 0; i < m.depth % 40; i += 1) {
        const header = Buffer.alloc(8);
        header.writeUInt32BE(inner.length + 8 > 0xffffffff ? 0 : inner.length + 8, 0);
        type.copy(header, 4);
        inner = Buffer.concat([header, inner]);
      }
      const out = Buffer.concat([bytes.subarray(0, o), inner, bytes.subarray(o + size)]);
      // Grow the enclosing boxes so the nesting is reached instead of a size error.
      const added = inner.length - size;
      for (const parent of entry(m.box)?.ancestors ?? []) {
        if (parent + 4 > out.length) continue;
        const parentSize = out.readUInt32BE(parent);
        if (parentSize >= 8 && parentSize + added <= 0xffffffff)
          out.writeUInt32BE(parentSize + added, parent);
      }
      return out;
    }
  }
}

export interface RunResult {
  elapsedMs: number;
  /** Why the input counts as a failure, or null. */
  failure: string | null;
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
  return { elapsedMs: result.elapsedMs, failure: result.failure };
}

async function runOnce(path: string, kind: Seed['kind']): Promise<RunResult & { slow: boolean }> {
  const started = performance.now();
  let failure: string | null = null;
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
  return { elapsedMs, failure, slow };
}

/** A `gc()` function without starting node with --expose-gc. */
export function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomMutation(next: () => number): Mutation {
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const u32 = () => (next() < 0.7 ? pick(EDGE_U32) : int(0x100000000));
  switch (int(9)) {
    case 0:
      return { op: 'flip', at: int(1 << 30), bit: int(8) };
    case 1:
      return { op: 'byte', at: int(1 << 30), value: pick([0, 0xff, 0x7f, 0x80, int(256)]) };
    case 2:
      return { op: 'size', box: int(4096), value: u32() };
    case 3:
      return { op: 'largesize', box: int(4096), value: pick(EDGE_U64) };
    case 4:
      return { op: 'count', box: int(4096), field: int(3), value: u32() };
    case 5:
      return { op: 'truncate', at: int(1 << 30) };
    case 6:
      return { op: 'duplicate', at: int(1 << 30), length: int(4096), to: int(1 << 30) };
    case 7:
      return { op: 'remove', at: int(1 << 30), length: int(4096) };
    default:
      return { op: 'nest', box: int(4096), depth: int(40) };
  }
}

export function describeMutations(mutations: readonly Mutation[]): string {
  return JSON.stringify(mutations, (_key, value: unknown) =>
    typeof value === 'bigint' ? `${value}n` : value,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    const value = i >= 0 ? Number(args[i + 1]) : fallback;
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} needs a number`);
    return value;
  };
  const runs = option('runs', 100_000);
  const seconds = option('seconds', 600);
  const seed = option('seed', Date.now() % 0x100000000);
  console.log(`fuzz-probe: seed ${seed}, up to ${runs} runs or ${seconds} s`);

  const seeds = loadSeeds();
  const next = prng(seed);
  const dir = mkdtempSync(join(tmpdir(), 'slotline-fuzz-'));
  const file = join(dir, 'input');
  const gc = exposeGc();
  gc();
  const heapStart = process.memoryUsage().heapUsed;
  const deadline = performance.now() + seconds * 1000;
  let failures = 0;
  let slowest = 0;
  let slowestInput = '';
  let done = 0;
  try {
    for (; done < runs && performance.now() < deadline; done += 1) {
      const item = seeds[Math.floor(next() * seeds.length)] as Seed;
      const count = 1 + Math.floor(next() * 6);
      const mutations = Array.from({ length: count }, () => randomMutation(next));
      const bytes = applyMutations(item, mutations);
      writeFileSync(file, bytes);
      const result = await runInput(file, item.kind);
      if (result.elapsedMs > slowest) {
        slowest = result.elapsedMs;
        slowestInput = `run ${done}, ${item.name}, ${describeMutations(mutations)}`;
      }
      if (result.failure) {
        failures += 1;
        const name = `${item.kind}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.bin`;
        mkdirSync(REGRESSIONS, { recursive: true });
        writeFileSync(join(REGRESSIONS, name), bytes);
        console.log(`FAIL ${name} (from ${item.name}): ${result.failure}`);
      }
      if (done > 0 && done % 10_000 === 0)
        console.log(`  ${done} runs, slowest ${slowest.toFixed(1)} ms`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  gc();
  const growth = process.memoryUsage().heapUsed - heapStart;
  console.log(
    `fuzz-probe: ${done} runs, ${failures} failures, slowest ${slowest.toFixed(1)} ms, ` +
      `heap growth ${(growth / 1048576).toFixed(1)} MiB (seed ${seed})`,
  );
  console.log(`fuzz-probe: slowest input: ${slowestInput}`);
  if (growth > HEAP_LIMIT_BYTES) {
    console.log(`FAIL heap grew more than ${HEAP_LIMIT_BYTES / 1048576} MiB`);
    failures += 1;
  }
  process.exitCode = failures > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
