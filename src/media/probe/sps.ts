// H.264 parameter sets from `avcC` (ITU-T H.264 §7.3.2.1.1 SPS, §7.3.2.2 PPS), read far
// enough to know a decoder will accept them (issue 9). The ranges are the ones the
// standard sets and ffmpeg's decoder enforces when it opens the stream: a value out of
// them makes ffmpeg refuse the decoder configuration, so no frame and no thumbnail.
// The picture size also feeds the dimension rule (video-rules.ts).
import { BitReader, ParamSetError, payloadBits, unescapeRbsp } from './bits.ts';

export interface PictureSize {
  width: number;
  height: number;
}

export interface H264Sps extends PictureSize {
  id: number;
  chroma: number;
  /** The fields a slice header's layout and ranges depend on (§7.3.3). */
  bitDepthLuma: number;
  log2MaxFrameNum: number;
  pocType: number;
  log2MaxPocLsb: number;
  deltaPicOrderAlwaysZero: boolean;
  frameMbsOnly: boolean;
  direct8x8Inference: boolean;
  mbAff: boolean;
  /** PicSizeInMbs of a frame. */
  frameMbs: number;
}

/** §7.3.2.2 fields a slice header depends on. */
export interface H264Pps {
  id: number;
  spsId: number;
  cabac: boolean;
  bottomFieldPicOrderPresent: boolean;
  refCount: [number, number];
  weightedPred: boolean;
  weightedBipredIdc: number;
  initQp: number;
  deblockingControlPresent: boolean;
  redundantPicCntPresent: boolean;
}

/** profile_idc values of H.264 Annex A, G and H. */
const PROFILES = new Set([
  66, 77, 88, 100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135,
]);
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);
/** Largest picture side accepted from an SPS; the rules then apply the real limits. */
export const MAX_PICTURE_SIDE = 16_384;

function range(name: string, value: number, min: number, max: number): number {
  if (value < min || value > max) {
    throw new ParamSetError(`${name} ${value} is out of range (${min}-${max})`);
  }
  return value;
}

export function h264Sps(nal: Uint8Array): H264Sps {
  const rbsp = unescapeRbsp(nal);
  const r = new BitReader(rbsp);
  r.skip(8); // NAL header
  const profile = r.u(8);
  if (!PROFILES.has(profile))
    throw new ParamSetError(`profile_idc ${profile} is not an H.264 profile`);
  r.skip(16); // constraint flags, level
  const id = range('seq_parameter_set_id', r.ue(), 0, 31);
  let chroma = 1;
  let separatePlanes = 0;
  let bitDepthLuma = 8;
  if (HIGH_PROFILES.has(profile)) {
    chroma = range('chroma_format_idc', r.ue(), 0, 3);
    if (chroma === 3) separatePlanes = r.u(1);
    const luma = range('bit_depth_luma_minus8', r.ue(), 0, 6);
    bitDepthLuma = luma + 8;
    const chromaDepth = range('bit_depth_chroma_minus8', r.ue(), 0, 6);
    if (luma !== chromaDepth) {
      throw new ParamSetError(
        `luma and chroma bit depths differ (${luma + 8} and ${chromaDepth + 8})`,
      );
    }
    r.skip(1); // qpprime_y_zero_transform_bypass_flag
    if (r.u(1) === 1) {
      const lists = chroma === 3 ? 12 : 8;
      for (let i = 0; i < lists; i += 1) {
        if (r.u(1) === 1) skipScalingList(r, i < 6 ? 16 : 64);
      }
    }
  }
  const log2MaxFrameNum = range('log2_max_frame_num_minus4', r.ue(), 0, 12) + 4;
  const pocType = range('pic_order_cnt_type', r.ue(), 0, 2);
  let log2MaxPocLsb = 0;
  let deltaPicOrderAlwaysZero = false;
  if (pocType === 0) {
    log2MaxPocLsb = range('log2_max_pic_order_cnt_lsb_minus4', r.ue(), 0, 12) + 4;
  } else if (pocType === 1) {
    deltaPicOrderAlwaysZero = r.u(1) === 1;
    r.se();
    r.se();
    const cycle = range('num_ref_frames_in_pic_order_cnt_cycle', r.ue(), 0, 255);
    for (let i = 0; i < cycle; i += 1) r.se();
  }
  range('max_num_ref_frames', r.ue(), 0, 16);
  r.skip(1); // gaps_in_frame_num_value_allowed_flag
  const widthMbs = r.ue() + 1;
  const heightUnits = r.ue() + 1;
  const frameMbsOnly = r.u(1);
  const mbAff = frameMbsOnly === 0 && r.u(1) === 1;
  const direct8x8Inference = r.u(1) === 1;
  let crop = [0, 0, 0, 0];
  if (r.u(1) === 1) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
  const vui = r.u(1) === 1;
  if (vui) skipVui(r);
  // ffmpeg drops an SPS read past its stop bit, and every slice referring to it fails.
  const overread = r.position - payloadBits(rbsp);
  if (overread > 0)
    throw new ParamSetError(`overreads its ${vui ? 'VUI' : 'end'} by ${overread} bits`);
  const arrayType = separatePlanes === 1 ? 0 : chroma;
  const cropX = arrayType === 1 || arrayType === 2 ? 2 : 1;
  const cropY = (arrayType === 1 ? 2 : 1) * (2 - frameMbsOnly);
  const [left = 0, right = 0, top = 0, bottom = 0] = crop;
  const codedWidth = widthMbs * 16;
  const codedHeight = (2 - frameMbsOnly) * heightUnits * 16;
  const width = codedWidth - cropX * (left + right);
  const height = codedHeight - cropY * (top + bottom);
  if (codedWidth > MAX_PICTURE_SIDE || codedHeight > MAX_PICTURE_SIDE) {
    throw new ParamSetError(`picture size ${codedWidth}x${codedHeight} is out of range`);
  }
  if (width <= 0 || height <= 0) {
    throw new ParamSetError(`cropping leaves no picture of the coded ${codedWidth}x${codedHeight}`);
  }
  return {
    id,
    chroma,
    width,
    height,
    bitDepthLuma,
    log2MaxFrameNum,
    pocType,
    log2MaxPocLsb,
    deltaPicOrderAlwaysZero,
    frameMbsOnly: frameMbsOnly === 1,
    direct8x8Inference,
    mbAff,
    frameMbs: widthMbs * heightUnits * (2 - frameMbsOnly),
  };
}

