// Sample tables of one track checked the way a decoder will use them (issue 9): the
// mandatory boxes are there, stts, stsz and stsc count the same samples over stco's
// chunks, every chunk's bytes lie inside the file and inside an `mdat`, and a video
// track has a sync sample. Before this, files with broken tables became `ready` and
// never got a thumbnail because ffmpeg could not decode them.
//
// Work is bounded by the tables' bytes, never by a declared count: stsz sizes are read
// one entry per sample only when the box holds those entries, and a constant sample
// size is multiplied, not looped over. Nothing is allocated per sample.
import { Reader, child, invalid } from './box.ts';
import type { Box } from './box.ts';

/**
 * Most samples accepted in one track. 180 s of 60 fps video is 10,800 samples and of
 * 48 kHz AAC 8,438; even uncompressed 48 kHz PCM (one sample per audio sample) stays
 * under 8.7 million. Anything above is refused before it is looped over.
 */
export const MAX_TRACK_SAMPLES = 16_777_216;

/** A byte range `[start, end)` of the file. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface TableContext {
  buf: Uint8Array;
  /** `video track 1`: how messages name the track. */
  where: string;
  kind: 'video' | 'audio';
  fileSize: number;
  /** Payload ranges of the top-level `mdat` boxes, in file order. */
  mdats: ByteRange[];
  /** Number of entries in `stsd`. */
  sampleEntries: number;
  /** Samples counted by `stts`. */
  timedSamples: number;
}

export interface SampleLayout {
  sampleCount: number;
  /** Where the first sample's bytes are, null without samples. */
  firstSample: ByteRange | null;
  /** The first samples of the first chunk, up to LEAD_SAMPLES (see first-sample.ts). */
  leadSamples: ByteRange[];
}

/**
 * Samples at the start of a track whose NAL framing is checked: a decoder holds the
 * first picture back until the packets of its reordering window arrive, and ffmpeg
 * fails the whole decode when those packets cannot be split. 16 is H.264's and HEVC's
 * largest decoded picture buffer.
 */
export const LEAD_SAMPLES = 16;

const fullBox = (r: Reader) => r.skip(4);

export function checkSampleTables(stbl: Box, ctx: TableContext): SampleLayout {
  const { buf, where } = ctx;
  const sizes = child(stbl, 'stsz') ?? child(stbl, 'stz2');
  if (!sizes) throw invalid(`${where} has no 'stsz' or 'stz2' (sample size) box`);
  const stscBox = child(stbl, 'stsc');
  if (!stscBox) throw invalid(`${where} has no 'stsc' (sample-to-chunk) box`);
  const offsetsBox = child(stbl, 'stco') ?? child(stbl, 'co64');
  if (!offsetsBox) throw invalid(`${where} has no 'stco' or 'co64' (chunk offset) box`);

  checkDeclared(ctx.timedSamples, where);
  const table = readSizes(buf, sizes, where);
  if (table.count !== ctx.timedSamples) {
    throw invalid(
      `${where}: ${sizes.type} has ${table.count} samples but stts has ${ctx.timedSamples}`,
    );
  }

  const offsets = Reader.of(buf, offsetsBox);
  fullBox(offsets);
  const chunks = offsets.u32();
  const wide = offsetsBox.type === 'co64';
  offsets.needRecords(chunks, wide ? 8 : 4, 'chunk offsets');

  const runs = readChunkRuns(buf, stscBox, chunks, ctx);
  const placed = runs.reduce((sum, run) => sum + run.chunks * run.samplesPerChunk, 0);
  if (placed !== table.count) {
    throw invalid(
      `${where}: stsc places ${placed} samples in ${chunks} chunk${chunks === 1 ? '' : 's'} but ${sizes.type} has ${table.count}`,
    );
  }

  let firstSample: ByteRange | null = null;
  const leadSamples: ByteRange[] = [];
  let chunk = 0;
  let mdat = 0;
  for (const run of runs) {
    for (let i = 0; i < run.chunks; i += 1) {
      chunk += 1;
      const offset = wide ? offsets.u64() : offsets.u32();
      if (offset >= ctx.fileSize) {
        throw invalid(
          `${where}: chunk ${chunk} offset ${offset} is past the end of the file (${ctx.fileSize} bytes)`,
        );
      }
      // A constant size is multiplied: a declared count never drives a loop.
      let first = table.constant;
      let bytes = table.constant * run.samplesPerChunk;
      const lead = chunk === 1 ? Math.min(LEAD_SAMPLES, run.samplesPerChunk) : 0;
      if (table.constant === 0) {
        first = table.reader.u32();
        bytes = first;
        if (lead > 0) leadSamples.push({ start: offset, end: offset + first });
        for (let s = 1; s < run.samplesPerChunk; s += 1) {
          const size = table.reader.u32();
          if (s < lead) leadSamples.push({ start: offset + bytes, end: offset + bytes + size });
          bytes += size;
        }
      } else {
        for (let s = 0; s < lead; s += 1) {
          const start = offset + s * table.constant;
          leadSamples.push({ start, end: start + table.constant });
        }
      }
      const range = { start: offset, end: offset + bytes };
      firstSample ??= { start: offset, end: offset + first };
      if (range.end > ctx.fileSize) {
        throw invalid(
          `${where}: chunk ${chunk} (bytes ${range.start}-${range.end}) runs past the end of the file (${ctx.fileSize} bytes)`,
        );
      }
      mdat = containing(ctx.mdats, range, mdat);
      if (mdat < 0) {
        throw invalid(
          `${where}: chunk ${chunk} (bytes ${range.start}-${range.end}) is not inside an 'mdat' box`,
        );
      }
    }
  }
  if (ctx.kind === 'video' && table.count > 0)
    checkSyncSamples(buf, child(stbl, 'stss'), table.count, where);
  return { sampleCount: table.count, firstSample, leadSamples };
}

