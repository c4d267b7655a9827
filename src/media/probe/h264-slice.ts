// The first slice header of an H.264 video's first picture (ITU-T H.264 §7.3.3), read
// against the parameter sets it names (issue 9). ffmpeg 4.1 parses this header before
// decoding a picture and drops the whole picture when a field is out of range or the
// header refers to a PPS it does not hold (h264_slice.c h264_slice_header_parse,
// h264_parse.c, h264_refs.c): the first frame then never comes out, so no thumbnail.
// The checks are the ones ffmpeg enforces, in its reading order; fields it only warns
// about (memory management operations, weight denominators) are read as it reads them
// so the fields after them are found where ffmpeg finds them.
import { BitReader, ParamSetError, unescapeRbsp } from './bits.ts';
import type { H264Pps, H264Sps } from './sps.ts';

export interface H264Params {
  sps: Map<number, H264Sps>;
  pps: Map<number, H264Pps>;
}

const IDR = 5;
/** slice_type % 5 (Table 7-6). */
const P = 0;
const B = 1;
const I = 2;
const SP = 3;
const SI = 4;

function range(name: string, value: number, min: number, max: number): number {
  if (value < min || value > max) {
    throw new ParamSetError(`has ${name} ${value}, out of range (${min}-${max})`);
  }
  return value;
}

/** Throws a ParamSetError naming the first field ffmpeg would refuse. */
export function checkH264Slice(nal: Uint8Array, params: H264Params): void {
  const r = new BitReader(unescapeRbsp(nal));
  r.skip(1);
  const refIdc = r.u(2);
  const type = r.u(5);
  const firstMb = r.ue();
  const sliceType = range('slice_type', r.ue(), 0, 9) % 5;
  if (type === IDR && sliceType !== I && sliceType !== SI) {
    throw new ParamSetError('is an IDR slice that is not intra coded');
  }
  const ppsId = range('pic_parameter_set_id', r.ue(), 0, 255);
  const pps = params.pps.get(ppsId);
  if (!pps) throw new ParamSetError(`refers to PPS ${ppsId}, which the stream does not hold`);
  const sps = params.sps.get(pps.spsId);
  if (!sps) throw new ParamSetError(`refers to SPS ${pps.spsId}, which the stream does not hold`);
  r.skip(sps.log2MaxFrameNum); // frame_num
  let frame = true;
  if (!sps.frameMbsOnly) {
    if (!sps.direct8x8Inference && sliceType === B) {
      throw new ParamSetError('is a B slice of an SPS without direct_8x8_inference');
    }
    if (r.u(1) === 1) {
      frame = false;
      r.skip(1); // bottom_field_flag
    }
  }
  const half = !frame || sps.mbAff;
  range('first_mb_in_slice', firstMb, 0, (half ? sps.frameMbs / 2 : sps.frameMbs) - 1);
  if (type === IDR) r.ue(); // idr_pic_id
  if (sps.pocType === 0) {
    r.skip(sps.log2MaxPocLsb);
    if (pps.bottomFieldPicOrderPresent && frame) r.se();
  }
  if (sps.pocType === 1 && !sps.deltaPicOrderAlwaysZero) {
    r.se();
    if (pps.bottomFieldPicOrderPresent && frame) r.se();
  }
  const redundant = pps.redundantPicCntPresent ? r.ue() : 0;
  if (sliceType === B) r.skip(1); // direct_spatial_mv_pred_flag
  const refCount = readRefCount(r, pps, sliceType, frame);
  if (sliceType !== I && sliceType !== SI) readListModification(r, refCount, sliceType === B);
  if (
    (pps.weightedPred && (sliceType === P || sliceType === SP)) ||
    (pps.weightedBipredIdc === 1 && sliceType === B)
  ) {
    readWeightTable(r, sps, refCount, sliceType === B);
  }
  if (refIdc !== 0) readRefPicMarking(r, type === IDR, frame);
  if (sliceType !== I && sliceType !== SI && pps.cabac) range('cabac_init_idc', r.ue(), 0, 2);
  const offset = 6 * (sps.bitDepthLuma - 8);
  range('slice QP', pps.initQp + offset + r.se(), 0, 51 + offset);
  if (sliceType === SP) r.skip(1); // sp_for_switch_flag
  if (sliceType === SP || sliceType === SI) r.se(); // slice_qs_delta
  if (pps.deblockingControlPresent) {
    const idc = range('disable_deblocking_filter_idc', r.ue(), 0, 2);
    if (idc !== 1) {
      range('slice_alpha_c0_offset_div2', r.se(), -6, 6);
      range('slice_beta_offset_div2', r.se(), -6, 6);
    }
  }
  // ffmpeg skips redundant pictures silently, once the header has parsed.
  if (redundant > 0) throw new ParamSetError('is a redundant picture (redundant_pic_cnt above 0)');
}

