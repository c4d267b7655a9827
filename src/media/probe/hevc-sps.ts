// HEVC parameter sets from `hvcC` (ITU-T H.265 §7.3.2.1 VPS, §7.3.2.2 SPS, §7.3.2.3
// PPS), read up to the fields a decoder range-checks before it opens the stream and
// the picture size (issue 9). The ranges are the standard's, as ffmpeg enforces them.
import { BitReader, ParamSetError, unescapeRbsp } from './bits.ts';
import { MAX_PICTURE_SIDE } from './sps.ts';
import type { PictureSize } from './sps.ts';

const MAX_SUB_LAYERS = 7;

function range(name: string, value: number, min: number, max: number): number {
  if (value < min || value > max) {
    throw new ParamSetError(`${name} ${value} is out of range (${min}-${max})`);
  }
  return value;
}

/** profile_tier_level(1, maxSubLayersMinus1), §7.3.3. */
function skipProfileTierLevel(r: BitReader, subLayers: number): void {
  r.skip(88 + 8);
  const profilePresent: number[] = [];
  const levelPresent: number[] = [];
  for (let i = 0; i < subLayers; i += 1) {
    profilePresent.push(r.u(1));
    levelPresent.push(r.u(1));
  }
  if (subLayers > 0) r.skip(2 * (8 - subLayers));
  for (let i = 0; i < subLayers; i += 1) {
    if (profilePresent[i] === 1) r.skip(88);
    if (levelPresent[i] === 1) r.skip(8);
  }
}

/** Returns the VPS id. */
export function hevcVps(nal: Uint8Array): number {
  const r = new BitReader(unescapeRbsp(nal));
  r.skip(16);
  const id = r.u(4);
  r.skip(8); // reserved_three_2bits, vps_max_layers_minus1
  const subLayers = range('vps_max_sub_layers_minus1', r.u(3), 0, MAX_SUB_LAYERS - 1);
  r.skip(17); // temporal_id_nesting, reserved 0xffff
  skipProfileTierLevel(r, subLayers);
  return id;
}

export interface HevcSps extends PictureSize {
  id: number;
}

export function hevcSps(nal: Uint8Array, vpsIds: Set<number>): HevcSps {
  const r = new BitReader(unescapeRbsp(nal));
  r.skip(16); // NAL header
  const vps = r.u(4);
  if (!vpsIds.has(vps)) throw new ParamSetError(`refers to VPS ${vps}, which hvcC does not hold`);
  const subLayers = range('sps_max_sub_layers_minus1', r.u(3), 0, MAX_SUB_LAYERS - 1);
  r.skip(1);
  skipProfileTierLevel(r, subLayers);
  const id = range('sps_seq_parameter_set_id', r.ue(), 0, 15);
  const chroma = range('chroma_format_idc', r.ue(), 0, 3);
  let separatePlanes = 0;
  if (chroma === 3) separatePlanes = r.u(1);
  const codedWidth = r.ue();
  const codedHeight = r.ue();
  if (codedWidth === 0 || codedHeight === 0) {
    throw new ParamSetError(`picture size ${codedWidth}x${codedHeight} is empty`);
  }
  if (codedWidth > MAX_PICTURE_SIDE || codedHeight > MAX_PICTURE_SIDE) {
    throw new ParamSetError(`picture size ${codedWidth}x${codedHeight} is out of range`);
  }
  let crop = [0, 0, 0, 0];
  if (r.u(1) === 1) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
  const luma = range('bit_depth_luma_minus8', r.ue(), 0, 4);
  const chromaDepth = range('bit_depth_chroma_minus8', r.ue(), 0, 4);
  if (chroma !== 0 && luma !== chromaDepth) {
    throw new ParamSetError(
      `luma and chroma bit depths differ (${luma + 8} and ${chromaDepth + 8})`,
    );
  }
  range('log2_max_pic_order_cnt_lsb_minus4', r.ue(), 0, 12);
  const arrayType = separatePlanes === 1 ? 0 : chroma;
  const subW = arrayType === 1 || arrayType === 2 ? 2 : 1;
  const subH = arrayType === 1 ? 2 : 1;
  const [left = 0, right = 0, top = 0, bottom = 0] = crop;
  const width = codedWidth - subW * (left + right);
  const height = codedHeight - subH * (top + bottom);
  if (width <= 0 || height <= 0) {
    throw new ParamSetError(
      `the conformance window leaves no picture of the coded ${codedWidth}x${codedHeight}`,
    );
  }
  return { id, width, height };
}

/** §7.3.2.3 fields the start of a slice segment header depends on (§7.3.6.1). */
export interface HevcPps {
  id: number;
  spsId: number;
  extraSliceHeaderBits: number;
}

export function hevcPps(nal: Uint8Array, spsIds: Set<number>): HevcPps {
  const r = new BitReader(unescapeRbsp(nal));
  r.skip(16);
  const id = range('pps_pic_parameter_set_id', r.ue(), 0, 63);
  const spsId = range('pps_seq_parameter_set_id', r.ue(), 0, 15);
  if (!spsIds.has(spsId)) {
    throw new ParamSetError(`refers to SPS ${spsId}, which hvcC does not hold`);
  }
  r.skip(2); // dependent_slice_segments_enabled_flag, output_flag_present_flag
  return { id, spsId, extraSliceHeaderBits: r.u(3) };
}