interface SizeTable {
  count: number;
  /** The size of every sample, or 0 when each has its own entry. */
  constant: number;
  /** Positioned at the first entry when `constant` is 0. */
  reader: Reader;
}

function checkDeclared(count: number, where: string): void {
  if (count > MAX_TRACK_SAMPLES) {
    throw invalid(
      `${where} declares ${count} samples, more than the ${MAX_TRACK_SAMPLES} accepted`,
    );
  }
}

function readSizes(buf: Uint8Array, box: Box, where: string): SizeTable {
  const r = Reader.of(buf, box);
  fullBox(r);
  if (box.type === 'stsz') {
    const constant = r.u32();
    const count = r.u32();
    if (constant === 0) r.needRecords(count, 4, 'sample sizes');
    checkDeclared(count, where);
    return { count, constant, reader: r };
  }
  r.skip(3);
  const bits = r.u8();
  if (bits !== 4 && bits !== 8 && bits !== 16) {
    throw invalid(`box 'stz2' has an invalid field size ${bits}`);
  }
  const count = r.u32();
  r.needRecords(Math.ceil((count * bits) / 8), 1, 'bytes of sample sizes');
  checkDeclared(count, where);
  // Compact sizes are expanded into a 32-bit view so the chunk walk reads one kind of
  // table; the copy is bounded by the box, which needRecords just checked.
  const expanded = Buffer.alloc(count * 4);
  for (let i = 0; i < count; i += 1) {
    const value =
      bits === 16
        ? r.u16()
        : bits === 8
          ? r.u8()
          : i % 2 === 0
            ? (r.buf[r.pos] ?? 0) >> 4
            : r.u8() & 15;
    expanded.writeUInt32BE(value, i * 4);
  }
  return { count, constant: 0, reader: new Reader(expanded, 0, expanded.length, "box 'stz2'") };
}

interface ChunkRun {
  chunks: number;
  samplesPerChunk: number;
}

/** `stsc` entries as runs of chunks; each entry checked against the chunk count. */
function readChunkRuns(buf: Uint8Array, box: Box, chunks: number, ctx: TableContext): ChunkRun[] {
  const { where } = ctx;
  const r = Reader.of(buf, box);
  fullBox(r);
  const entries = r.u32();
  r.needRecords(entries, 12, 'entries');
  const runs: ChunkRun[] = [];
  let previous = 0;
  let previousSamples = 0;
  for (let i = 1; i <= entries; i += 1) {
    const firstChunk = r.u32();
    const samplesPerChunk = r.u32();
    const description = r.u32();
    const expected =
      i === 1
        ? 'the first entry must start at chunk 1'
        : `entry ${i - 1} starts at chunk ${previous}`;
    if ((i === 1 && firstChunk !== 1) || (i > 1 && firstChunk <= previous)) {
      throw invalid(`${where}: stsc entry ${i} starts at chunk ${firstChunk} (${expected})`);
    }
    if (firstChunk > chunks) {
      throw invalid(`${where}: stsc entry ${i} starts at chunk ${firstChunk} of ${chunks}`);
    }
    if (samplesPerChunk === 0) throw invalid(`${where}: stsc entry ${i} has 0 samples per chunk`);
    if (description === 0 || description > ctx.sampleEntries) {
      throw invalid(
        `${where}: stsc entry ${i} refers to sample description ${description} of ${ctx.sampleEntries}`,
      );
    }
    if (i > 1) runs.push({ chunks: firstChunk - previous, samplesPerChunk: previousSamples });
    previous = firstChunk;
    previousSamples = samplesPerChunk;
  }
  if (entries > 0) runs.push({ chunks: chunks - previous + 1, samplesPerChunk: previousSamples });
  return runs;
}

/** Index of the mdat holding `range`, searched from `hint` (chunks are mostly in order). */
export function containing(mdats: ByteRange[], range: ByteRange, hint: number): number {
  const inside = (m: ByteRange | undefined) =>
    m !== undefined && range.start >= m.start && range.end <= m.end;
  if (inside(mdats[hint])) return hint;
  let lo = 0;
  let hi = mdats.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = mdats[mid] as ByteRange;
    if (range.start < m.start) hi = mid - 1;
    else if (range.start >= m.end) lo = mid + 1;
    else return inside(m) ? mid : -1;
  }
  return -1;
}

/** 14496-12 §8.6.2: no `stss` means every sample is a sync sample; an empty one, none. */
function checkSyncSamples(
  buf: Uint8Array,
  box: Box | undefined,
  count: number,
  where: string,
): void {
  if (!box) return;
  const r = Reader.of(buf, box);
  fullBox(r);
  const entries = r.u32();
  r.needRecords(entries, 4, 'sync samples');
  if (entries === 0) throw invalid(`${where}: stss lists no sync sample`);
  for (let i = 1; i <= entries; i += 1) {
    const sample = r.u32();
    if (sample === 0 || sample > count) {
      throw invalid(`${where}: stss entry ${i} is sample ${sample} of ${count}`);
    }
  }
}
