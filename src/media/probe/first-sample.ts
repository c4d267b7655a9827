// The leading samples of an H.264/HEVC track (the first one and the rest of the
// decoder's reordering window, sample-tables.ts LEAD_SAMPLES) split into NAL units as a
// decoder splits them
// (ISO/IEC 14496-15 §5.3.2: each unit behind a 1, 2 or 4 byte length). A length running
// past the sample makes ffmpeg drop the whole packet, so the first frame never decodes
// (issue 9). Only the length prefixes are read, through a small window: a few reads for
// a keyframe of any size, never the media data itself.
//
// In the first sample, parameter sets carried in band are read and the first slice
// header is checked against them and the record's (h264-slice.ts, hevc-slice.ts): the
// first kilobytes of a few NAL units at most.
import { invalid } from './box.ts';
import { ParamSetError } from './bits.ts';
import type { SliceParams } from './codec-config.ts';
import { checkH264Slice } from './h264-slice.ts';
import { checkHevcSlice } from './hevc-slice.ts';
import { h264Pps, h264Sps } from './sps.ts';
import { hevcPps, hevcSps } from './hevc-sps.ts';
import type { ByteRange } from './sample-tables.ts';
import { WindowedReader } from './source.ts';
import type { ByteSource } from './source.ts';

/** More NAL units than any real first frame holds (slices of 4K are a few dozen). */
const MAX_UNITS = 4096;

export async function checkFirstSample(
  source: ByteSource,
  sample: ByteRange,
  lengthSize: number,
  where: string,
  params: SliceParams | null = null,
): Promise<void> {
  const reader = new WindowedReader(source);
  let slice = params ? copy(params) : null;
  let pos = sample.start;
  let units = 0;
  // ffmpeg's splitter stops when fewer than 4 bytes remain, whatever the prefix size,
  // but fails (get_nalsize) on a prefix with nothing after it and on a length of 0.
  while (sample.end - pos >= 4) {
    if (sample.end - pos <= lengthSize) {
      throw invalid(`${where}: a leading sample ends with a NAL length prefix and no unit`);
    }
    units += 1;
    if (units > MAX_UNITS) {
      throw invalid(`${where}: a leading sample holds more than ${MAX_UNITS} NAL units`);
    }
    const prefix = reader.peek(pos, lengthSize) ?? (await reader.read(pos, lengthSize));
    let length = 0;
    for (let i = 0; i < lengthSize; i += 1) length = length * 256 + (prefix[i] ?? 0);
    pos += lengthSize;
    if (length === 0) {
      throw invalid(
        `${where}: the NAL unit at byte ${pos - lengthSize} of a leading sample is empty`,
      );
    }
    if (length > sample.end - pos) {
      throw invalid(
        `${where}: the NAL unit at byte ${pos - lengthSize} of a leading sample declares ${length} bytes but the sample has ${sample.end - pos} left`,
      );
    }
    if (slice) {
      const head = await reader.read(pos, Math.min(length, HEADER_BYTES));
      // Copied: the window's buffer is reused by the next read.
      if (!sliceStep(slice, Uint8Array.from(head), length > HEADER_BYTES, where)) slice = null;
    }
    pos += length;
  }
  // A first packet of a few bytes that the splitter finds no NAL unit in gives ffmpeg
  // "no frame!". (An empty sample is not judged here: the demuxer hands it on as no data.)
  if (params && units === 0 && sample.end > sample.start) {
    throw invalid(`${where}: the first sample holds no NAL unit`);
  }
}

/**
 * NAL headers ffmpeg's splitter drops before decoding (h2645_parse.c): a set forbidden
 * bit; in HEVC also a temporal id of -1 and any layer but the base layer.
 */
function dropped(codec: SliceParams['codec'], nal: Uint8Array): boolean {
  const first = nal[0] ?? 0;
  if ((first & 0x80) !== 0) return true;
  if (codec === 'h264') return false;
  const second = nal[1] ?? 0;
  return (second & 7) === 0 || (first & 1) !== 0 || second >> 3 !== 0;
}

/** VPS ids: an in-band SPS is judged on its own fields, not on the VPS it names. */
const ANY_VPS = new Set(Array.from({ length: 16 }, (_, i) => i));

function inBand(parse: () => void): void {
  try {
    parse();
  } catch (error) {
    if (!(error instanceof ParamSetError)) throw error;
  }
}

/** Enough for any slice header but one with 32-entry weight tables on both lists. */
const HEADER_BYTES = 4096;

function copy(params: SliceParams): SliceParams {
  return params.codec === 'h264'
    ? { codec: 'h264', sets: { sps: new Map(params.sets.sps), pps: new Map(params.sets.pps) } }
    : { codec: 'hevc', sets: { sps: new Set(params.sets.sps), pps: new Map(params.sets.pps) } };
}

/**
 * One NAL unit of the first sample: an in-band parameter set joins the sets (one that
 * does not parse is ignored, as ffmpeg keeps the previous one); the first slice is
 * checked. Returns false once the first slice has been seen.
 */
function sliceStep(params: SliceParams, nal: Uint8Array, cut: boolean, where: string): boolean {
  if (dropped(params.codec, nal)) return true;
  try {
    if (params.codec === 'h264') {
      const type = (nal[0] ?? 0) & 0x1f;
      const { sps, pps } = params.sets;
      if (type === 7) inBand(() => void sps.set(h264Sps(nal).id, h264Sps(nal)));
      if (type === 8) inBand(() => void pps.set(h264Pps(nal, sps).id, h264Pps(nal, sps)));
      // Data partitions (2-4) are not decoded by ffmpeg at all; not judged here.
      if (type >= 1 && type <= 5) {
        if (type === 1 || type === 5) checkH264Slice(nal, params.sets);
        return false;
      }
      return true;
    }
    const type = ((nal[0] ?? 0) >> 1) & 0x3f;
    const { sps, pps } = params.sets;
    if (type === 33) inBand(() => void sps.add(hevcSps(nal, ANY_VPS).id));
    if (type === 34) inBand(() => void pps.set(hevcPps(nal, sps).id, hevcPps(nal, sps)));
    // The slice types ffmpeg decodes; reserved VCL types are skipped as it skips them.
    if (type <= 9 || (type >= 16 && type <= 21)) {
      checkHevcSlice(nal, params.sets);
      return false;
    }
    return true;
  } catch (error) {
    if (!(error instanceof ParamSetError)) throw error;
    // A header running past the bytes read is not judged; past the unit, it is wrong.
    if (cut && error.message === 'ends early') return false;
    throw invalid(`${where}: the first slice ${error.message}`);
  }
}
