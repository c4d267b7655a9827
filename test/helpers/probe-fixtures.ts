// Mutated copies of the committed media fixtures, for tests of single probe checks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { boxOffsets } from '../../scripts/fuzz-mutations.ts';
import { probeMp4Source } from '../../src/media/probe/mp4.ts';
import { bufferSource } from '../../src/media/probe/source.ts';

export const MEDIA_FIXTURES = join(import.meta.dirname, '../fixtures/media');

/** A copy of a fixture and the offset of its `nth` box of `type` (depth-first order). */
export function loadBoxes(name: string): {
  bytes: Buffer;
  at: (type: string, nth?: number) => number;
} {
  const bytes = readFileSync(join(MEDIA_FIXTURES, name));
  const boxes = boxOffsets(bytes);
  const at = (type: string, nth = 0) => {
    const found = boxes.filter((b) => b.type === type)[nth];
    assert.ok(found, `${name} has no ${type} #${nth}`);
    return found.at;
  };
  return { bytes, at };
}

/** Why the probe refuses `bytes`, or null when it accepts them; never a parser defect. */
export async function probeReason(bytes: Buffer): Promise<string | null> {
  const probe = await probeMp4Source(bufferSource(bytes));
  if (probe.ok) return null;
  assert.equal(probe.unexpected, false, `parser defect: ${probe.reason}`);
  return probe.reason;
}