function skipScalingList(r: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j += 1) {
    if (next !== 0) next = (last + r.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

/** E.1.1: the VUI fields ffmpeg refuses when out of range (HRD counts, reorder depth). */
function skipVui(r: BitReader): void {
  if (r.u(1) === 1 && r.u(8) === 255) r.skip(32); // aspect ratio, extended SAR
  if (r.u(1) === 1) r.skip(1); // overscan
  if (r.u(1) === 1) {
    r.skip(4); // video_format, full range
    if (r.u(1) === 1) r.skip(24); // colour description
  }
  if (r.u(1) === 1) {
    r.ue();
    r.ue(); // chroma sample locations
  }
  if (r.u(1) === 1) r.skip(65); // timing info
  const nalHrd = r.u(1);
  if (nalHrd === 1) skipHrd(r);
  const vclHrd = r.u(1);
  if (vclHrd === 1) skipHrd(r);
  if (nalHrd === 1 || vclHrd === 1) r.skip(1); // low_delay_hrd_flag
  r.skip(1); // pic_struct_present_flag
  if (r.u(1) === 1) {
    r.skip(1);
    for (let i = 0; i < 4; i += 1) r.ue();
    range('max_num_reorder_frames', r.ue(), 0, 16);
    r.ue(); // max_dec_frame_buffering
  }
}

function skipHrd(r: BitReader): void {
  const count = range('cpb_cnt_minus1', r.ue(), 0, 31) + 1;
  r.skip(8);
  for (let i = 0; i < count; i += 1) {
    r.ue();
    r.ue();
    r.skip(1);
  }
  r.skip(20);
}

/** §7.3.2.2, up to the fields a decoder range-checks; `sps` are the SPSs present by id. */
export function h264Pps(nal: Uint8Array, sps: Map<number, H264Sps>): H264Pps {
  const r = new BitReader(unescapeRbsp(nal));
  r.skip(8);
  const id = range('pic_parameter_set_id', r.ue(), 0, 255);
  const spsId = range('seq_parameter_set_id', r.ue(), 0, 31);
  if (!sps.has(spsId)) throw new ParamSetError(`refers to SPS ${spsId}, which avcC does not hold`);
  const cabac = r.u(1) === 1;
  const bottomFieldPicOrderPresent = r.u(1) === 1;
  const groups = range('num_slice_groups_minus1', r.ue(), 0, 7);
  if (groups > 0) throw new ParamSetError('uses slice groups (FMO), which decoders do not support');
  const l0 = range('num_ref_idx_l0_default_active_minus1', r.ue(), 0, 31) + 1;
  const l1 = range('num_ref_idx_l1_default_active_minus1', r.ue(), 0, 31) + 1;
  const weightedPred = r.u(1) === 1;
  const weightedBipredIdc = range('weighted_bipred_idc', r.u(2), 0, 2);
  const initQp = 26 + range('pic_init_qp_minus26', r.se(), -62, 25);
  range('pic_init_qs_minus26', r.se(), -26, 25);
  range('chroma_qp_index_offset', r.se(), -12, 12);
  const deblockingControlPresent = r.u(1) === 1;
  r.skip(1); // constrained_intra_pred_flag
  const redundantPicCntPresent = r.u(1) === 1;
  return {
    id,
    spsId,
    cabac,
    bottomFieldPicOrderPresent,
    refCount: [l0, l1],
    weightedPred,
    weightedBipredIdc,
    initQp,
    deblockingControlPresent,
    redundantPicCntPresent,
  };
}
