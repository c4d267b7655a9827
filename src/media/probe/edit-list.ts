// The edit list of a video track must present at least one sample (ISO/IEC 14496-12
// §8.6.6; issue 9). A demuxer that honours edit lists, as ffmpeg does, marks every sample
// whose composition time falls outside all edits as "decode but discard": a track whose
// edits select no sample decodes without producing a frame, so no thumbnail. Fuzzing
// found edits of duration 0, edits starting after the only frame and negative media
// times other than the empty-edit marker -1.
//
// The check walks the run-length `stts` and `ctts` tables, never the samples: work is
// bounded by the entries in the boxes, whatever sample counts they declare.
import { Reader, child, invalid, path } from './box.ts';
import type { Box } from './box.ts';

interface Edit {
  /** First presented media time, in media timescale units. */
  start: number;
  /** Presented media duration, in media timescale units. */
  duration: number;
}

interface Run {
  count: number;
  value: number;
}

/**
 * Throws when the track's edit list selects no sample. `movieTimescale` scales the edit
 * durations (movie units) to the media timescale, rounded as demuxers round them.
 */
export function checkEditList(
  buf: Uint8Array,
  trak: Box,
  stbl: Box,
  timescales: { movie: number; media: number },
  where: string,
): void {
  const elst = path(trak, 'edts', 'elst');
  if (!elst) return;
  const edits = readEdits(buf, elst, timescales, where);
  if (edits === null) return; // no entries: ffmpeg ignores the box
  const dts = readRuns(buf, child(stbl, 'stts'), false);
  const ctts = readRuns(buf, child(stbl, 'ctts'), true);
  // Negative composition offsets shift every time up, as ffmpeg's dts_shift does.
  const shift = Math.max(0, ...ctts.map((r) => -r.value));
  // Empty edits (media time -1) only shift the timeline: a list of nothing else keeps
  // no sample in ffmpeg's rebuilt index, so the track has no packet at all.
  if (!edits.some((edit) => presentsSample(edit, dts, ctts, shift))) {
    throw invalid(
      `${where}: the edit list presents no sample ${edits[0] ? `(media time ${edits[0].start}, duration ${edits[0].duration})` : '(it holds only empty edits)'}, so no frame would be shown`,
    );
  }
}

function readEdits(
  buf: Uint8Array,
  box: Box,
  timescales: { movie: number; media: number },
  where: string,
): Edit[] | null {
  const r = Reader.of(buf, box);
  const version = r.u8();
  r.skip(3);
  const declared = r.u32();
  const size = version === 1 ? 20 : 12;
  // Entries past the box are ignored, as demuxers ignore them; only real ones count.
  const count = Math.min(declared, Math.floor(r.remaining / size));
  const edits: Edit[] = [];
  for (let i = 1; i <= count; i += 1) {
    const duration = version === 1 ? r.u64() : r.u32();
    const high = version === 1 ? r.u32() : 0;
    const low = r.u32();
    r.skip(4); // media_rate
    const time = version === 1 ? (high | 0) * 0x100000000 + low : low | 0;
    if (time === -1) continue;
    if (time < 0) {
      throw invalid(
        `${where}: edit ${i} has media time ${time} (only -1, an empty edit, may be negative)`,
      );
    }
    const scaled = Math.round((duration * timescales.media) / timescales.movie);
    edits.push({ start: time, duration: scaled });
  }
  return count > 0 ? edits : null;
}

/** stts (deltas) or ctts (offsets, signed when `signed`) as runs; absent box: none. */
function readRuns(buf: Uint8Array, box: Box | undefined, signed: boolean): Run[] {
  if (!box) return [];
  const r = Reader.of(buf, box);
  r.skip(4);
  const entries = r.u32();
  r.needRecords(entries, 8, 'entries');
  const runs: Run[] = [];
  for (let i = 0; i < entries; i += 1) {
    const count = r.u32();
    const value = signed ? r.i32() : r.u32();
    if (count > 0) runs.push({ count, value });
  }
  return runs;
}

/** Whether a sample's composition time lies in `[start, start + duration)`. */
function presentsSample(edit: Edit, dts: Run[], ctts: Run[], shift: number): boolean {
  const end = edit.start + edit.duration;
  if (edit.duration <= 0) return false;
  let time = 0;
  let c = 0;
  let cLeft = ctts[0]?.count ?? Infinity;
  for (const run of dts) {
    let left = run.count;
    while (left > 0) {
      // A stretch of samples with one delta and one composition offset.
      const n = Math.min(left, cLeft);
      const base = time + (ctts[c]?.value ?? 0) + shift;
      if (hits(base, run.value, n, edit.start, end)) return true;
      time += n * run.value;
      left -= n;
      cLeft -= n;
      if (cLeft === 0) {
        c += 1;
        cLeft = ctts[c]?.count ?? Infinity;
      }
    }
  }
  return false;
}

/** Whether `base + k * step` for some k in [0, n) lies in `[lo, hi)`. */
function hits(base: number, step: number, n: number, lo: number, hi: number): boolean {
  if (step === 0 || base >= lo) return base >= lo && base < hi;
  const k = Math.ceil((lo - base) / step);
  return k < n && base + k * step < hi;
}
