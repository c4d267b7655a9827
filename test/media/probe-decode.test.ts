// Differential property (issue 9, CI portion): every mutated video the probe calls valid
// must have a first frame the packaged ffmpeg decodes. The long run is
// `npm run fuzz` (scripts/fuzz-probe.ts, 10,000 runs), sharing this mutation model.
//
// The CI portion is a fixed sample (seed below, or PROBE_DECODE_SEED), so a red run is a
// regression that repeats, not luck; `npm run fuzz` explores fresh seeds. One class is
// known to remain (about 1 in 1,000 accepted videos, see the probe README): an HEVC SPS
// that ffmpeg drops for reading past its end, as the probe does not parse the whole SPS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { disagreement, runInput } from '../../scripts/fuzz-probe.ts';
import { applyMutations, loadSeeds } from '../../scripts/fuzz-mutations.ts';
import type { Seed } from '../../scripts/fuzz-mutations.ts';
import { probeMp4Source } from '../../src/media/probe/mp4.ts';
import { bufferSource } from '../../src/media/probe/source.ts';
import { checkVideoInfo } from '../../src/media/probe/video-rules.ts';
import { mutation } from '../helpers/fuzz.ts';

const dir = mkdtempSync(join(tmpdir(), 'slotline-decode-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const input = join(dir, 'input.mp4');

async function decodableSeeds(): Promise<Seed[]> {
  const out: Seed[] = [];
  for (const seed of loadSeeds()) {
    if (seed.kind !== 'video') continue;
    const probe = await probeMp4Source(bufferSource(seed.bytes));
    if (probe.ok && !checkVideoInfo(probe.info)) out.push(seed);
  }
  return out;
}

test('differential: ffmpeg decodes the first frame of every mutated video the probe accepts', async () => {
  const seeds = await decodableSeeds();
  assert.ok(seeds.length >= 8);
  await fc.assert(
    fc.asyncProperty(
      fc.nat(seeds.length - 1),
      fc.array(mutation, { minLength: 1, maxLength: 3 }),
      async (index, mutations) => {
        writeFileSync(input, applyMutations(seeds[index] as Seed, mutations));
        const run = await runInput(input, 'video');
        assert.equal(run.failure, null);
        assert.equal(await disagreement(input, run.accepted), null);
      },
    ),
    { numRuns: 250, seed: Number(process.env.PROBE_DECODE_SEED ?? 909) },
  );
});
