// Movie fragments (14496-12 §8.8): sample counts and durations summed from every
// `moof/traf/trun`, with defaults from `tfhd` and then `mvex/trex`. A fragmented file's
// `moov` holds no samples, so this is the only honest source of its duration and rate.
// Each run's sample data is also held to the file and to an `mdat` (issue 9), as the
// sample tables of a plain file are (sample-tables.ts).
import { Reader, child, childrenOf, decodeHeader, invalid, parseBoxes, treeBudget } from './box.ts';
import type { Box } from './box.ts';
import type { ParsedTrack } from './mp4-track.ts';
import { LEAD_SAMPLES, containing } from './sample-tables.ts';
import type { ByteRange } from './sample-tables.ts';

export interface FragmentTotals {
  /** `video track 1`: how messages name the track. */
  where: string;
  /** The first sample's bytes, null before any. */
  firstSample: ByteRange | null;
  /** The first trun's first samples, up to LEAD_SAMPLES. */
  leadSamples: ByteRange[];
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

export function emptyTotals(where: string): FragmentTotals {
  return {
    where,
    firstSample: null,
    leadSamples: [],
    sampleCount: 0,
    durationSum: 0,
    firstStart: null,
    lastEnd: 0,
    cursor: 0,
    minSteadyDelta: 0,
  };
}

export interface TrackDefaults {
  duration: number;
  size: number;
}

/** `mvex/trex` default sample durations and sizes by track id. */
export function readTrackExtends(
  buf: Uint8Array,
  mvex: Box | undefined,
): Map<number, TrackDefaults> {
  const defaults = new Map<number, TrackDefaults>();
  for (const trex of childrenOf(mvex, 'trex')) {
    const r = Reader.of(buf, trex);
    r.skip(4);
    const trackId = r.u32();
    r.skip(4); // default_sample_description_index
    const duration = r.u32();
    defaults.set(trackId, { duration, size: r.u32() });
  }
  return defaults;
}

/** Where a `moof` sits and what its runs' data must stay inside. */
export interface FragmentPlace {
  /** 1-based, for messages. */
  index: number;
  moofStart: number;
  fileSize: number;
  mdats: ByteRange[];
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
const TFHD_DEFAULT_SIZE = 0x10;
const TFHD_DEFAULT_BASE_IS_MOOF = 0x020000;
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
  trex: Map<number, TrackDefaults>,
  totals: Map<number, FragmentTotals>,
  place: FragmentPlace,
): void {
  // 14496-12 §8.8.7: without an explicit base, the first track fragment's data starts at
  // the moof and each later one where the previous one's data ended.
  let implicitBase = place.moofStart;
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
    let base = flags & TFHD_DEFAULT_BASE_IS_MOOF ? place.moofStart : implicitBase;
    if (flags & TFHD_BASE_DATA_OFFSET) base = tfhd.u64();
    if (flags & TFHD_DESCRIPTION_INDEX) tfhd.skip(4);
    const defaults = trex.get(trackId);
    // §8.8.3 requires a `trex` per track; ffmpeg stops reading the file without one.
    if (!defaults) {
      throw invalid(`a movie fragment refers to track ${trackId}, which has no 'trex' defaults`);
    }
    const fallback = flags & TFHD_DEFAULT_DURATION ? tfhd.u32() : defaults.duration;
    const size = flags & TFHD_DEFAULT_SIZE ? tfhd.u32() : defaults.size;
    const start = decodeTime(buf, child(traf, 'tfdt')) ?? total.cursor;
    let length = 0;
    let cursor = base;
    for (const trun of childrenOf(traf, 'trun')) {
      const run = addRun(Reader.of(buf, trun), { fallback, size, base, cursor }, total);
      length += run.duration;
      checkRunData(run.data, total, place);
      cursor = run.data.end;
    }
    implicitBase = cursor;
    total.firstStart = total.firstStart === null ? start : Math.min(total.firstStart, start);
    total.cursor = start + length;
    total.lastEnd = Math.max(total.lastEnd, total.cursor);
  }
}

