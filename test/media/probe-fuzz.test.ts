// Property tests over mutated, truncated and random bytes (reliability target E2, CI
// portion). Every input must end in a typed outcome with no parser defect, within the
// per-input limit, and the heap must stay bounded. The long run is scripts/fuzz-probe.ts,
// which shares the mutation model below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { HEAP_LIMIT_BYTES, INPUT_LIMIT_MS, exposeGc, runInput } from '../../scripts/fuzz-probe.ts';
import type { RunResult } from '../../scripts/fuzz-probe.ts';
import { REGRESSIONS, applyMutations, loadSeeds } from '../../scripts/fuzz-mutations.ts';
import type { Seed } from '../../scripts/fuzz-mutations.ts';
import { mutation } from '../helpers/fuzz.ts';

const seeds = loadSeeds();
const videoSeeds = seeds.filter((s) => s.kind === 'video');
const imageSeeds = seeds.filter((s) => s.kind === 'image');
const dir = mkdtempSync(join(tmpdir(), 'slotline-fuzz-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const input = join(dir, 'input');
const gc = exposeGc();

/** A promise that never settles must fail the property, not hang the suite. */
async function guarded(path: string, kind: Seed['kind']): Promise<RunResult> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<RunResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ elapsedMs: Infinity, failure: 'never settled', accepted: false }),
      5000,
    );
  });
  try {
    return await Promise.race([runInput(path, kind), hang]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(bytes: Buffer, kind: Seed['kind']): Promise<void> {
  writeFileSync(input, bytes);
  const result = await guarded(input, kind);
  assert.equal(result.failure, null, `${result.failure} (${bytes.length} bytes)`);
  assert.ok(result.elapsedMs < INPUT_LIMIT_MS);
}

async function withHeapBound(run: () => Promise<void>): Promise<void> {
  gc();
  const before = process.memoryUsage().heapUsed;
  await run();
  gc();
  const growth = process.memoryUsage().heapUsed - before;
  assert.ok(growth < HEAP_LIMIT_BYTES, `heap grew ${(growth / 1048576).toFixed(1)} MiB`);
}

test('fuzz: mutated videos end in a typed outcome, in time, with bounded heap', async () => {
  assert.ok(videoSeeds.length >= 10);
  await withHeapBound(() =>
    fc.assert(
      fc.asyncProperty(
        fc.nat(videoSeeds.length - 1),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        async (index, mutations) => {
          await check(applyMutations(videoSeeds[index] as Seed, mutations), 'video');
        },
      ),
      { numRuns: 2000 },
    ),
  );
});

test('fuzz: mutated images end in a typed outcome, in time, with bounded heap', async () => {
  assert.ok(imageSeeds.length >= 5);
  await withHeapBound(() =>
    fc.assert(
      fc.asyncProperty(
        fc.nat(imageSeeds.length - 1),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        async (index, mutations) => {
          await check(applyMutations(imageSeeds[index] as Seed, mutations), 'image');
        },
      ),
      { numRuns: 800 },
    ),
  );
});

test('fuzz: random bytes behind a real ftyp or magic number', async () => {
  const ftyp = (...brands: string[]) => {
    const body = Buffer.concat([
      Buffer.from(brands[0] ?? '', 'latin1'),
      Buffer.alloc(4),
      ...brands.slice(1).map((b) => Buffer.from(b, 'latin1')),
    ]);
    return Buffer.concat([Buffer.from([0, 0, 0, body.length + 8]), Buffer.from('ftyp'), body]);
  };
  const prefixes = [
    ftyp('isom', 'isom', 'mp41'),
    ftyp('qt  ', 'qt  '),
    ftyp('heic', 'mif1', 'heic'),
    Buffer.from([0xff, 0xd8, 0xff]),
    Buffer.from('RIFF\x00\x10\x00\x00WEBPVP8X', 'latin1'),
    Buffer.alloc(0),
  ];
  await withHeapBound(() =>
    fc.assert(
      fc.asyncProperty(
        fc.nat(prefixes.length - 1),
        fc.uint8Array({ maxLength: 2048 }),
        fc.boolean(),
        async (p, tail, asVideo) => {
          const bytes = Buffer.concat([prefixes[p] as Buffer, tail]);
          await check(bytes, asVideo ? 'video' : 'image');
        },
      ),
      { numRuns: 700 },
    ),
  );
});

test('fuzz regressions: every saved failing input now ends in a typed outcome', async () => {
  const files = existsSync(REGRESSIONS)
    ? readdirSync(REGRESSIONS).filter((name) => name.endsWith('.bin'))
    : [];
  for (const name of files) {
    const kind = name.startsWith('image-') ? 'image' : 'video';
    await check(readFileSync(join(REGRESSIONS, name)), kind);
  }
});