/** num_ref_idx_active_override (h264_parse.c ff_h264_parse_ref_count). */
function readRefCount(r: BitReader, pps: H264Pps, sliceType: number, frame: boolean): number[] {
  if (sliceType === I || sliceType === SI) return [0, 0];
  const b = sliceType === B;
  let [l0, l1] = pps.refCount;
  if (r.u(1) === 1) {
    l0 = r.ue() + 1;
    l1 = b ? r.ue() + 1 : 1;
  }
  const max = frame ? 16 : 32;
  range('num_ref_idx_l0_active', l0, 1, max);
  if (b) range('num_ref_idx_l1_active', l1, 1, max);
  return b ? [l0, l1] : [l0, 0];
}

/** ref_pic_list_modification (§7.3.3.1, h264_refs.c). */
function readListModification(r: BitReader, refCount: number[], b: boolean): void {
  for (let list = 0; list < (b ? 2 : 1); list += 1) {
    if (r.u(1) === 0) continue;
    for (let index = 0; ; index += 1) {
      const op = r.ue();
      if (op === 3) break;
      if (index >= (refCount[list] ?? 0)) {
        throw new ParamSetError('modifies more reference list entries than the list holds');
      }
      range('modification_of_pic_nums_idc', op, 0, 3);
      r.ue();
    }
  }
}

/** pred_weight_table (§7.3.3.2): weights and offsets must fit in 8 bits for ffmpeg. */
function readWeightTable(r: BitReader, sps: H264Sps, refCount: number[], b: boolean): void {
  r.ue(); // luma_log2_weight_denom: ffmpeg only warns when it is above 7
  if (sps.chroma !== 0) r.ue();
  for (let list = 0; list < (b ? 2 : 1); list += 1) {
    for (let i = 0; i < (refCount[list] ?? 0); i += 1) {
      if (r.u(1) === 1) {
        range('luma weight', r.se(), -128, 127);
        range('luma offset', r.se(), -128, 127);
      }
      if (sps.chroma !== 0 && r.u(1) === 1) {
        for (let j = 0; j < 4; j += 1) range('chroma weight or offset', r.se(), -128, 127);
      }
    }
  }
}

/**
 * dec_ref_pic_marking (§7.3.3.3), read as ffmpeg reads it: its errors are not fatal,
 * ffmpeg stops reading the operations where it finds one and goes on from there.
 */
function readRefPicMarking(r: BitReader, idr: boolean, frame: boolean): void {
  if (idr) {
    r.skip(2); // no_output_of_prior_pics_flag, long_term_reference_flag
    return;
  }
  if (r.u(1) === 0) return;
  for (let i = 0; i < MAX_MMCO; i += 1) {
    const op = ue31(r);
    if (op === 1 || op === 3) r.ue();
    if (op === 2 || op === 3 || op === 4 || op === 6) {
      const arg = ue31(r);
      const allowed = arg < 16 || (op === 4 && arg === 16) || (op === 2 && !frame && arg < 32);
      if (!allowed) return;
    }
    if (op === 0 || op > 6) return;
  }
}

/** ffmpeg's MAX_MMCO_COUNT. */
const MAX_MMCO = 66;

/**
 * ffmpeg's get_ue_golomb_31: a table lookup on 9 bits. Codes with 9 or more leading
 * zeros consume 19 bits and read as 32, which matters where the error is not fatal.
 */
function ue31(r: BitReader): number {
  const start = r.position;
  let zeros = 0;
  while (zeros < 9 && r.u(1) === 0) zeros += 1;
  if (zeros < 9) return 2 ** zeros - 1 + r.u(zeros);
  r.skip(19 - (r.position - start));
  return 32;
}