function checkRunData(data: ByteRange, total: FragmentTotals, place: FragmentPlace): void {
  if (data.end === data.start) return;
  const bytes = `(bytes ${data.start}-${data.end})`;
  if (data.start < 0 || data.end > place.fileSize) {
    throw invalid(
      `${total.where}: fragment ${place.index} has sample data ${bytes} past the end of the file (${place.fileSize} bytes)`,
    );
  }
  if (containing(place.mdats, data, 0) < 0) {
    throw invalid(
      `${total.where}: fragment ${place.index} has sample data ${bytes} outside any 'mdat' box`,
    );
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

interface RunPlace {
  /** Default duration and size of a sample. */
  fallback: number;
  size: number;
  /** Base data offset of the track fragment, and where the previous run's data ended. */
  base: number;
  cursor: number;
}

/** Adds one run's samples to `total`; returns its duration and where its data lies. */
function addRun(
  r: Reader,
  place: RunPlace,
  total: FragmentTotals,
): { duration: number; data: ByteRange } {
  r.skip(1);
  const flags = r.u24();
  const count = r.u32();
  const start = flags & TRUN_DATA_OFFSET ? place.base + r.i32() : place.cursor;
  if (flags & TRUN_FIRST_FLAGS) r.skip(4);
  let record = 0;
  for (const field of RECORD_FIELDS) if (flags & field) record += 4;
  r.needRecords(count, record, 'samples');
  total.sampleCount += count;
  if (count === 0) return { duration: 0, data: { start, end: start } };
  // Records were bounded by needRecords above, so this loop is bounded by the box size;
  // without per-sample fields nothing is looped over.
  const durationAt = 0;
  const sizeAt = flags & TRUN_DURATION ? 4 : 0;
  let previous = -1;
  let sum = flags & TRUN_DURATION ? 0 : count * place.fallback;
  let bytes = flags & TRUN_SIZE ? 0 : count * place.size;
  let firstSize = place.size;
  if (flags & (TRUN_DURATION | TRUN_SIZE)) {
    const first = r.pos;
    for (let i = 0; i < count; i += 1) {
      r.pos = first + i * record;
      const at = r.pos;
      if (flags & TRUN_DURATION) {
        r.pos = at + durationAt;
        const duration = r.u32();
        sum += duration;
        if (duration === previous) total.minSteadyDelta = steadier(total.minSteadyDelta, duration);
        previous = duration;
      }
      if (flags & TRUN_SIZE) {
        r.pos = at + sizeAt;
        const size = r.u32();
        if (i === 0) firstSize = size;
        if (total.leadSamples.length === i && i < LEAD_SAMPLES) {
          total.leadSamples.push({ start: start + bytes, end: start + bytes + size });
        }
        bytes += size;
      }
    }
  }
  if (!(flags & TRUN_DURATION) && count >= 2) {
    total.minSteadyDelta = steadier(total.minSteadyDelta, place.fallback);
  }
  total.firstSample ??= { start, end: start + firstSize };
  total.durationSum += sum;
  return { duration: sum, data: { start, end: start + bytes } };
}

function steadier(current: number, delta: number): number {
  if (delta <= 0) return current;
  return current === 0 || delta < current ? delta : current;
}

/** Boxes across all `moof`s: per-frame fragments of 3 minutes need about 100,000. */
const MAX_FRAGMENT_BOXES = 250_000;

/** Adds every fragment's samples to its track; `moofs` are copies with their offsets. */
export function addFragments(
  moofs: { at: number; bytes: Buffer }[],
  trex: Map<number, TrackDefaults>,
  tracks: ParsedTrack[],
  file: { fileSize: number; mdats: ByteRange[] },
): void {
  const totals = new Map<number, FragmentTotals>(
    tracks.map((t) => [
      t.trackId,
      emptyTotals(t.kind === 'other' ? `track ${t.trackId}` : `${t.kind} track ${t.trackId}`),
    ]),
  );
  const budget = treeBudget(MAX_FRAGMENT_BOXES);
  moofs.forEach(({ at, bytes }, i) => {
    const header = decodeHeader(bytes, 0, bytes.length, 'the file');
    const moof = parseBoxes(bytes, header.headerSize, bytes.length, 1, 'moof', budget);
    addFragment(bytes, moof, trex, totals, { index: i + 1, moofStart: at, ...file });
  });
  for (const track of tracks) {
    const total = totals.get(track.trackId);
    if (!total) continue;
    track.sampleCount += total.sampleCount;
    track.durationSum += fragmentsDuration(total);
    track.firstSample ??= total.firstSample;
    if (track.leadSamples.length === 0) track.leadSamples = total.leadSamples;
    if (
      total.minSteadyDelta > 0 &&
      (track.minSteadyDelta === 0 || total.minSteadyDelta < track.minSteadyDelta)
    ) {
      track.minSteadyDelta = total.minSteadyDelta;
    }
  }
}
