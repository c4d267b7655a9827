// Movie fragments (14496-12 §8.8): sample counts and durations summed from every
// `moof/traf/trun`, with defaults from `tfhd` and then `mvex/trex`. A fragmented file's
// `moov` holds no samples, so this is the only honest source of its duration and rate.
import { Reader, childrenOf, invalid, child } from './box.ts';
import type { Box } from './box.ts';

export interface FragmentTotals {
  sampleCount: number;
  /** Sum of the sample durations written in the runs (0 where a writer left them out). */
  durationSum: number;
  /** Decode timeline covered by the fragments: first start and last end. */
  firstStart: number | null;
  lastEnd: number;
  /** Where the next fragment starts when it has no `tfdt`. */
  cursor: number;
  /** Shortest sample duration seen at least twice in a row, 0 when none. */
  minSteadyDelta: number;
}

/**
 * Length of the fragments in media units: the longer of the summed sample durations and
 * the `tfdt` timeline. Some writers leave a fragment's durations at 0 and let the next
 * fragment's `tfdt` say where it ended, so the sum alone can fall far short.
 */
export function fragmentsDuration(total: FragmentTotals): number {
  const timeline = total.firstStart === null ? 0 : total.lastEnd - total.firstStart;
  return Math.max(total.durationSum, timeline);
}

export function emptyTotals(): FragmentTotals {
  return {
    sampleCount: 0,
    durationSum: 0,
    firstStart: null,
    lastEnd: 0,
    cursor: 0,
    minSteadyDelta: 0,
  };
}

/** `mvex/trex` default sample durations by track id. */
export function readTrackExtends(buf: Uint8Array, mvex: Box | undefined): Map<number, number> {
  const defaults = new Map<number, number>();
  for (const trex of childrenOf(mvex, 'trex')) {
    const r = Reader.of(buf, trex);
    r.skip(4);
    const trackId = r.u32();
    r.skip(4); // default_sample_description_index
    defaults.set(trackId, r.u32());
  }
  return defaults;
}

/** `mvex/mehd` fragment duration in movie timescale units, null without `mehd`. */
export function readMovieExtendsDuration(buf: Uint8Array, mvex: Box | undefined): number | null {
  const mehd = child(mvex, 'mehd');
  if (!mehd) return null;
  const r = Reader.of(buf, mehd);
  const version = r.u8();
  r.skip(3);
  if (version === 1) return r.allOnes(8) ? null : r.u64();
  return r.allOnes(4) ? null : r.u32();
}

const TFHD_BASE_DATA_OFFSET = 0x01;
const TFHD_DESCRIPTION_INDEX = 0x02;
const TFHD_DEFAULT_DURATION = 0x08;
const TRUN_DATA_OFFSET = 0x01;
const TRUN_FIRST_FLAGS = 0x04;
const TRUN_DURATION = 0x100;
const TRUN_SIZE = 0x200;
const TRUN_FLAGS = 0x400;
const TRUN_CTO = 0x800;
const RECORD_FIELDS = [TRUN_DURATION, TRUN_SIZE, TRUN_FLAGS, TRUN_CTO];

/** Adds the samples of one parsed `moof` tree to `totals` (keyed by track id). */
export function addFragment(
  buf: Uint8Array,
  moof: Box[],
  trexDurations: Map<number, number>,
  totals: Map<number, FragmentTotals>,
): void {
  for (const traf of moof) {
    if (traf.type !== 'traf') continue;
    const tfhdBox = child(traf, 'tfhd');
    if (!tfhdBox) throw invalid("a track fragment has no 'tfhd' box");
    const tfhd = Reader.of(buf, tfhdBox);
    tfhd.skip(1);
    const flags = tfhd.u24();
    const trackId = tfhd.u32();
    const total = totals.get(trackId);
    if (!total) throw invalid(`a movie fragment refers to unknown track ${trackId}`);
    if (flags & TFHD_BASE_DATA_OFFSET) tfhd.skip(8);
    if (flags & TFHD_DESCRIPTION_INDEX) tfhd.skip(4);
    const fallback = flags & TFHD_DEFAULT_DURATION ? tfhd.u32() : (trexDurations.get(trackId) ?? 0);
    const start = decodeTime(buf, child(traf, 'tfdt')) ?? total.cursor;
    let length = 0;
    for (const trun of childrenOf(traf, 'trun'))
      length += addRun(Reader.of(buf, trun), fallback, total);
    total.firstStart = total.firstStart === null ? start : Math.min(total.firstStart, start);
    total.cursor = start + length;
    total.lastEnd = Math.max(total.lastEnd, total.cursor);
  }
}

/** `tfdt` baseMediaDecodeTime, null without the box. */
function decodeTime(buf: Uint8Array, tfdt: Box | undefined): number | null {
  if (!tfdt) return null;
  const r = Reader.of(buf, tfdt);
  const version = r.u8();
  r.skip(3);
  return version === 1 ? r.u64() : r.u32();
}

/** Adds one run's samples to `total` and returns the run's duration in media units. */
function addRun(r: Reader, fallback: number, total: FragmentTotals): number {
  r.skip(1);
  const flags = r.u24();
  const count = r.u32();
  if (flags & TRUN_DATA_OFFSET) r.skip(4);
  if (flags & TRUN_FIRST_FLAGS) r.skip(4);
  let record = 0;
  for (const field of RECORD_FIELDS) if (flags & field) record += 4;
  r.needRecords(count, record, 'samples');
  total.sampleCount += count;
  if (count === 0) return 0;
  if (!(flags & TRUN_DURATION)) {
    total.durationSum += count * fallback;
    if (count >= 2) total.minSteadyDelta = steadier(total.minSteadyDelta, fallback);
    return count * fallback;
  }
  // Records were bounded by needRecords above, so this loop is bounded by the box size.
  let previous = -1;
  let sum = 0;
  for (let i = 0; i < count; i += 1) {
    const start = r.pos;
    const duration = r.u32();
    sum += duration;
    if (duration === previous) total.minSteadyDelta = steadier(total.minSteadyDelta, duration);
    previous = duration;
    r.pos = start + record;
  }
  total.durationSum += sum;
  return sum;
}

function steadier(current: number, delta: number): number {
  if (delta <= 0) return current;
  return current === 0 || delta < current ? delta : current;
}
